/* test_contract.c — what dumpanalyze.h promises of its ABI and memory:
 * versions, the size checks of struct da_options and da_sink, and the one
 * lifetime rule (and that the memory checkers catch a read past it).
 * test_state.c has what the counts, places and answers say. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "dumpanalyze.h"
#include "records.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#define VALGRIND_COUNT_ERRORS 0u
#endif

#define PENLIGHT "samples/penlight-x.dump"

/* ---- versions and the size checks ------------------------------------- */

struct diags {
	unsigned n, errors;
	uint64_t line;
	char msg[512];
};

static void record_diag(void *data, enum da_severity sev, const char *file, uint64_t line,
                        const char *msg)
{
	(void)file;
	struct diags *g = data;
	g->n++;
	g->errors += sev == DA_ERROR;
	g->line = line;
	snprintf(g->msg, sizeof(g->msg), "%s", msg);
}

static void test_version_macros_and_functions_agree(void **state)
{
	(void)state;
	char want[32];
	snprintf(want, sizeof(want), "%d.%d.%d", DA_VERSION_MAJOR, DA_VERSION_MINOR, DA_VERSION_PATCH);
	assert_string_equal(want, DA_VERSION_STRING);
	assert_string_equal(da_version(), DA_VERSION_STRING);
	assert_string_equal(da_version(), "0.4.0");
	assert_int_equal(DA_VERSION_NUM, 0x000400);
	assert_int_equal(da_version_number(), DA_VERSION_NUM);
	assert_true(DA_AT_LEAST_VERSION(0, 4, 0));
	assert_true(DA_AT_LEAST_VERSION(0, 3, 9));
	assert_false(DA_AT_LEAST_VERSION(0, 4, 1));
	assert_false(DA_AT_LEAST_VERSION(1, 0, 0));
	assert_int_equal(DA_ABI, 2);
	struct da_options o = DA_OPTIONS();
	struct da_sink s = DA_SINK();
	assert_int_equal(o.size, sizeof(struct da_options));
	assert_int_equal(s.size, sizeof(struct da_sink));
}

/* A caller built against a newer header: our struct, then fields we do
 * not know. */
struct newer_options {
	struct da_options o;
	uint64_t later[3];
};

static void test_options_and_sink_sizes_are_checked_at_open(void **state)
{
	(void)state;
	struct diags g = { 0 };
	int err = 0;
	/* no DA_OPTIONS: size 0, refused, and said why */
	struct da_options bare = { .flags = DA_ANSWERS, .diag = record_diag, .diag_data = &g };
	assert_null(da_open_path(PENLIGHT, &bare, &err));
	assert_int_equal(err, DA_EINVAL);
	assert_int_equal(g.errors, 1);
	assert_int_equal(g.line, 0);
	char want[256];
	snprintf(want, sizeof(want), "struct da_options: size 0 is not one any dumpanalyze.h gives "
	         "(%zu here): make it with DA_OPTIONS()", sizeof(struct da_options));
	assert_string_equal(g.msg, want);
	/* one byte short: refused; a size no compiler gave, so its diag is
	 * not trusted either */
	memset(&g, 0, sizeof(g));
	struct da_options o = DA_OPTIONS(.diag = record_diag, .diag_data = &g);
	o.size = sizeof(o) - 1;
	assert_null(da_open_memory("", 0, &o, &err));
	assert_int_equal(err, DA_EINVAL);
	assert_int_equal(g.n, 0);
	o.size = 1u << 20;
	assert_null(da_open_memory("", 0, &o, &err));
	assert_int_equal(err, DA_EINVAL);
	assert_int_equal(g.n, 0);

	/* a sink without DA_SINK */
	struct da_sink sink = { .abort = NULL };
	o = (struct da_options)DA_OPTIONS(.sink = &sink, .diag = record_diag, .diag_data = &g);
	assert_null(da_open_memory("", 0, &o, &err));
	assert_int_equal(err, DA_EINVAL);
	assert_int_equal(g.errors, 1);
	snprintf(want, sizeof(want), "struct da_sink: size 0 is not one any dumpanalyze.h gives "
	         "(%zu here): make it with DA_SINK()", sizeof(struct da_sink));
	assert_string_equal(g.msg, want);

	/* flags this library does not know */
	memset(&g, 0, sizeof(g));
	o = (struct da_options)DA_OPTIONS(.flags = DA_ANSWERS | 1u << 20, .diag = record_diag,
	                                  .diag_data = &g);
	assert_null(da_open_memory("", 0, &o, &err));
	assert_int_equal(err, DA_EINVAL);
	assert_string_equal(g.msg, "options.flags: 0x100000 are no flags of this library (0.4.0)");

	/* a newer caller's larger struct: taken when what we do not know is
	 * zero, refused otherwise */
	struct newer_options big;
	memset(&big, 0, sizeof(big));
	big.o = (struct da_options)DA_OPTIONS(.flags = DA_ANSWERS, .diag = record_diag,
	                                      .diag_data = &g);
	big.o.size = sizeof(big);
	da_dump *d = da_open_path(PENLIGHT, &big.o, &err);
	assert_non_null(d);
	assert_int_equal(err, DA_OK);
	assert_int_equal(da_read(d), DA_OK);
	assert_int_equal(da_abort_reason(d, 0)->count, 21);     /* its flags were taken */
	da_close(d);
	memset(&g, 0, sizeof(g));
	big.later[2] = 1;
	assert_null(da_open_path(PENLIGHT, &big.o, &err));
	assert_int_equal(err, DA_EINVAL);
	snprintf(want, sizeof(want), "struct da_options: a newer dumpanalyze.h (size %zu) sets "
	         "fields this library (0.4.0, size %zu) does not know", sizeof(big),
	         sizeof(struct da_options));
	assert_string_equal(g.msg, want);

	/* a jit/vmdef.lua that is none */
	memset(&g, 0, sizeof(g));
	o = (struct da_options)DA_OPTIONS(.vmdef_path = PENLIGHT, .diag = record_diag,
	                                  .diag_data = &g);
	assert_null(da_open_path(PENLIGHT, &o, &err));
	assert_int_equal(err, DA_EINVAL);
	assert_string_equal(g.msg, PENLIGHT ": no LuaJIT jit/vmdef.lua (unreadable, or no bcnames)");
}

