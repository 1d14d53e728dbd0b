/* test_fuzz_combined.c — fuzz_combined's generator (tests/fuzz/
 * fuzz_combined_gen.c) on issue 34's dump: the places it reads, the
 * stacks and the sysprof stream it writes (both read back by the
 * library's readers), the names it may write as files; then the target
 * itself, built without libFuzzer, over tests/fuzz/regressions/combined/
 * (the replay of what it found, as libxml2's fuzz/testFuzzer.c does).
 * Run from the top of the tree. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "profile/profile.h"
#include "profile/sysprof.h"
#include "samples.h"
#include "../fuzz/fuzz_run.c"
#include "../fuzz/fuzz_combined_gen.c"
#include "../fuzz/fuzz_combined.c"

/* Issue 34's three-line dump behind a head: -jp=G (kind 1), views group
 * 0, the recipe "lr", states and a root frame, 3 stacks, seed 1. */
static const char issue34[] = "\x01\x0d\x02\x01\x00\x00\x00\x00\x01"
	"---- TRACE 1 start d1/app.lua:2\n"
	"---- TRACE 1 abort d1/app.lua:5 -- NYI: bytecode 50\n"
	"---- TRACE 9 abort x.lua:1 -- NYI: bytecode 51\n";

static void read_issue34(struct gen *g)
{
	memset(g, 0, sizeof(*g));
	gen_read(g, (const uint8_t *)issue34, sizeof(issue34) - 1);
}

static void test_places(void **s)
{
	(void)s;
	struct gen g;
	read_issue34(&g);
	assert_int_equal(g.what, 1);
	assert_int_equal(g.dump_len, sizeof(issue34) - 1 - GEN_HEAD);
	assert_int_equal(g.nnames, 2);
	assert_int_equal(g.names[0].n, 10);
	assert_memory_equal(g.names[0].p, "d1/app.lua", 10);
	assert_int_equal(g.names[0].first, 2);
	assert_int_equal(g.names[0].last, 5);
	assert_memory_equal(g.names[1].p, "x.lua", 5);
	assert_int_equal(g.nplaces, 3);
	int want[3][2] = { { 0, 2 }, { 0, 5 }, { 1, 1 } };
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(g.places[i].name, want[i][0]);
		assert_int_equal(g.places[i].line, want[i][1]);
	}
	/* only "start" headers are traces: 9 aborts without one */
	assert_int_equal(g.ntraces, 1);
	assert_int_equal(g.traces[0].no, 1);
	assert_int_equal(g.traces[0].line, 2);
	gen_free(&g);

	/* a bytecode line's "; file:line", luajit2's "(file:line)"; no place
	 * in a compressed dump or a short input: a place of its own */
	static const char more[] = "\x00\x00\x00\x00\x00\x00\x00\x00\x00"
		"0006  FNEW     6   0      ; views/cart.lua:5\n"
		"0110  MODVN   18  17   4  (annotated.lua:21)\n";
	gen_read(&g, (const uint8_t *)more, sizeof(more) - 1);
	assert_int_equal(g.nplaces, 2);
	assert_memory_equal(g.names[0].p, "views/cart.lua", 14);
	assert_memory_equal(g.names[1].p, "annotated.lua", 13);
	assert_int_equal(g.places[1].line, 21);
	gen_read(&g, (const uint8_t *)"\x02", 1);
	assert_int_equal(g.dump_len, 0);
	assert_int_equal(g.nplaces, 1);
	assert_memory_equal(g.names[0].p, "gen.lua", 7);
	gen_free(&g);
}

/* The stacks made for issue34 (reviewed by hand: three stacks walking
 * the places with a stride, one frame moved to "gen.lua", two to the
 * base name) read back as -jp=Gvl. */
static void test_stacks(void **s)
{
	(void)s;
	struct gen g;
	read_issue34(&g);
	gen_jp(&g, 1);
	static const char want[] =
		"Interpreted 28\n"
		"@0x1;d1/app.lua:5;gen.lua:1;app.lua:2;app.lua:5 28\n"
		"Compiled 7\n"
		"@0x1;x.lua:1;d1/app.lua:5 7\n"
		"JIT Compiler 50\n"
		"@0x1;d1/app.lua:5;d1/app.lua:2;x.lua:1 50\n";
	assert_int_equal(g.jp.n, sizeof(want) - 1);
	assert_memory_equal(g.jp.p, want, g.jp.n);
	char path[] = "/tmp/test_fuzz_combined.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, g.jp.p, g.jp.n), (ssize_t)g.jp.n);
	close(fd);
	struct profile p;
	struct profile_error pe;
	profile_init(&p, path);
	assert_int_equal(profile_load(&p, path, &pe), 0);
	unlink(path);
	assert_int_equal(p.kind, PROFILE_STACKS);
	assert_int_equal(p.states, 1);
	assert_int_equal(p.nstacks, 3);
	profile_free(&p);
	gen_free(&g);
}

