/* options.c — the option table: getopt_long's options, --help and
 * --views list come from it (tests/cli checks the man page against it). */
#include <stdio.h>
#include "cli/cli.h"
#include "views/view.h"

const struct option_doc cli_options[] = {
	{ { "dump", required_argument, NULL, 'd' }, "FILE",
	  "the dump to read; '-' or no --dump reads standard input; several: in parallel" },
	{ { "out-dir", required_argument, NULL, 'o' }, "DIR",
	  "where the files go (default FILE-parsed; dumpanalyze-out for stdin or several dumps)" },
	{ { "profile", required_argument, NULL, 'p' }, "FILE",
	  "a -jp profile of the same workload (one per --dump): which aborts cost time" },
	{ { "views", required_argument, NULL, 'V' }, "LIST",
	  "comma-separated views to render; 'list' lists them" },
	{ { "jobs", required_argument, NULL, 'j' }, "N",
	  "draw pictures in up to N worker processes (default: the cores)" },
	{ { "quiet", no_argument, NULL, 'q' }, NULL,
	  "no summary and no progress line" },
	{ { "verbose", no_argument, NULL, 'v' }, NULL,
	  "print the first foreign lines with their line numbers" },
	{ { "strict", no_argument, NULL, OPT_STRICT }, NULL,
	  "the first warning about the input is fatal (exit 3)" },
	{ { "compare", required_argument, NULL, OPT_COMPARE }, "OLD NEW",
	  "compare two output directories instead of reading a dump" },
	{ { "fail-on", required_argument, NULL, OPT_FAIL_ON }, "RULES",
	  "with --compare: exit 1 on aborts+N, aborts+N%, traces-N%, new-reasons, new-sites" },
	{ { "help", no_argument, NULL, 'h' }, NULL, "this help" },
	{ { "version", no_argument, NULL, OPT_VERSION }, NULL, "the version" },
};
const size_t cli_noptions = sizeof(cli_options) / sizeof(cli_options[0]);
/* The short options of the table, ':' first so a missing argument is told
 * apart from an unknown option. */
const char cli_short_options[] = ":d:o:p:V:j:qvh";

void cli_usage(FILE *fp)
{
	fputs("usage: dumpanalyze [--dump FILE] [--out-dir DIR] [--views LIST] [options]\n"
	      "       luajit -jdump=+x app.lua | dumpanalyze --out-dir DIR\n"
	      "       dumpanalyze --compare OLD_OUT NEW_OUT [--fail-on RULES]\n\n"
	      "       luajit -jp=lvrm0i1,prof.txt app.lua; dumpanalyze --dump dump.txt --profile prof.txt\n"
	      "Turns a LuaJIT -jdump dump into CSV, text and picture views.\n\n", fp);
	for (size_t i = 0; i < cli_noptions; i++) {
		const struct option_doc *o = &cli_options[i];
		char left[40];
		if (o->opt.val < 256)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", o->opt.val, o->opt.name,
			         o->arg ? " " : "", o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->opt.name,
			         o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(fp, "  %-24s %s\n", left, o->help);
	}
	fputs("\nExit status: 0 ok, 1 usage (or --fail-on tripped), 2 input/output error,\n"
	      "3 input rejected under --strict.  See dumpanalyze(1).\n", fp);
}

void cli_list_views(void)
{
	for (size_t i = 0; view_table[i]; i++) {
		const struct view *v = view_table[i];
		printf("%-18s %-26s %s%s\n", v->name, v->files, v->summary,
		       v->is_default ? "" : " (not default)");
	}
}
