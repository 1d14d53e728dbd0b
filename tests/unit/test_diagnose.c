/* test_diagnose.c — how a flush's cause is told (machine code, the trace
 * limit, jit.flush()), from records built here: the nginx case (one
 * flush at luajit2's 8000) has no sample, and each rule's edge wants its
 * own run.  The real dumps are checked in tests/cli/diagnose.sh. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "analysis/diagnose.h"
#include "util/intern.h"

struct run { struct diagnose d; struct intern in; uint32_t gen; };

static void start(struct run *r)
{
	memset(r, 0, sizeof(*r));
	intern_init(&r->in);
	r->gen = 1;
}

static void traces(struct run *r, uint32_t from, uint32_t to)
{
	for (uint32_t id = from; id <= to; id++) {
		struct da_trace t;
		memset(&t, 0, sizeof(t));
		t.id = id;
		t.gen = r->gen;
		t.file = intern_get(&r->in, "app.lua", 7);
		t.line = (int32_t)id;
		t.size_mc = 1024;
		diagnose_trace(&r->d, &t);
	}
}

static void abort_(struct run *r, uint32_t id, const char *reason)
{
	struct da_abort a;
	memset(&a, 0, sizeof(a));
	a.id = id;
	a.gen = r->gen;
	a.reason = intern_get(&r->in, reason, strlen(reason));
	diagnose_abort(&r->d, &a);
}

static void flush(struct run *r)
{
	struct da_gen g;
	memset(&g, 0, sizeof(g));
	g.number = r->gen++;
	diagnose_gen_end(&r->d, &g);
}

/* The findings as one string; frees the run. */
static char *finish(struct run *r)
{
	flush(r);               /* the end of the dump closes the last one */
	char **l;
	size_t n = diagnose_lines(&r->d, 0, 0, &l);
	size_t len = 1;
	for (size_t i = 0; i < n; i++)
		len += strlen(l[i]);
	char *s = calloc(1, len);
	for (size_t i = 0; i < n; i++)
		strcat(s, l[i]);
	diagnose_lines_free(l, n);
	diagnose_free(&r->d);
	intern_free(&r->in);
	return s;
}

/* nginx with luajit2: generation 1 ends at trace 8000, once. */
static void test_maxtrace_luajit2_once(void **state)
{
	(void)state;
	struct run r;
	start(&r);
	traces(&r, 1, 8000);
	flush(&r);
	traces(&r, 1, 12);
	char *s = finish(&r);
	assert_string_equal(s,
		"1 flush at trace 8000, the trace limit (maxtrace), after gen 1\n"
		"    try -Omaxtrace=16000 (default 1000; 8000 in OpenResty's luajit2)\n");
	free(s);
}

/* A number the program reached twice, but a later generation went past
 * it: no limit there, so explicit flushes. */
static void test_passed_later_is_explicit(void **state)
{
	(void)state;
	struct run r;
	start(&r);
	traces(&r, 1, 300);
	flush(&r);
	traces(&r, 1, 300);
	flush(&r);
	traces(&r, 1, 301);
	char *s = finish(&r);
	assert_string_equal(s, "2 explicit flushes (jit.flush(): no abort before, below the"
		" trace limit), after gen 1-2\n");
	free(s);
}

/* 300 twice, never passed: -Omaxtrace=300. */
static void test_repeated_highest_is_limit(void **state)
{
	(void)state;
	struct run r;
	start(&r);
	traces(&r, 1, 300);
	flush(&r);
	traces(&r, 1, 300);
	flush(&r);
	traces(&r, 1, 40);
	char *s = finish(&r);
	assert_string_equal(s,
		"2 flushes at trace 300, the trace limit (maxtrace), after gen 1-2\n"
		"    try -Omaxtrace=600 (default 1000; 8000 in OpenResty's luajit2)\n");
	free(s);
}

/* Small numbers repeat under jit.flush() in a loop (flush.dump: 9, 9). */
static void test_small_repeat_is_explicit(void **state)
{
	(void)state;
	struct run r;
	start(&r);
	traces(&r, 1, 9);
	flush(&r);
	traces(&r, 1, 9);
	flush(&r);
	char *s = finish(&r);
	assert_string_equal(s, "2 explicit flushes (jit.flush(): no abort before, below the"
		" trace limit), after gen 1-2\n");
	free(s);
}

/* The mcode abort is the last record: mcode, even at a default limit;
 * a trace compiled after it means the flush was something else. */
static void test_mcode_last_record(void **state)
{
	(void)state;
	struct run r;
	start(&r);
	traces(&r, 1, 999);
	abort_(&r, 1000, "failed to allocate mcode memory");
	flush(&r);
	traces(&r, 1, 5);
	abort_(&r, 6, "failed to allocate mcode memory");
	traces(&r, 6, 6);
	flush(&r);
	char *s = finish(&r);
	assert_string_equal(s,
		"1 flush after machine code memory ran out (\"failed to allocate mcode memory\"),"
		" after gen 1\n"
		"    try -Omaxmcode=4096 (KB; default 512 in LuaJIT 2.0/2.1 beta3; a generation held up"
		" to 999 KB of traces)\n"
		"1 explicit flush (jit.flush(): no abort before, below the trace limit), after gen 2\n");
	free(s);
}

/* Ten flushes are a storm; generation lists stop at 6 ranges. */
static void test_storm_and_ranges(void **state)
{
	(void)state;
	struct run r;
	start(&r);
	for (int i = 0; i < 14; i++) {
		traces(&r, 1, 3);
		if (i % 2)
			abort_(&r, 4, "failed to allocate mcode memory");
		flush(&r);
	}
	char *s = finish(&r);
	assert_string_equal(s,
		"flush storm: 14 flushes, each threw away every compiled trace (7 machine code,"
		" 0 trace limit, 7 explicit)\n"
		"7 flushes after machine code memory ran out (\"failed to allocate mcode memory\"),"
		" after gen 2, 4, 6, 8, 10, 12, 1 more\n"
		"    try -Omaxmcode=1024 (KB; default 512 in LuaJIT 2.0/2.1 beta3; a generation held up"
		" to 3 KB of traces)\n"
		"7 explicit flushes (jit.flush(): no abort before, below the trace limit),"
		" after gen 1, 3, 5, 7, 9, 11, 1 more\n");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_maxtrace_luajit2_once),
		cmocka_unit_test(test_passed_later_is_explicit),
		cmocka_unit_test(test_repeated_highest_is_limit),
		cmocka_unit_test(test_small_repeat_is_explicit),
		cmocka_unit_test(test_mcode_last_record),
		cmocka_unit_test(test_storm_and_ranges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
