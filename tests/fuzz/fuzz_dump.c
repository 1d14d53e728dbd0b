/* fuzz_dump.c — libFuzzer target: arbitrary bytes as a dump along the
 * tool's own path (da_open_memory and da_step, or da_open_push and
 * da_feed: decoding, parser, model) into
 * every text view, the findings, the JSON lines, the HTML report and the
 * source pages,
 * rendered into memory (fuzz_run.c).  Any crash, leak, sanitizer report
 * or failed check is a bug.  Seeds: tests/fuzz/seeds.sh; dictionary:
 * dump.dict. */
#include "dumpanalyze.h"
#include "fuzz_run.h"

/* Every view but the pictures (cairo: the report draws its bushes in the
 * browser) and those of a profile (fuzz_profile.c). */
#define VIEWS "summary,findings,traces,abort-reasons,abort-reasons-txt,abort-sites,exits," \
              "blacklist,bush-txt,jsonl,html,source,files"

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
		"summary.txt", "findings.csv", "gen-1-traces.csv", "gen-1-bushes.html", "gen-1.jsonl",
		"index.html", "source.txt", "files.csv", NULL,
	};
	/* The options the command line can give, chosen by the input's
	 * length, so that a crasher is a file the tool reproduces: --strict,
	 * --verbose (notes); and the library's ways to be read: records kept
	 * only during their callback, the bytes pushed through da_feed in
	 * pieces of 1 to 64 (the sizes from the input's own bytes), and one
	 * input in eight read on a thread. */
	struct fuzz_run run = {
		.views = VIEWS,
		.flags = (size & 1 ? DA_STRICT : 0) | (size & 2 ? DA_NOTES : 0) |
		         (size & 8 ? DA_CALLBACK_ONLY : 0) |
		         ((size & 0x64) == 0x64 ? 0 : DA_NO_THREAD),
		.push = (size & 16) != 0,
		.expect = expect,
	};
	fuzz_render(data, size, &run);
	return 0;
}
