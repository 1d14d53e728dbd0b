/* fuzz_profile.c — libFuzzer target: arbitrary bytes as a -jp profile,
 * read as profile_load reads a file (src/profile/profile.c); a readable
 * one is then joined with a real dump (`seeds.sh --profile-dump`: 78
 * lines of costly.dump, the program the samples' profiles profiled)
 * through every view that reads a profile, rendered into memory
 * (fuzz_run.c).  Seeds: the samples' profiles of every -jp shape
 * (tests/fuzz/seeds.sh); dictionary: profile.dict. */
#include <string.h>
#include "dumpanalyze.h"
#include "input/input.h"
#include "profile/profile.h"
#include "fuzz_run.h"
#include "fuzz_profile_dump.h"      /* generated: profile_dump[] */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	fuzz_setup((*argv)[0]);
	return 0;
}

/* The bytes as a profile: 1 when it is readable and has something in it,
 * else 0 (p still to be freed). */
static int read_profile(struct profile *p, const uint8_t *data, size_t size)
{
	struct input in;
	input_from_memory(&in, data, size);
	input_without_thread(&in);
	const struct line *l;
	const char *why;
	int r, ok = 1;
	while (ok && (r = input_next_chunk(&in, &l)) > 0)
		for (int k = 0; k < r && ok; k++)
			ok = profile_line(p, l[k].p, l[k].len, &why) == 0;
	input_close(&in);
	if (!ok || r < 0 || profile_end(p, &why) < 0 || p->kind == PROFILE_EMPTY)
		return 0;
	FUZZ_CHECK(p->nlines);      /* a readable profile has lines */
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profile prof;
	profile_init(&prof, "fuzz.prof");
	if (read_profile(&prof, data, size)) {
		/* (profile-coverage.csv is for luajit2 dumps only) */
		static const char *const expect[] = {
			"summary.txt", "profile-lines.csv", "index.html", "source.txt",
			"files.csv", NULL,
		};
		static const char *const expect_stacks[] = {
			"summary.txt", "profile-lines.csv", "profile-callees.csv", "index.html",
			"source.txt", "files.csv", NULL,
		};
		static const char *const expect_flame[] = {
			"summary.txt", "profile-lines.csv", "profile-callees.csv", "index.html",
			"source.txt", "files.csv", "flamegraph.svg", "flamegraph.png", NULL,
		};
		/* The flame graph, for folded stacks only (as run.c allows), is
		 * drawn for one input in eight: drawing it (and fontconfig's
		 * start, which picture_release undoes) costs 16 ms, the rest of
		 * a run 2. */
		int stacks = prof.kind == PROFILE_STACKS, flame = stacks && size % 8 == 0;
		struct fuzz_run run = {
			.views = flame ? "summary,profile,source,files,html,flamegraph"
			               : "summary,profile,source,files,html",
			.flags = DA_NO_THREAD,
			.profile = &prof,
			.expect = flame ? expect_flame : stacks ? expect_stacks : expect,
		};
		FUZZ_CHECK(fuzz_render((const uint8_t *)profile_dump, strlen(profile_dump), &run) == 0);
	}
	profile_free(&prof);
	return 0;
}
