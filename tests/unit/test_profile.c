/* test_profile.c — reading -jp output: every format LuaJIT's p.lua
 * writes that we read (lines from the real profiles in samples/), the
 * checks on VM-state groups, thresholding, percentages, and the messages
 * for what we do not read. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "profile/profile.h"

/* Feed the lines of text; returns profile_line's or profile_end's first
 * failure (with *why), else 0. */
static int feed(struct profile *p, const char *text, const char **why)
{
	profile_init(p, "test.prof");
	const char *s = text;
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		if (profile_line(p, s, n, why) < 0)
			return -1;
		s += n + (nl ? 1 : 0);
	}
	return profile_end(p, why);
}

static const struct profile_line *find(const struct profile *p, const char *file, int32_t line)
{
	for (size_t i = 0; i < p->nlines; i++)
		if (strcmp(p->lines[i].file, file) == 0 && p->lines[i].line == line)
			return &p->lines[i];
	return NULL;
}

static void test_lvr_counts_and_states(void **s)
{
	(void)s;
	struct profile p;
	const char *why = NULL;
	assert_int_equal(feed(&p,
		"  150  costly.lua:40\n"
		"  <-   150  Compiled\n"
		"   44  costly.lua:30\n"
		"  <-    31  Garbage Collector\n"
		"  <-    13  Interpreted\n"
		"   20  stringx.lua:384\n"
		"  <-    16  C code\n"
		"  <-     3  Compiled\n"
		"  <-     1  Interpreted\n", &why), 0);
	assert_int_equal(p.kind, PROFILE_LINES);
	assert_int_equal(p.states, 1);
	assert_int_equal(p.percent, 0);
	assert_int_equal(p.thresholded, 1);     /* three lines, every one >= 3% */
	assert_int_equal(p.total, 214);
	assert_int_equal(p.nlines, 3);
	const struct profile_line *l = find(&p, "costly.lua", 30);
	assert_non_null(l);
	assert_int_equal(l->samples, 44);
	assert_int_equal(l->state[VM_GC], 31);
	assert_int_equal(l->state[VM_INTERPRETED], 13);
	assert_int_equal(l->state[VM_COMPILED], 0);
	l = find(&p, "stringx.lua", 384);
	assert_int_equal(l->state[VM_C], 16);
	assert_int_equal(l->state[VM_COMPILED], 3);
	profile_free(&p);
}

static void test_vlr_state_first(void **s)
{
	(void)s;
	struct profile p;
	const char *why = NULL;
	assert_int_equal(feed(&p,
		"  175  Compiled\n"
		"  --   148  costly.lua:40\n"
		"  --    27  tablex.lua:81\n"
		"   40  Interpreted\n"
		"  --    25  tablex.lua:575\n"
		"  --    15  costly.lua:40\n", &why), 0);
	assert_int_equal(p.total, 215);
	assert_int_equal(p.thresholded, 0);
	const struct profile_line *l = find(&p, "costly.lua", 40);
	assert_int_equal(l->samples, 163);
	assert_int_equal(l->state[VM_COMPILED], 148);
	assert_int_equal(l->state[VM_INTERPRETED], 15);
	assert_int_equal(find(&p, "tablex.lua", 575)->state[VM_INTERPRETED], 25);
	profile_free(&p);
}

static void test_vlr_cut_lines_look_thresholded(void **s)
{
	(void)s;
	struct profile p;
	const char *why = NULL;
	assert_int_equal(feed(&p, "  175  Compiled\n  --   148  costly.lua:40\n", &why), 0);
	assert_int_equal(p.thresholded, 1);     /* 148 of 175 listed */
	profile_free(&p);
}

static void test_percentages_become_hundredths(void **s)
{
	(void)s;
	struct profile p;
	const char *why = NULL;
	/* -jp=vl: a second level is a share of its first level */
	assert_int_equal(feed(&p,
		"61%  Compiled\n"
		"  -- 87%  costly.lua:40\n"
		"  --  6%  tablex.lua:81\n"
		"20%  Interpreted\n"
		"  -- 30%  tablex.lua:575\n"
		" 9%  C code\n"
		"  -- 100%  stringx.lua:384\n", &why), 0);
	assert_int_equal(p.percent, 1);
	assert_int_equal(p.total, 10000);
	assert_int_equal(find(&p, "costly.lua", 40)->samples, 5307);   /* 61% of 87% */
	assert_int_equal(find(&p, "tablex.lua", 575)->state[VM_INTERPRETED], 600);
	assert_int_equal(find(&p, "stringx.lua", 384)->samples, 900);
	assert_int_equal(p.thresholded, 1);     /* 61% lists only 93% */
	profile_free(&p);
	/* -jp=lv: the first level is lines */
	assert_int_equal(feed(&p, "69%  costly.lua:40\n  <- 100%  Compiled\n 7%  stringx.lua:384\n"
		"  <- 50%  C code\n  <- 25%  Interpreted\n  <- 25%  Compiled\n", &why), 0);
	assert_int_equal(find(&p, "stringx.lua", 384)->samples, 700);
	assert_int_equal(find(&p, "stringx.lua", 384)->state[VM_C], 350);
	assert_int_equal(p.thresholded, 1);     /* 76% of the samples listed */
	profile_free(&p);
}

