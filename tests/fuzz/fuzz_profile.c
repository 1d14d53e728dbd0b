/* fuzz_profile.c — libFuzzer target: arbitrary bytes as a -jp profile,
 * given to the library as --profile gives it (da_use_profile, which reads
 * it as a file: plain or compressed); a readable one is then joined with a real dump (`seeds.sh --profile-dump`: 78
 * lines of costly.dump, the program the samples' profiles profiled)
 * through every view that reads a profile, rendered into memory
 * (fuzz_run.c).  Seeds: the samples' profiles of every -jp shape
 * (tests/fuzz/seeds.sh); dictionary: profile.dict. */
#include <string.h>
#include "dumpanalyze.h"
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const expect[] = {
		"summary.txt", "findings.csv", "profile-lines.csv", "index.html", "source.txt",
		"files.csv", NULL,
	};
	/* (profile-coverage.csv is for luajit2 dumps only) */
	static const char *const expect_stacks[] = {
		"summary.txt", "findings.csv", "profile-lines.csv", "profile-callees.csv",
		"source.txt", "files.csv", NULL,
	};
	static const char *const expect_flame[] = {
		"summary.txt", "findings.csv", "profile-lines.csv", "profile-callees.csv",
		"index.html", "source.txt", "files.csv", "flamegraph.svg", "flamegraph.png", NULL,
	};
	/* The flame graph, for folded stacks only (as run.c allows), is drawn
	 * for one input in eight: drawing it (and fontconfig's start, which
	 * picture_release undoes) costs 16 ms, the rest of a run 2.  The
	 * report, which brings the flame graph along for stacks, comes with
	 * it; with a profile of lines it is always there. */
	int flame = size % 8 == 0;
	struct fuzz_run run = {
		.views = "summary,findings,profile,source,files,html",
		.views_stacks = flame ? "summary,findings,profile,source,files,html,flamegraph"
		                      : "summary,findings,profile,source,files",
		.flags = DA_NO_THREAD,
		.expect = expect,
		.expect_stacks = flame ? expect_flame : expect_stacks,
		.profile = data,
		.profile_len = size,
	};
	int r = fuzz_render((const uint8_t *)profile_dump, strlen(profile_dump), &run);
	FUZZ_CHECK(r == 0 || r == DA_EFORMAT || r == DA_EIO);
	return 0;
}