/* The sysprof stream reads: every sample, the dump's trace 1 in its
 * symbol table. */
static void test_sysprof(void **s)
{
	(void)s;
	struct gen g;
	read_issue34(&g);
	gen_sysprof(&g);
	struct sysprof p;
	struct sysprof_error e;
	sysprof_init(&p, "gen.sysprof");
	assert_int_equal(sysprof_load_memory(&p, g.sysprof.p, g.sysprof.n, &e), SYSPROF_OK);
	assert_int_equal(p.samples, 4 + 2);     /* 4 + recipe[1] % 60 */
	assert_int_equal(p.bytes, g.sysprof.n);
	assert_true(p.ntraces >= 1);
	assert_int_equal(p.traces[0].traceno, 1);
	assert_int_equal(p.traces[0].line, 2);
	assert_string_equal(p.traces[0].file, "d1/app.lua");
	sysprof_free(&p);
	gen_free(&g);
}

static void test_writable(void **s)
{
	(void)s;
	static const struct { const char *name; int ok; } cases[] = {
		{ "d1/app.lua", 1 }, { "x.lua", 1 }, { "../x.lua", 0 }, { "/etc/passwd", 0 },
		{ ".git/config", 0 }, { "a/.ssh/id_rsa", 0 }, { "a//b.lua", 0 }, { "a/./b.lua", 0 },
		{ "a/", 0 }, { "", 0 }, { "tab\tname.lua", 0 }, { "a\\b.lua", 0 },
		{ "a/b/c/d.lua", 1 }, { "a/b/c/d/e.lua", 0 },
	};
	struct gen g;
	memset(&g, 0, sizeof(g));
	g.nnames = 1;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		g.names[0] = (struct gen_name){ cases[i].name, strlen(cases[i].name), 1, 1 };
		assert_int_equal(gen_name_writable(&g, 0), cases[i].ok);
	}
	/* a file of 7 lines for lines up to 5 (two past the last), none past
	 * 600 lines */
	read_issue34(&g);
	assert_int_equal(gen_source(&g, 0), 0);
	size_t lines = 0;
	for (size_t i = 0; i < g.text.n; i++)
		lines += g.text.p[i] == '\n';
	assert_int_equal(lines, 7);
	g.names[0].last = 601;
	assert_int_equal(gen_source(&g, 0), -1);
	gen_free(&g);
}

/* The target over every regression of its own (NAME.exitN; a .pending
 * one waits for its fix), and over issue34 with the pictures: no check
 * fails, no sanitizer speaks (under make check-asan). */
static void test_replay(void **s)
{
	(void)s;
	char *argv0 = "tests/fuzz/fuzz_combined", **argv = &argv0;
	int argc = 1;
	LLVMFuzzerInitialize(&argc, &argv);
	const char *dir = "tests/fuzz/regressions/combined";
	DIR *d = opendir(dir);
	assert_non_null(d);
	struct dirent *e;
	size_t ran = 0, named = 0;
	while ((e = readdir(d)) != NULL) {
		if (!strstr(e->d_name, ".exit"))
			continue;
		named++;
		char path[512];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		size_t len;
		char *bytes = slurp(path, &len);
		LLVMFuzzerTestOneInput((const uint8_t *)bytes, len);
		free(bytes);
		ran++;
	}
	closedir(d);
	assert_int_equal(ran, named);
	/* -jp lines (kind 0) and every group of views, pictures on */
	for (unsigned group = 0; group < 8; group++) {
		char in[sizeof(issue34)];
		memcpy(in, issue34, sizeof(issue34));
		in[0] = (char)(group << 2);
		in[3] = 0;
		LLVMFuzzerTestOneInput((const uint8_t *)in, sizeof(in) - 1);
	}
	/* the Lua files it wrote: d1/app.lua (its directory made) and
	 * x.lua, gone with the directory at the end */
	assert_int_equal(nwritten, 2);
	assert_int_equal(nmade, 1);
	assert_string_equal(made[0], "d1");
	scratch_remove();
	assert_int_equal(access(scratch, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_places),
		cmocka_unit_test(test_stacks),
		cmocka_unit_test(test_sysprof),
		cmocka_unit_test(test_writable),
		cmocka_unit_test(test_replay),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
