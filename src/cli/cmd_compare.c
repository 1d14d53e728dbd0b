/* cmd_compare.c — --compare OLD NEW: two runs' output directories
 * compared (compare/), after the options that cannot go with it are
 * refused. */
#include <stdio.h>
#include "cli/cli.h"
#include "cli/cmdline.h"
#include "cli/commands.h"
#include "output/message.h"

int compare_start(struct cmdline *cl)
{
	const struct run *run = &cl->run;
	if (cl->noperands != 1) {
		msg_error("--compare needs two directories: --compare OLD_OUT NEW_OUT");
		return EXIT_USAGE;
	}
	if (run->format_gcc) {
		msg_error("--format=gcc goes with a run, not --compare (--annotate does both)");
		return EXIT_USAGE;
	}
	if (cl->json && run->annotate_github) {
		msg_error("--json and --annotate both print on standard output: run them apart");
		return EXIT_USAGE;
	}
	if (run->write_baseline && (cl->fail_on || cl->json || run->annotate_github)) {
		msg_error("--write-baseline with --compare writes NEW's findings and prints only "
		          "that: run %s apart", cl->fail_on ? "--fail-on"
		          : cl->json ? "--json" : "--annotate");
		return EXIT_USAGE;
	}
	struct compare_cmd_opts o = {
		cl->compare, cl->operands[0],
		{ cl->fail_on, cl->json, cl->allow_empty, run->baseline, run->write_baseline,
		  run->annotate_github, (const char *const *)run->source_roots, run->nsource_roots },
	};
	return cmd_compare(&o);
}

int cmd_compare(const struct compare_cmd_opts *o)
{
	int r = compare_dirs(o->old_dir, o->new_dir, &o->compare, stdout);
	return r < 0 ? EXIT_USAGE : r;
}
