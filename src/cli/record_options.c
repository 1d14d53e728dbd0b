/* record_options.c — record's own getopt table and its --help, made at
 * build time from the pages docs/options/record/NAME.md (build/gen/
 * cli_help.h, scripts/docgen.sh); the man page's RECORD OPTIONS come from
 * the same pages (make docs). */
#include <stdio.h>
#include "cli/cli.h"
#include "cli/record.h"
#include "cli_help.h"

/* The getopt table: what exists, in --help order.  What is said about
 * each option is its page (tests/cli/docs.sh checks that every entry has
 * one and every page an entry); the letters getopt takes are
 * RECORD_SHORT_OPTIONS, the pages' Short fields. */
const struct option record_options[] = {
	{ "runs", required_argument, NULL, 'n' },
	{ "out-dir", required_argument, NULL, 'o' },
	{ "source-root", required_argument, NULL, 'S' },
	{ "views", required_argument, NULL, 'V' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "timeout", required_argument, NULL, 'T' },
	{ "wait", no_argument, NULL, 'w' },
	{ "strict", no_argument, NULL, 's' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
};
const size_t record_noptions = sizeof(record_options) / sizeof(record_options[0]);

void record_usage(FILE *fp)
{
	fputs(cli_help_record_usage, fp);
	fputs(cli_help_record_options, fp);
	fputs("See RECORD in dumpanalyze(1).\n", fp);
}
