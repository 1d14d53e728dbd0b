/* main.c — the command line: options into a struct run, then one of
 * --compare, --views list, one dump (run.c) or several (many.c). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "compare/compare.h"
#include "cli/record.h"
#include "cli/runset.h"
#include "luajit/vmdef.h"
#include "cli/signals.h"
#include "outdir/fs.h"
#include "output/message.h"
#include "outdir/rundir.h"
#ifdef DA_TEST_FAULTS
#include "faults/fs_fault.h"
#endif
#include "util/alloc.h"
#include "views/view.h"

/* Options into run: 0, or the exit code to leave with. */
static int parse_options(struct run *run, int argc, char **argv, int *done)
{
	struct option longopts[cli_noptions + 1];
	for (size_t i = 0; i < cli_noptions; i++)
		longopts[i] = cli_options[i];
	memset(&longopts[cli_noptions], 0, sizeof(longopts[0]));
	char shorts[2 * cli_noptions + 2];     /* enough for any table */
	cli_short_options(shorts, sizeof(shorts));
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			run->dumps = xrealloc(run->dumps, (run->ndumps + 1) * sizeof(*run->dumps));
			run->dumps[run->ndumps++] = optarg;
			break;
		case 'o': run->out_dir = optarg; break;
		case 'p':
			run->profiles = xrealloc(run->profiles,
			                         (run->nprofiles + 1) * sizeof(*run->profiles));
			run->profiles[run->nprofiles++] = optarg;
			break;
		case 'V': run->views = optarg; break;
		case 'j': {
			char *end;
			long j = strtol(optarg, &end, 10);
			if (*end || j < 1 || j > MAX_JOBS) {
				msg_error("--jobs wants a number from 1 to %d, not '%s'", MAX_JOBS, optarg);
				return EXIT_USAGE;
			}
			run->jobs = (unsigned)j;
			break;
		}
		case 'q': run->quiet = 1; break;
		case 'v': run->verbose = 1; break;
		case OPT_STRICT: run->strict = 1; break;
		case OPT_COMPARE: run->compare = optarg; break;
		case OPT_FAIL_ON: run->fail_on = optarg; break;
		case OPT_JSON: run->json = 1; break;
		case OPT_ALLOW_EMPTY: run->allow_empty = 1; break;
		case OPT_EXPLAIN: run->explain = optarg; break;
		case OPT_BASELINE: run->baseline = optarg; break;
		case OPT_WRITE_BASELINE: run->write_baseline = optarg; break;
		case OPT_VMDEF: run->vmdef = optarg; break;
		case OPT_WAIT: run->wait = 1; break;
		case OPT_RECOVER: run->recover = optarg; break;
		case OPT_REPEATS: run->repeats = 1; break;
		case OPT_RUN_SET: run->run_set = optarg; break;
		case OPT_FORMAT:
			if (strcmp(optarg, "gcc") == 0) {
				run->format_gcc = 1;
			} else if (strcmp(optarg, "summary") == 0) {
				run->format_gcc = 0;
			} else {
				msg_error("--format wants summary or gcc, not '%s'", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_ANNOTATE:
			if (strcmp(optarg, "github") != 0) {
				msg_error("--annotate wants github, not '%s'", optarg);
				return EXIT_USAGE;
			}
			run->annotate_github = 1;
			break;
		case OPT_SOURCE_ROOT: {
			struct stat st;
			if (stat(optarg, &st) < 0 || !S_ISDIR(st.st_mode)) {
				msg_error("--source-root wants a directory, not '%s'", optarg);
				return EXIT_USAGE;
			}
			run->source_roots = xrealloc(run->source_roots,
			                             (run->nsource_roots + 1) * sizeof(*run->source_roots));
			run->source_roots[run->nsource_roots++] = optarg;
			break;
		}
		case 'h':
			*done = 1;
			cli_usage(stdout);
			return EXIT_OK;
		case OPT_VERSION: puts("dumpanalyze " DA_VERSION_STRING); *done = 1; return EXIT_OK;
		case ':':
			msg_error("option '%s' needs an argument (try --help)", argv[optind - 1]);
			return EXIT_USAGE;
		default: {
			/* A known long option given an argument it does not take
			 * (--help=man) is not an unknown one. */
			const char *arg = argv[optind - 1];
			const char *eq = strchr(arg, '=');
			if (optopt && eq && strncmp(arg, "--", 2) == 0)
				msg_error("option '%.*s' takes no argument (try --help)", (int)(eq - arg), arg);
			else if (optopt)
				msg_error("unknown option '-%c' (try --help)", optopt);
			else
				msg_error("unknown option '%s' (try --help)", arg);
			return EXIT_USAGE;
		}
		}
	}
	return EXIT_OK;
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
	struct view_set views;
	char err[256];
	/* the names only: each dump's run checks them against its profile */
	if (view_set_init(&views, run->views, NEEDS_PROFILE | NEEDS_STACKS | NEEDS_SYSPROF, err, sizeof(err)) < 0) {
		msg_error("%s", err);
		return EXIT_USAGE;
	}
	view_set_finish(&views);
	return run_many(run);
}