/* ---- lifetimes ------------------------------------------------------- */

/* Every record of a generation, kept by pointer with what it said in its
 * callback, said again at gen_end: the same. */
struct kept {
	struct rec then, now;
	const struct da_trace *traces[512];
	const struct da_abort *aborts[512];
	const struct da_exit *exits[1024];
	unsigned nt, na, nx, gens;
	/* strings, and their bytes, to read after reading ends */
	const char *strings[4096];
	char *copies[4096];
	unsigned ns;
};

static void keep_string(struct kept *k, const char *s)
{
	if (!s || k->ns == 4096)
		return;
	k->strings[k->ns] = s;
	k->copies[k->ns] = strdup(s);
	assert_non_null(k->copies[k->ns]);
	k->ns++;
}

static int kept_trace(void *data, const struct da_trace *t)
{
	struct kept *k = data;
	assert_true(k->nt < 512);
	k->traces[k->nt++] = t;
	assert_non_null(t->text);
	keep_string(k, t->loc);
	keep_string(k, t->file);
	keep_string(k, t->link);
	return rec_trace(&k->then, t);
}

static int kept_abort(void *data, const struct da_abort *a)
{
	struct kept *k = data;
	assert_true(k->na < 512);
	k->aborts[k->na++] = a;
	keep_string(k, a->reason);
	keep_string(k, a->reason_normal);
	for (uint32_t i = 0; i < a->nbytecode; i++)
		keep_string(k, a->bytecode[i]);
	return rec_abort(&k->then, a);
}

static int kept_exit(void *data, const struct da_exit *x)
{
	struct kept *k = data;
	assert_true(k->nx < 1024);
	k->exits[k->nx++] = x;
	keep_string(k, x->trace_file);
	return rec_exit(&k->then, x);
}

static int kept_gen_end(void *data, const struct da_gen *g)
{
	(void)g;
	struct kept *k = data;
	for (unsigned i = 0; i < k->nt; i++)
		rec_trace(&k->now, k->traces[i]);
	for (unsigned i = 0; i < k->na; i++)
		rec_abort(&k->now, k->aborts[i]);
	for (unsigned i = 0; i < k->nx; i++)
		rec_exit(&k->now, k->exits[i]);
	/* the callbacks ran in another order: compare as sets of lines */
	assert_int_equal(k->then.len, k->now.len);
	assert_int_equal(k->then.traces, k->now.traces);
	assert_int_equal(k->then.aborts, k->now.aborts);
	assert_int_equal(k->then.exits, k->now.exits);
	for (char *l = k->now.buf; l && *l;) {
		char *nl = strchr(l, '\n');
		*nl = '\0';
		assert_non_null(strstr(k->then.buf, l));
		*nl = '\n';
		l = nl + 1;
	}
	k->then.len = k->now.len = 0;
	k->nt = k->na = k->nx = 0;
	k->gens++;
	return 0;
}

