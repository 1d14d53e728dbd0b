/* cmd_run.c — the run, the command of a command line that chooses no
 * other: one dump into its directory (run.c), several as workers
 * (many.c), or the runs of one workload as a run set (runset.c).  Usage
 * is checked first, so nothing is created for a command line that is
 * wrong. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/cmdline.h"
#include "cli/commands.h"
#include "cli/runset.h"
#include "luajit/vmdef.h"
#include "output/message.h"
#include "util/alloc.h"
#include "views/view.h"

/* The names of --views, checked once for several dumps: each dump's run
 * checks them against its profile.  1, or 0 after a message. */
static int view_names_ok(const char *names)
{
	struct view_set views;
	char err[256];
	if (view_set_init(&views, names, NEEDS_PROFILE | NEEDS_STACKS | NEEDS_SYSPROF, err,
	                  sizeof(err)) < 0) {
		msg_error("%s", err);
		return 0;
	}
	view_set_finish(&views);
	return 1;
}

/* Two names of one pipe or stream (/dev/stdin and /dev/fd/0) would be
 * read by two workers, each getting part of it: refused, by device and
 * inode.  A regular file may be given twice (one dump with two
 * profiles): each run reads it whole.  A name that cannot be read is its
 * own run's error. */
static int same_stream_twice(const struct run *run)
{
	struct stat *st = xrealloc(NULL, run->ndumps * sizeof(*st));
	char *ok = xrealloc(NULL, run->ndumps);
	int r = 0;
	for (size_t i = 0; i < run->ndumps && r == 0; i++) {
		ok[i] = stat(run->dumps[i], &st[i]) == 0 && !S_ISREG(st[i].st_mode);
		for (size_t j = 0; ok[i] && j < i; j++)
			if (ok[j] && st[j].st_dev == st[i].st_dev && st[j].st_ino == st[i].st_ino) {
				msg_error("--dump %s is the same pipe or stream as --dump %s: two runs would "
				          "each read part of it; give it once", run->dumps[i], run->dumps[j]);
				r = -1;
				break;
			}
	}
	free(st);
	free(ok);
	return r;
}

/* Several dumps: usage is checked first, so nothing is created for a
 * command line that is wrong. */
static int several(struct run *run)
{
	if (run->format_gcc || run->annotate_github) {
		msg_error("%s takes one dump (or --compare of the directories of several)",
		          run->format_gcc ? "--format=gcc" : "--annotate");
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < run->ndumps; i++)
		if (strcmp(run->dumps[i], "-") == 0) {
			msg_error("standard input can only be the one dump of a run");
			return EXIT_USAGE;
		}
	if (same_stream_twice(run) < 0)
		return EXIT_IO;
	if (!view_names_ok(run->views))
		return EXIT_USAGE;
	return run_many(run);
}

/* --repeats or --run-set DIR: N dumps and M profiles of one workload.
 * The list from DIR is static: reachable while forked workers run (a
 * leak checker in a worker sees no frame of ours). */
static struct runset_list from_dir;

static int repeats(struct run *run)
{
	if (run->run_set) {
		if (run->ndumps || run->nprofiles) {
			msg_error("--run-set DIR reads its dumps and profiles from DIR/runs: "
			          "no --dump or --profile with it");
			return EXIT_USAGE;
		}
		char err[512];
		if (runset_from_dir(run->run_set, &from_dir, err, sizeof(err)) < 0) {
			msg_error("--run-set: %s", err);
			return EXIT_USAGE;
		}
		run->dumps = xrealloc(run->dumps, from_dir.ndumps * sizeof(*run->dumps));
		for (size_t i = 0; i < from_dir.ndumps; i++)
			run->dumps[i] = from_dir.dumps[i];
		run->ndumps = from_dir.ndumps;
		run->profiles = xrealloc(run->profiles, (from_dir.nprofiles + 1) * sizeof(*run->profiles));
		for (size_t i = 0; i < from_dir.nprofiles; i++)
			run->profiles[i] = from_dir.profiles[i];
		run->nprofiles = from_dir.nprofiles;
		if (!run->out_dir)
			run->out_dir = run->run_set;
	}
	if (run->ndumps == 0) {
		msg_error("--repeats needs the dumps of the runs: --dump D1 --dump D2 ...");
		return EXIT_USAGE;
	}
	if (run->format_gcc || run->annotate_github || run->baseline || run->write_baseline) {
		msg_error("%s takes one dump, not a run set",
		          run->format_gcc ? "--format=gcc" : run->annotate_github ? "--annotate"
		          : run->baseline ? "--baseline" : "--write-baseline");
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < run->ndumps; i++)
		if (strcmp(run->dumps[i], "-") == 0) {
			msg_error("standard input cannot be a run of a run set");
			return EXIT_USAGE;
		}
	if (!view_names_ok(run->views))
		return EXIT_USAGE;
	run->repeats = 1;
	return run_runset(run);
}

/* The options only a comparison takes are refused, the trailing names
 * made dumps: then the run. */
int run_start(struct cmdline *cl)
{
	struct run *run = &cl->run;
	if (cl->fail_on || cl->json || cl->allow_empty) {
		msg_error("%s goes with --compare", cl->fail_on ? "--fail-on"
		          : cl->json ? "--json" : "--allow-empty");
		return EXIT_USAGE;
	}
	if (run->vmdef) {
		/* checked once here, with a message that names the option */
		struct vmdef vm;
		if (cli_read_vmdef(run->vmdef, &vm) < 0)
			return EXIT_USAGE;
	}
	/* `--dump dump-*.txt`: the shell's glob gives one --dump and the
	 * other names after it; they are dumps too. */
	if (cl->noperands > 0 && run->ndumps == 0) {
		msg_error("unexpected argument '%s' (the dump goes after --dump)", cl->operands[0]);
		return EXIT_USAGE;
	}
	for (int i = 0; i < cl->noperands; i++) {
		run->dumps = xrealloc(run->dumps, (run->ndumps + 1) * sizeof(*run->dumps));
		run->dumps[run->ndumps++] = cl->operands[i];
	}
	return cmd_run(run);
}

int cmd_run(struct run *run)
{
	size_t ndumps = run->ndumps ? run->ndumps : 1;
	if (run->repeats || run->run_set) {
		int rc = repeats(run);
		runset_list_free(&from_dir);
		return rc;
	}
	/* one profile per dump; one dump may have two, a -jp and a sysprof
	 * one of comparable runs (run_one checks their kinds) */
	if (run->nprofiles && run->nprofiles != ndumps && !(ndumps == 1 && run->nprofiles == 2)) {
		msg_error("give one --profile per --dump, in the same order (%zu dumps, %zu profiles), "
		          "or two for one dump (a -jp and a sysprof profile)", ndumps, run->nprofiles);
		return EXIT_USAGE;
	}
	if (run->views && strcmp(run->views, "list") == 0) {
		cli_list_views();
		return EXIT_OK;
	}
	if (run->ndumps > 1 && (run->baseline || run->write_baseline)) {
		msg_error("%s takes one dump (or --compare of the directories of several)",
		          run->baseline ? "--baseline" : "--write-baseline");
		return EXIT_USAGE;
	}
	if (run->ndumps > 1)
		return several(run);
	const char *dump = run->ndumps ? run->dumps[0] : NULL;
	if (!dump && isatty(STDIN_FILENO)) {
		msg_error("no dump given: use --dump FILE, or pipe a dump to standard input");
		return EXIT_USAGE;
	}
	return run_one(run, dump ? dump : "-", run->profiles, run->nprofiles, run->out_dir, 0);
}
