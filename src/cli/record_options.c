/* record_options.c — record's own options: the table getopt_long reads,
 * its --help and the man page's generated RECORD OPTIONS block. */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/record.h"
#include "luajit/recipe.h"

#define STR_(x) #x
#define STR(x) STR_(x)

const struct option_doc record_options[] = {
	{ { "runs", required_argument, NULL, 'n' }, "N",
	  "run the command N times under the dump and N times under the profiler (default "
	  STR(RECORD_DEFAULT_RUNS) ")",
	  "Run the command\n.I N\ntimes with the dump on and\n.I N\n"
	  "times with the profiler on, one after the other (dump, profile, dump, ...);\n"
	  "from 1 to " STR(RECORD_MAX_RUNS) ", default " STR(RECORD_DEFAULT_RUNS)
	  " (why: bench/RESULTS.md).\n" },
	{ { "out-dir", required_argument, NULL, 'o' }, "DIR",
	  "where the run set (DIR/runs) and its analysis go (default dumpanalyze-out)",
	  "Where the run set\n.RI ( DIR /runs)\nand its analysis go (default\n"
	  ".BR dumpanalyze\\-out ).\n"
	  "Once every run is made, the new\n.B runs\nfolder takes the old one's place in one "
	  "rename,\nthen the analysis is committed as any run's (see\n.BR \"OUTPUT DIRECTORY\" );\n"
	  "the old folder comes back when it fails.\n"
	  "When a run fails or record is interrupted,\n.I DIR\nis left as it was.\n" },
	{ { "source-root", required_argument, NULL, 'S' }, "DIR",
	  "as for an analysis: where the Lua files are (repeatable)",
	  "As for an analysis (see\n.BR OPTIONS ).\n" },
	{ { "views", required_argument, NULL, 'V' }, "LIST",
	  "as for an analysis: the views to render",
	  "As for an analysis.\n" },
	{ { "jobs", required_argument, NULL, 'j' }, "N",
	  "as for an analysis: picture workers",
	  "As for an analysis.\n" },
	{ { "wait", no_argument, NULL, 'w' }, NULL,
	  "wait for another run, or record, into DIR (default: exit 2)",
	  "When another run of\n.B dumpanalyze\n"
	  "(or another record, putting its runs in place) is writing into\n.IR DIR ,\n"
	  "wait for it once the runs are made, instead of exiting with status 2\n"
	  "(the runs made are then not kept).\n" },
	{ { "strict", no_argument, NULL, 's' }, NULL,
	  "as for an analysis: a warning about a dump is fatal",
	  "As for an analysis.\n" },
	{ { "quiet", no_argument, NULL, 'q' }, NULL,
	  "no progress line and no summary",
	  "No progress line and no summary.\n" },
	{ { "help", no_argument, NULL, 'h' }, NULL, "this help",
	  "Print record's options and exit.\n" },
};
const size_t record_noptions = sizeof(record_options) / sizeof(record_options[0]);

void record_usage(FILE *fp)
{
	fputs("usage: dumpanalyze record [--runs N] [--out-dir DIR] [options] -- COMMAND [ARGS...]\n\n"
	      "Runs COMMAND (luajit, or anything that starts it) N times with " RECIPE_JDUMP
	      " and N\ntimes with " RECIPE_JP ", through LUA_INIT; keeps the runs in DIR/runs and "
	      "writes\ntheir analysis into DIR.\n\n", fp);
	for (size_t i = 0; i < record_noptions; i++) {
		const struct option_doc *o = &record_options[i];
		char left[40], letter[8] = "    ";
		if (strchr(RECORD_SHORT_OPTIONS, o->opt.val))
			snprintf(letter, sizeof(letter), "-%c, ", o->opt.val);
		snprintf(left, sizeof(left), "%s--%s%s%s", letter, o->opt.name, o->arg ? " " : "",
		         o->arg ? o->arg : "");
		fprintf(fp, "  %-24s %s\n", left, o->help);
	}
	fputs("See RECORD in dumpanalyze(1).\n", fp);
}

void record_man_options(FILE *fp)
{
	fputs(".\\\" BEGIN GENERATED record-options: made from src/cli/record_options.c by make docs\n",
	      fp);
	for (size_t i = 0; i < record_noptions; i++) {
		const struct option_doc *o = &record_options[i];
		fputs(o->arg ? ".TP\n.BI \\-\\-" : ".TP\n.B \\-\\-", fp);
		for (const char *s = o->opt.name; *s; s++) {
			if (*s == '-')
				fputc('\\', fp);
			fputc(*s, fp);
		}
		if (o->arg)
			fprintf(fp, " \" %s\"", o->arg);
		fputc('\n', fp);
		fputs(o->man, fp);
	}
	fputs(".\\\" END GENERATED record-options\n", fp);
}