static void test_every_record_and_its_text_lives_until_gen_end_strings_until_close(void **state)
{
	(void)state;
	static const char *const dumps[] = { "samples/flush.dump", PENLIGHT, "samples/late.dump" };
	static const unsigned gens[] = { 4, 1, 1 };
	for (size_t i = 0; i < 3; i++) {
		struct kept *k = calloc(1, sizeof(*k));
		assert_non_null(k);
		struct da_sink sink = DA_SINK(.trace = kept_trace, .abort = kept_abort,
		                              .exit = kept_exit, .gen_end = kept_gen_end);
		struct da_options o = DA_OPTIONS(.flags = DA_KEEP_TEXT, .sink = &sink, .sink_data = k);
		da_dump *d = da_open_path(dumps[i], &o, NULL);
		assert_int_equal(da_read(d), DA_OK);
		assert_int_equal(k->gens, gens[i]);
		assert_true(k->ns >= 6);     /* late.dump: a trace's 3, three exits' */
		for (unsigned s = 0; s < k->ns; s++) {
			assert_string_equal(k->strings[s], k->copies[s]);
			free(k->copies[s]);
		}
		da_close(d);
		free(k->then.buf);
		free(k->now.buf);
		free(k);
	}
}

/* What a child process that reads past a lifetime ends with: its exit
 * status and what it wrote on stderr. */
struct first {
	const struct da_trace *t;
	const struct da_abort *a;
	const char *file;
};

static int keep_first_trace(void *data, const struct da_trace *t)
{
	struct first *f = data;
	if (!f->t) {
		f->t = t;
		f->file = t->file;
	}
	return 0;
}

static int keep_first_abort(void *data, const struct da_abort *a)
{
	struct first *f = data;
	if (!f->a)
		f->a = a;
	return 0;
}

enum past { TRACE_AFTER_GEN_END, TEXT_AFTER_GEN_END, ABORT_AFTER_CALLBACK, STRING_AFTER_CLOSE };

static int read_past(enum past what, char *err, size_t nerr)
{
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fds[1], 2);
		close(fds[0]);
		struct first f = { 0 };
		struct da_sink sink = DA_SINK(.trace = keep_first_trace, .abort = keep_first_abort);
		struct da_options o = DA_OPTIONS(.flags = DA_KEEP_TEXT, .sink = &sink, .sink_data = &f);
		if (what == ABORT_AFTER_CALLBACK)
			o.flags |= DA_CALLBACK_ONLY;
		da_dump *d = da_open_path(PENLIGHT, &o, NULL);
		if (!d || da_read(d) != DA_OK)
			_exit(3);
		volatile unsigned sum = (unsigned char)f.file[0];   /* a string: still good */
		unsigned errors = VALGRIND_COUNT_ERRORS;
		if (what == TRACE_AFTER_GEN_END)
			sum += f.t->id;
		else if (what == TEXT_AFTER_GEN_END)
			sum += (unsigned char)f.t->text->buf[0];
		else if (what == ABORT_AFTER_CALLBACK)
			sum += f.a->id;
		da_close(d);
		if (what == STRING_AFTER_CLOSE)
			sum += (unsigned char)f.file[0];
		(void)sum;
		/* valgrind reports on its own descriptor: the count says */
		_exit(RUNNING_ON_VALGRIND && VALGRIND_COUNT_ERRORS > errors ? 42 : 0);
	}
	close(fds[1]);
	size_t n = 0;
	ssize_t k;
	while (n + 1 < nerr && (k = read(fds[0], err + n, nerr - 1 - n)) > 0)
		n += (size_t)k;
	err[n] = '\0';
	char drain[4096];
	while (read(fds[0], drain, sizeof(drain)) > 0)
		;
	close(fds[0]);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static void test_memory_checkers_catch_a_read_past_the_lifetime(void **state)
{
	(void)state;
	if (!UNDER_ASAN && !RUNNING_ON_VALGRIND) {
		/* Nothing catches it in a plain build: the child ends well. */
		char err[256];
		int status = read_past(TRACE_AFTER_GEN_END, err, sizeof(err));
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
		print_message("plain build: make check-asan and check-valgrind see the reads caught\n");
		return;
	}
	static const enum past cases[] = { TRACE_AFTER_GEN_END, TEXT_AFTER_GEN_END,
		                           ABORT_AFTER_CALLBACK, STRING_AFTER_CLOSE };
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		static char err[65536];
		int status = read_past(cases[i], err, sizeof(err));
		assert_true(WIFEXITED(status));
		if (UNDER_ASAN) {
			assert_int_not_equal(WEXITSTATUS(status), 0);
			assert_true(strstr(err, "use-after-poison") || strstr(err, "heap-use-after-free"));
		} else {
			/* 42, or valgrind's --error-exitcode */
			assert_int_not_equal(WEXITSTATUS(status), 0);
		}
	}
	if (RUNNING_ON_VALGRIND)
		print_message("(the %zu invalid reads valgrind reported above are this test's)\n",
		              sizeof(cases) / sizeof(cases[0]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version_macros_and_functions_agree),
		cmocka_unit_test(test_options_and_sink_sizes_are_checked_at_open),
		cmocka_unit_test(test_every_record_and_its_text_lives_until_gen_end_strings_until_close),
		cmocka_unit_test(test_memory_checkers_catch_a_read_past_the_lifetime),
	};
	return cmocka_run_group_tests_name("contract", tests, NULL, NULL);
}
