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

/* Every view but the pictures (cairo: the report draws its bushes in the
 * browser) and those of a profile (fuzz_profile.c, fuzz_combined.c): the
 * summary and the findings for every input, the rest in four groups, one
 * per input by its length (bits 7-8), so that an input costs a third of
 * what all of them cost (bench/RESULTS.md) and every view is reached.
 * The report brings the source pages along. */
static const char *const views[4] = {
	"summary,findings,traces,abort-reasons,abort-sites,exits,blacklist",
	"summary,findings,abort-reasons-txt,bush-txt,files",
	"summary,findings,jsonl,source",
	"summary,findings,html",
};
static const char *const expect[4][6] = {
	{ "summary.txt", "findings.csv", "gen-1-traces.csv", NULL },
	{ "summary.txt", "findings.csv", "files.csv", NULL },
	{ "summary.txt", "findings.csv", "gen-1.jsonl", "source.txt", NULL },
	{ "summary.txt", "findings.csv", "index.html", "gen-1-bushes.html", "source.txt", NULL },
};

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
	 * read on a thread.  The source root (samples/lua, looked in by
	 * base name: a walk of its 13 directories for any name not found as
	 * written, a seventh of a run) for one input in four. */
	unsigned group = (size >> 7) & 3;
	struct fuzz_run run = {
		.views = views[group],
		.flags = (size & 1 ? DA_STRICT : 0) | (size & 2 ? DA_NOTES : 0) |
		         (size & 8 ? DA_CALLBACK_ONLY : 0) |
		         ((size & 0x64) == 0x64 ? 0 : DA_NO_THREAD),
		.push = (size & 16) != 0,
		.no_root = (size & 0x24) != 0x24,
		.expect = expect[group],
	};
	fuzz_render(data, size, &run);
	return 0;
}
