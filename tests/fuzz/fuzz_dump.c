/* fuzz_dump.c — libFuzzer target: arbitrary bytes as a dump along the
 * tool's own path (da_open_memory and da_step, or da_open_push and
 * da_feed: decoding, parser, model) into
 * the text views, the findings, the JSON lines, the HTML report and the
 * source pages (a group of them per input), rendered into memory
 * (fuzz_run.c).  Any crash, leak, sanitizer report
 * or failed check is a bug.  Seeds: tests/fuzz/seeds.sh; dictionary:
 * dump.dict. */
#include "dumpanalyze.h"
#include "fuzz_run.h"
#include "util/alloc.h"

/* Every view but the pictures (cairo: the report draws its bushes in the
 * browser) and those of a profile, one group of them per input, chosen
 * by its length; a view's share of the inputs goes against what it costs
 * (bench/RESULTS.md), so that an input costs about what the cheap views
 * cost: this target is for the reading, the parser and the model, and
 * fuzz_combined runs every view on every input.  The report brings the
 * source pages along. */
struct group {
	const char *views;
	unsigned share;             /* in sixteenths of the inputs */
	const char *expect[5];      /* written however few traces the dump has */
};
static const struct group groups[] = {
	{ "traces,abort-reasons,abort-sites,exits,blacklist", 3,
	  { "gen-1-traces.csv", "gen-1-abort-sites.csv", "gen-1-exits.csv", NULL } },
	{ "abort-reasons-txt,bush-txt", 3, { "gen-1-abort-reasons.txt", NULL } },
	{ "summary", 2, { "summary.txt", NULL } },
	{ "findings", 2, { "findings.csv", NULL } },
	{ "files,problems,codequality", 2,
	  { "files.csv", "problems.txt", "gl-code-quality-report.json", NULL } },
	{ "jsonl", 1, { "gen-1.jsonl", "findings.jsonl", NULL } },
	{ "source", 1, { "source.txt", "source-index.html", NULL } },
	{ "html", 1, { "index.html", "gen-1-bushes.html", "source.txt", NULL } },
	{ "sarif", 1, { "findings.sarif", NULL } },
};
#define NGROUPS (sizeof(groups) / sizeof(groups[0]))

/* The group of the slot'th sixteenth. */
static const struct group *group_of(unsigned slot)
{
	for (size_t i = 0; i < NGROUPS; i++) {
		if (slot < groups[i].share)
			return &groups[i];
		slot -= groups[i].share;
	}
	return &groups[0];
}

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
	/* The options the command line can give, chosen by the input's
	 * length, so that a crasher is a file the tool reproduces (with all
	 * the views: tests/cli/formats.sh): --strict, --verbose (notes); and
	 * the library's ways to be read: records kept only during their
	 * callback, the bytes pushed through da_feed in pieces of 1 to 64
	 * (the sizes from the input's own bytes), and one input in eight
	 * read on a thread.  The group of views; the source root
	 * (samples/lua, looked in by base name: a walk of its 14
	 * directories for any name not found as written, a fifth of a run)
	 * and arrays moved at every growth (alloc.h) each for one input in
	 * eight: from the length divided, so that none goes with one of the
	 * options above, short inputs included. */
	const struct group *group = group_of((unsigned)((size / 5 + (size >> 7)) % 16));
#ifdef DA_ALLOC_MOVE
	alloc_move_on = (size / 3) % 8 == 0;
#endif
	struct fuzz_run run = {
		.views = group->views,
		.flags = (size & 1 ? DA_STRICT : 0) | (size & 2 ? DA_NOTES : 0) |
		         (size & 8 ? DA_CALLBACK_ONLY : 0) |
		         ((size & 0x64) == 0x64 ? 0 : DA_NO_THREAD),
		.push = (size & 16) != 0,
		.no_root = (size / 7) % 8 != 3,
		.expect = group->expect,
	};
	fuzz_render(data, size, &run);
	return 0;
}