static void test_folded_stacks_with_states(void **s)
{
	(void)s;
	struct profile p;
	const char *why = NULL;
	assert_int_equal(feed(&p,
		"Compiled 160\n"
		"@0x5613d7c5b380;costly.lua:40 147\n"
		"@0x5613d7c5b380;costly.lua:25;tablex.lua:81 13\n"
		"Interpreted 12\n"
		"@0x5613d7c5b380;costly.lua:25;tablex.lua:588;tablex.lua:575 10\n"
		"@0x5613d7c5b380;xpcall 2\n", &why), 0);
	assert_int_equal(p.kind, PROFILE_STACKS);
	assert_int_equal(p.states, 1);
	assert_int_equal(p.total, 172);
	assert_int_equal(p.other, 2);           /* a stack whose leaf is a builtin */
	assert_int_equal(p.nstacks, 4);
	assert_int_equal(p.stacks[2].nframes, 4);
	assert_int_equal(p.stacks[2].state, VM_INTERPRETED);
	assert_string_equal(p.frames[p.stacks[2].first + 3], "tablex.lua:575");
	assert_string_equal(p.frames[p.stacks[2].first], "@0x5613d7c5b380");
	assert_int_equal(find(&p, "tablex.lua", 575)->state[VM_INTERPRETED], 10);
	assert_int_equal(find(&p, "costly.lua", 40)->state[VM_COMPILED], 147);
	assert_null(find(&p, "costly.lua", 25));      /* a caller, not sampled there */
	assert_int_equal(p.thresholded, 0);
	profile_free(&p);
}

static void test_folded_stacks_without_states(void **s)
{
	(void)s;
	struct profile p;
	const char *why = NULL;
	assert_int_equal(feed(&p, "@0x55;costly.lua:40 61\n@0x55;costly.lua:30 15\n@0x55;costly.lua:40 4\n",
	                      &why), 0);
	assert_int_equal(p.states, 0);
	assert_int_equal(p.stacks[0].state, -1);
	assert_int_equal(find(&p, "costly.lua", 40)->samples, 65);
	assert_int_equal(p.nlines, 2);
	profile_free(&p);
}

static void test_glv_is_refused(void **s)
{
	(void)s;
	struct profile p;
	const char *why = NULL;
	/* -jp=Glv puts the state after each stack: the sums do not match */
	assert_int_equal(feed(&p, "@0x55;a.lua:4 10\nCompiled 10\n@0x55;b.lua:5 7\nInterpreted 7\n", &why), -1);
	assert_non_null(strstr(why, "-jp=Gvl"));
	profile_free(&p);
}

static void test_full_paths_and_basenames(void **s)
{
	(void)s;
	size_t n, fl;
	int32_t line;
	const char *b = profile_basename("/usr/share/lua/5.1/pl/tablex.lua", 32, &n);
	assert_int_equal(n, 10);
	assert_memory_equal(b, "tablex.lua", 10);
	b = profile_basename("costly.lua", 10, &n);
	assert_int_equal(n, 10);
	assert_true(profile_split_frame("lua/costly.lua:40", 17, &fl, &line));
	assert_int_equal(fl, 14);
	assert_int_equal(line, 40);
	assert_false(profile_split_frame("@0x5613d7c5b380", 15, &fl, &line));
	assert_false(profile_split_frame("xpcall", 6, &fl, &line));
	assert_false(profile_split_frame(":12", 3, &fl, &line));
}

/* The C functions of serializer-fix2-Gvl.prof's stacks: table.sort and
 * string.gsub call Lua back (a cut), pcall and xpcall are recorded
 * through, a source line is no C function. */
static void test_c_boundaries(void **s)
{
	(void)s;
	assert_true(profile_frame_is_c_boundary("table.sort", 10));
	assert_true(profile_frame_is_c_boundary("string.gsub", 11));
	assert_true(profile_frame_is_c_boundary("[builtin#21]", 12));
	assert_false(profile_frame_is_c_boundary("pcall", 5));
	assert_false(profile_frame_is_c_boundary("xpcall", 6));
	assert_true(profile_frame_is_c_boundary("pcallx", 6));
	assert_true(profile_frame_is_c_boundary("xpcal", 5));
	assert_false(profile_frame_is_c_boundary("serialize.lua:38", 16));
}

static void test_callee_of_depth_two_keys(void **s)
{
	(void)s;
	struct profile p;
	const char *why = NULL;
	assert_int_equal(feed(&p, "   12  a.lua:3 < b.lua:9\n    5  c.lua:7 < d.lua:1\n", &why), 0);
	assert_non_null(find(&p, "a.lua", 3));
	assert_null(find(&p, "b.lua", 9));
	profile_free(&p);
}