/* --repeats or --run-set DIR: N dumps and M profiles of one workload.
 * The list from DIR lives in *from until main frees it. */
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
	struct view_set views;
	char err[256];
	if (view_set_init(&views, run->views, NEEDS_PROFILE | NEEDS_STACKS | NEEDS_SYSPROF, err, sizeof(err)) < 0) {
		msg_error("%s", err);
		return EXIT_USAGE;
	}
	view_set_finish(&views);
	run->repeats = 1;
	return run_runset(run);
}

/* --recover DIR: alone, but for --wait and --quiet. */
static int recover(const struct run *run, int argc)
{
	if (run->ndumps || run->out_dir || run->views || run->nprofiles || run->compare ||
	    run->explain || optind < argc) {
		msg_error("--recover DIR goes alone (with --wait or --quiet)");
		return EXIT_USAGE;
	}
	struct rundir_options o = { run->fs, run->wait, run->quiet, NULL, 0 };
	int r = rundir_recover(&o, run->recover);
	if (r == RUNDIR_INTERRUPTED) {
		int sig = signals_caught();
		msg_error("%s: interrupted (%s) while waiting for it", run->recover, signals_name(sig));
		signals_die(sig);
	}
	return r < 0 ? EXIT_IO : EXIT_OK;
}

static int dispatch(struct run *run, int argc, char **argv)
{
	if (run->recover)
		return recover(run, argc);
	if (run->explain)
		return explain_command(run->explain, run->vmdef, stdout);
	if (run->compare) {
		if (optind + 1 != argc) {
			msg_error("--compare needs two directories: --compare OLD_OUT NEW_OUT");
			return EXIT_USAGE;
		}
		if (run->format_gcc) {
			msg_error("--format=gcc goes with a run, not --compare (--annotate does both)");
			return EXIT_USAGE;
		}
		if (run->json && run->annotate_github) {
			msg_error("--json and --annotate both print on standard output: run them apart");
			return EXIT_USAGE;
		}
		if (run->write_baseline && (run->fail_on || run->json || run->annotate_github)) {
			msg_error("--write-baseline with --compare writes NEW's findings and prints only "
			          "that: run %s apart", run->fail_on ? "--fail-on"
			          : run->json ? "--json" : "--annotate");
			return EXIT_USAGE;
		}
		struct compare_opts o = { run->fail_on, run->json, run->allow_empty, run->baseline,
		                          run->write_baseline, run->annotate_github,
		                          (const char *const *)run->source_roots, run->nsource_roots };
		int r = compare_dirs(run->compare, argv[optind], &o, stdout);
		return r < 0 ? EXIT_USAGE : r;
	}
	if (run->fail_on || run->json || run->allow_empty) {
		msg_error("%s goes with --compare", run->fail_on ? "--fail-on"
		          : run->json ? "--json" : "--allow-empty");
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
	if (optind < argc && run->ndumps == 0) {
		msg_error("unexpected argument '%s' (the dump goes after --dump)", argv[optind]);
		return EXIT_USAGE;
	}
	for (; optind < argc; optind++) {
		run->dumps = xrealloc(run->dumps, (run->ndumps + 1) * sizeof(*run->dumps));
		run->dumps[run->ndumps++] = argv[optind];
	}
	size_t ndumps = run->ndumps ? run->ndumps : 1;
	if (run->repeats || run->run_set)
		return repeats(run);
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

int main(int argc, char **argv)
{
	struct run run = { 0 };
#ifdef DA_TEST_FAULTS
	/* Only in the tests' build/dumpanalyze-faults: the output's file
	 * system operations fail or kill as DA_FAULT says (tests/faults/). */
	run.fs = fs_fault_from_env();
#else
	run.fs = &fs_posix;
#endif
	/* Past a file size limit, let write() fail with EFBIG and report it,
	 * instead of dying with half-written files. */
	signal(SIGXFSZ, SIG_IGN);
	signals_catch();
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	run.jobs = cores > 1 ? (unsigned)(cores < MAX_JOBS ? cores : MAX_JOBS) : 1;
	/* Out of memory outside the library's own catches. */
	struct oom_catch oc;
	oom_push(&oc);
	if (setjmp(oc.env)) {
		msg_error("out of memory");
		return EXIT_IO;
	}
	int done = 0;
	/* a subcommand with options of its own */
	int recording = argc > 1 && strcmp(argv[1], "record") == 0;
	int rc = recording ? record_main(argc - 1, argv + 1, run.fs)
	                   : parse_options(&run, argc, argv, &done);
	if (rc == EXIT_OK && !done && !recording)
		rc = dispatch(&run, argc, argv);
	oom_pop(&oc);
	free(run.dumps);
	free(run.profiles);
	free(run.source_roots);
	runset_list_free(&from_dir);
	return rc;
}