static void test_unreadable_profiles_say_why(void **s)
{
	(void)s;
	struct profile p;
	const char *why = NULL;
	assert_int_equal(feed(&p, "", &why), -1);
	assert_non_null(strstr(why, "no profile lines"));
	profile_free(&p);
	/* -jp=f: function names, no file:line */
	assert_int_equal(feed(&p, "   40  tablex.keys\n   12  string.format\n", &why), -1);
	assert_non_null(strstr(why, "no file:line"));
	profile_free(&p);
	/* -jp=v alone */
	assert_int_equal(feed(&p, "   40  Compiled\n   12  Interpreted\n", &why), -1);
	assert_non_null(strstr(why, "no file:line"));
	profile_free(&p);
	/* a dump given as a profile */
	assert_int_equal(feed(&p, "---- TRACE 1 start costly.lua:40\n", &why), -1);
	assert_non_null(strstr(why, "not a line of a -jp profile"));
	profile_free(&p);
	/* counts and percentages mixed */
	assert_int_equal(feed(&p, "   40  a.lua:1\n  <- 50%  Compiled\n", &why), -1);
	profile_free(&p);
	/* a second level first */
	assert_int_equal(feed(&p, "  <-    40  Compiled\n", &why), -1);
	profile_free(&p);
	/* states and lines mixed at the first level */
	assert_int_equal(feed(&p, "   40  a.lua:1\n   12  Compiled\n", &why), -1);
	assert_non_null(strstr(why, "mixed"));
	profile_free(&p);
	/* annotated source (-jp=a) */
	assert_int_equal(feed(&p, "\n====== /tmp/x.lua ======\n@@ 1 @@\n", &why), -1);
	profile_free(&p);
}

static void test_no_samples_is_an_empty_profile(void **s)
{
	(void)s;
	struct profile p;
	const char *why = NULL;
	assert_int_equal(feed(&p, "[No samples collected]\n", &why), 0);
	assert_int_equal(p.kind, PROFILE_EMPTY);
	assert_int_equal(p.total, 0);
	profile_free(&p);
}

static void test_loading_the_real_samples(void **s)
{
	(void)s;
	/* nlines and total counted with grep and awk over the files */
	static const struct {
		const char *file;
		int kind, states, percent, thresholded;
		size_t nlines;
		uint64_t total;
	} want[] = {
		{ "costly-lvr.prof", PROFILE_LINES, 1, 0, 0, 20, 282 },
		{ "costly-vlr.prof", PROFILE_LINES, 1, 0, 0, 20, 281 },
		{ "costly-lv.prof", PROFILE_LINES, 1, 1, 1, 5, 10000 },
		{ "costly-vl.prof", PROFILE_LINES, 1, 1, 1, 11, 10000 },
		{ "costly-lvr-m3.prof", PROFILE_LINES, 1, 0, 1, 5, 244 },
		{ "costly-lvrp.prof", PROFILE_LINES, 1, 0, 0, 21, 278 },
		{ "costly-Gl.prof", PROFILE_STACKS, 0, 0, 0, 21, 278 },
		{ "costly-Gvl.prof", PROFILE_STACKS, 1, 0, 0, 23, 277 },
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char path[256];
		snprintf(path, sizeof(path), "samples/%s", want[i].file);
		struct profile p;
		profile_init(&p, path);
		struct profile_error pe;
		assert_int_equal(profile_load(&p, path, &pe), 0);
		assert_int_equal(p.kind, want[i].kind);
		assert_int_equal(p.states, want[i].states);
		assert_int_equal(p.percent, want[i].percent);
		if (p.thresholded != want[i].thresholded)
			fail_msg("%s: thresholded %d", want[i].file, p.thresholded);
		assert_int_equal(p.nlines, want[i].nlines);
		assert_int_equal(p.total, want[i].total);
		profile_free(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lvr_counts_and_states),
		cmocka_unit_test(test_c_boundaries),
		cmocka_unit_test(test_vlr_state_first),
		cmocka_unit_test(test_vlr_cut_lines_look_thresholded),
		cmocka_unit_test(test_percentages_become_hundredths),
		cmocka_unit_test(test_folded_stacks_with_states),
		cmocka_unit_test(test_folded_stacks_without_states),
		cmocka_unit_test(test_glv_is_refused),
		cmocka_unit_test(test_full_paths_and_basenames),
		cmocka_unit_test(test_callee_of_depth_two_keys),
		cmocka_unit_test(test_unreadable_profiles_say_why),
		cmocka_unit_test(test_no_samples_is_an_empty_profile),
		cmocka_unit_test(test_loading_the_real_samples),
	};
	return cmocka_run_group_tests_name("profile", tests, NULL, NULL);
}
