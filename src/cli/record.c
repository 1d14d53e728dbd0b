/* record.c — `dumpanalyze record`: the workload run N times under the
 * dump and N times under the profiler, interleaved, each run's files kept
 * in the run set, then the set analysed into OUT (runset.c) and the set
 * put in OUT/runs.  A run that fails stops record before anything in OUT
 * changes. */
#define _DEFAULT_SOURCE /* realpath */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/record.h"
#include "cli/runset.h"
#include "cli/signals.h"
#include "luajit/recipe.h"
#include "output/message.h"
#include "util/alloc.h"
#include "views/view.h"

extern char **environ;

#define STDERR_SHOWN 20         /* lines of a failed run's stderr shown */

struct record {
	struct run an;              /* the analysis' settings */
	unsigned runs;
	double timeout;             /* seconds a run may take; 0: no limit */
	char **command;
	char *stage;                /* OUT/.dumpanalyze-record.PID, absolute */
	int made_out;               /* OUT did not exist before */
	int progress;
};

static int parse_count(const char *s, const char *what, unsigned max, unsigned *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (!*s || *end || v < 1 || v > (long)max) {
		msg_error("record: %s wants a number from 1 to %u, not '%s'", what, max, s);
		return -1;
	}
	*out = (unsigned)v;
	return 0;
}

/* record's options into r: -1 to go on, else the exit code. */
static int parse(struct record *r, int argc, char **argv)
{
	struct option longopts[record_noptions + 1];
	for (size_t i = 0; i < record_noptions; i++)
		longopts[i] = record_options[i];
	memset(&longopts[record_noptions], 0, sizeof(longopts[0]));
	opterr = 0;
	optind = 1;
	int c;
	while ((c = getopt_long(argc, argv, RECORD_SHORT_OPTIONS, longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (parse_count(optarg, "--runs", RECORD_MAX_RUNS, &r->runs) < 0)
				return EXIT_USAGE;
			break;
		case 'T': {
			char *end;
			double v = strtod(optarg, &end);
			if (!*optarg || *end || !(v > 0 && v <= RECORD_MAX_TIMEOUT)) {
				msg_error("record: --timeout wants seconds, more than 0 and at most %d, "
				          "not '%s'", RECORD_MAX_TIMEOUT, optarg);
				return EXIT_USAGE;
			}
			r->timeout = v;
			break;
		}
		case 'o': r->an.out_dir = optarg; break;
		case 'V': r->an.views = optarg; break;
		case 'j':
			if (parse_count(optarg, "--jobs", MAX_JOBS, &r->an.jobs) < 0)
				return EXIT_USAGE;
			break;
		case 'w': r->an.wait = 1; break;
		case 's': r->an.strict = 1; break;
		case 'q': r->an.quiet = 1; break;
		case 'S': {
			struct stat st;
			if (stat(optarg, &st) < 0 || !S_ISDIR(st.st_mode)) {
				msg_error("record: --source-root wants a directory, not '%s'", optarg);
				return EXIT_USAGE;
			}
			r->an.source_roots = xrealloc(r->an.source_roots, (r->an.nsource_roots + 1) *
			                              sizeof(*r->an.source_roots));
			r->an.source_roots[r->an.nsource_roots++] = optarg;
			break;
		}
		case 'h': record_usage(stdout); return EXIT_OK;
		case ':':
			msg_error("record: option '%s' needs an argument (try record --help)", argv[optind - 1]);
			return EXIT_USAGE;
		default:
			msg_error("record: unknown option '%s' (try record --help; the command goes "
			          "after --)", argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		msg_error("record: no command: dumpanalyze record [options] -- COMMAND [ARGS...]");
		return EXIT_USAGE;
	}
	r->command = argv + optind;
	struct view_set views;
	char err[256];
	if (view_set_init(&views, r->an.views, NEEDS_PROFILE | NEEDS_STACKS, err, sizeof(err)) < 0) {
		msg_error("record: %s", err);
		return EXIT_USAGE;
	}
	view_set_finish(&views);
	return -1;
}

static char *path_in(const char *dir, const char *fmt, const char *kind, unsigned k)
{
	char name[128];
	snprintf(name, sizeof(name), fmt, kind, k);
	size_t n = strlen(dir) + strlen(name) + 2;
	char *s = xrealloc(NULL, n);
	snprintf(s, n, "%s/%s", dir, name);
	return s;
}

/* The last lines of a failed run's standard error, on ours. */
static void show_stderr(const char *path, int say_empty)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	char *lines[STDERR_SHOWN] = { 0 };
	size_t n = 0, cap = 0;
	char *line = NULL;
	ssize_t len;
	while ((len = getline(&line, &cap, f)) >= 0) {
		free(lines[n % STDERR_SHOWN]);
		lines[n % STDERR_SHOWN] = line;
		line = NULL;
		cap = 0;
		n++;
	}
	free(line);
	fclose(f);
	if (n == 0) {
		if (say_empty)
			fputs("  (its standard error is empty)\n", stderr);
		return;
	}
	if (n > STDERR_SHOWN)
		fprintf(stderr, "  (the last %d of its %zu lines of standard error)\n", STDERR_SHOWN, n);
	for (size_t i = n > STDERR_SHOWN ? n - STDERR_SHOWN : 0; i < n; i++) {
		char *l = lines[i % STDERR_SHOWN];
		fprintf(stderr, "  | %s%s", l, l[strlen(l) - 1] == '\n' ? "" : "\n");
	}
	for (size_t i = 0; i < STDERR_SHOWN; i++)
		free(lines[i]);
}

static void write_status(const char *path, int wstatus, double seconds,
                         const struct record_gathered *g)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "{\"exit\":%d,\"signal\":%d,\"seconds\":%.3f,\"luajits\":%zu,\"wrote\":%zu,"
	        "\"pid\":%ld,\"bytes\":%llu}\n",
	        WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1,
	        WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0, seconds, g->files, g->nonempty,
	        g->nonempty == 1 ? g->pid : 0L, (unsigned long long)g->bytes);
	fclose(f);
}

/* What went wrong with a run that exited: NULL when nothing did. */
static const char *verdict(int wstatus, const struct record_gathered *g, int profile,
                           char *buf, size_t len)
{
	if (WIFSIGNALED(wstatus)) {
		snprintf(buf, len, "it was killed by signal %d (%s)", WTERMSIG(wstatus),
		         strsignal(WTERMSIG(wstatus)));
		return buf;
	}
	if (WEXITSTATUS(wstatus) != 0) {
		snprintf(buf, len, "it exited with status %d", WEXITSTATUS(wstatus));
		return buf;
	}
	if (g->files == 0)
		return "it exited with status 0, but no LuaJIT it started read LUA_INIT: record "
		       "reaches LuaJIT through LUA_INIT, so COMMAND must be luajit or start it (a "
		       "script, a test runner); an embedded LuaJIT (OpenResty, Tarantool) or "
		       "luajit -E does not read it: record the runs yourself and give them to "
		       "dumpanalyze --repeats (docs/record.md)";
	if (g->nonempty == 0)
		return profile ? "its LuaJIT took no profile sample: does it run for a few "
		                 "milliseconds at least?"
		               : "its LuaJIT wrote an empty dump (it compiled nothing): does it run "
		                 "long enough for LuaJIT to compile its loops?";
	if (g->nonempty > 1) {
		snprintf(buf, len, "%zu LuaJIT processes of the run wrote a %s; record analyses one "
		         "program: point it at the command that runs it alone, or record the runs "
		         "yourself (docs/record.md)",
		         g->nonempty, profile ? "profile" : "dump");
		return buf;
	}
	return NULL;
}

/* Progress on a terminal: which run of how many. */
static void progress(const struct record *r, unsigned i, int profile, unsigned k)
{
	if (!r->progress)
		return;
	fprintf(stderr, "\rrecord: run %u of %u (%s %u of %u)\033[K", i, 2 * r->runs,
	        profile ? "profile" : "dump", k, r->runs);
}

static void progress_clear(const struct record *r)
{
	if (r->progress)
		fputs("\r\033[K", stderr);
}

/* Run k of kind into the stage: 0; the exit code after a message. */
static int one_run(struct record *r, const char *init, int profile, unsigned k, unsigned i)
{
	const char *kind = profile ? "prof" : "dump";
	char *runs = path_in(r->stage, "%s", RECORD_RUNS, 0), *raw = path_in(r->stage, "raw-%s-%u", kind, k);
	char *prefix = path_in(raw, "%s", kind, 0);
	char *out = path_in(runs, "run-%s-%u.stdout", kind, k);
	char *err = path_in(runs, "run-%s-%u.stderr", kind, k);
	char *status = path_in(runs, "run-%s-%u.json", kind, k);
	char *dest = path_in(runs, "%s-%u.zst", kind, k);
	char **env = record_environment(environ, init, profile, prefix);
	int rc = EXIT_OK;
	char why[1024];
	if (mkdir(raw, 0700) != 0) {
		msg_error("record: %s: %s", raw, strerror(errno));
		rc = EXIT_IO;
		goto out;
	}
	progress(r, i, profile, k);
	struct record_child c = { r->command, env, out, err, r->timeout };
	int wstatus = 0;
	double secs = 0;
	int s = record_spawn(&c, &wstatus, &secs, why, sizeof(why));
	if (s == RECORD_INTERRUPTED) {
		rc = -signals_caught();
		goto out;
	}
	progress_clear(r);
	if (s == RECORD_TIMED_OUT) {
		msg_error("record: run %u of %u (%s %u) of '%s' did not finish in %g s (--timeout): "
		          "stopped with SIGTERM%s", i, 2 * r->runs, profile ? "profile" : "dump", k,
		          r->command[0], r->timeout,
		          WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGKILL ?
		          ", then SIGKILL" : "");
		show_stderr(err, 0);
		rc = EXIT_IO;
		goto out;
	}
	if (s < 0) {
		msg_error("record: run %u of %u (%s %u): %s", i, 2 * r->runs, kind, k, why);
		rc = EXIT_IO;
		goto out;
	}
	struct record_gathered g;
	if (record_gather(raw, kind, dest, &g, why, sizeof(why)) < 0) {
		msg_error("record: run %u of %u (%s %u): %s", i, 2 * r->runs, kind, k, why);
		rc = EXIT_IO;
		goto out;
	}
	write_status(status, wstatus, secs, &g);
	const char *bad = verdict(wstatus, &g, profile, why, sizeof(why));
	if (bad) {
		msg_error("record: run %u of %u (%s %u) of '%s' failed: %s", i, 2 * r->runs,
		          profile ? "profile" : "dump", k, r->command[0], bad);
		show_stderr(err, !WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0);
		rc = EXIT_IO;
	}
out:
	record_remove_tree(raw);
	record_environment_free(env);
	free(runs);
	free(raw);
	free(prefix);
	free(out);
	free(err);
	free(status);
	free(dest);
	return rc;
}

/* The stage goes; OUT too when record made it and it is empty. */
static void discard(struct record *r)
{
	if (r->stage)
		record_remove_tree(r->stage);
	if (r->made_out)
		rmdir(r->an.out_dir);
}

/* The analysis of OUT's run set into OUT, in this process, as
 * `dumpanalyze --run-set OUT` does: the exit code. */
static int analyse_set(struct run *an, const char *out)
{
	/* static: reachable while forked workers run (a leak checker in a
	 * worker sees no frame of ours) */
	static struct runset_list rs;
	char err[512];
	if (runset_from_dir(out, &rs, err, sizeof(err)) < 0) {
		msg_error("record: %s", err);
		return EXIT_IO;
	}
	/* the run's own arrays, as cmd_run.c makes them from --run-set */
	an->dumps = xrealloc(NULL, (rs.ndumps + 1) * sizeof(*an->dumps));
	for (size_t i = 0; i < rs.ndumps; i++)
		an->dumps[i] = rs.dumps[i];
	an->ndumps = rs.ndumps;
	an->profiles = xrealloc(NULL, (rs.nprofiles + 1) * sizeof(*an->profiles));
	for (size_t i = 0; i < rs.nprofiles; i++)
		an->profiles[i] = rs.profiles[i];
	an->nprofiles = rs.nprofiles;
	an->out_dir = out;
	an->repeats = 1;
	int rc = run_runset(an);
	free(an->dumps);
	free(an->profiles);
	an->dumps = an->profiles = NULL;
	runset_list_free(&rs);
	return rc;
}

/* While the new run set is in OUT/runs and its analysis not committed:
 * what an interrupted analysis needs to put the previous one back. */
static struct {
	const char *out, *stage;
	int had;
	pid_t pid;                  /* record's own process: not a worker's */
} swapped;

static void put_back(void)
{
	if (swapped.stage && swapped.pid == getpid() &&
	    record_set_unswap(swapped.out, swapped.stage, swapped.had) == 0)
		record_remove_tree(swapped.stage);
	swapped.stage = NULL;
}

/* The new run set in OUT/runs, then its analysis; the previous set back
 * when the analysis fails or is interrupted.  The exit code. */
static int analyse_in_place(struct record *r)
{
	int had, lock = record_lock(r->an.out_dir, r->an.wait);
	if (lock < 0) {
		if (signals_caught())
			return -signals_caught();
		discard(r);
		msg_error("record: %s is left as it was", r->an.out_dir);
		return EXIT_IO;
	}
	/* no signal between the swap and the hook that undoes it */
	signals_hold();
	if (record_set_swap(r->an.out_dir, r->stage, &had) < 0) {
		signals_release();
		close(lock);
		discard(r);
		msg_error("record: %s is left as it was", r->an.out_dir);
		return EXIT_IO;
	}
	swapped.out = r->an.out_dir;
	swapped.stage = r->stage;
	swapped.had = had;
	swapped.pid = getpid();
	signals_before_death(put_back);
	signals_release();
	int rc = analyse_set(&r->an, r->an.out_dir);
	signals_before_death(NULL);
	swapped.stage = NULL;
	int kept = 1;
	if (rc != EXIT_OK) {
		kept = record_set_unswap(r->an.out_dir, r->stage, had) < 0;
		if (!kept)
			msg_error("record: the analysis failed; the runs are not kept (%s/%s is as it "
			          "was)", r->an.out_dir, RECORD_RUNS);
	}
	/* kept after a failed unswap: the stage holds the previous set */
	if (rc == EXIT_OK || !kept)
		record_remove_tree(r->stage);
	close(lock);
	return rc;
}


static int record_runs(struct record *r)
{
	char *init = path_in(r->stage, "%s", "init.lua", 0);
	int rc = EXIT_OK;
	if (record_write_init(init) < 0) {
		msg_error("record: %s: %s", init, strerror(errno));
		rc = EXIT_IO;
	}
	for (unsigned k = 1; rc == EXIT_OK && k <= r->runs; k++)
		for (int profile = 0; rc == EXIT_OK && profile < 2; profile++)
			rc = one_run(r, init, profile, k, 2 * (k - 1) + (unsigned)profile + 1);
	unlink(init);
	free(init);
	return rc;
}

int record_main(int argc, char **argv, const struct fs *fs)
{
	struct record r;
	memset(&r, 0, sizeof(r));
	r.an.fs = fs;
	r.runs = RECORD_DEFAULT_RUNS;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	r.an.jobs = cores > 1 ? (unsigned)(cores < MAX_JOBS ? cores : MAX_JOBS) : 1;
	int rc = parse(&r, argc, argv);
	if (rc >= 0) {
		free(r.an.source_roots);
		return rc;
	}
	if (!r.an.out_dir)
		r.an.out_dir = "dumpanalyze-out";
	r.progress = !r.an.quiet && isatty(STDERR_FILENO);
	struct stat st;
	r.made_out = stat(r.an.out_dir, &st) != 0;
	char *stage = record_stage_open(r.an.out_dir);
	r.stage = stage ? realpath(stage, NULL) : NULL;
	free(stage);
	rc = r.stage ? record_runs(&r) : EXIT_IO;
	if (rc == EXIT_OK) {
		rc = analyse_in_place(&r);
	} else if (rc > 0) {
		discard(&r);
		if (r.stage)
			msg_error("record: %s is left as it was", r.an.out_dir);
	}
	if (rc < 0) {
		progress_clear(&r);
		discard(&r);
		msg_error("record: interrupted (%s); %s is left as it was", signals_name(-rc),
		          r.an.out_dir);
		signals_die(-rc);
	}
	free(r.stage);
	free(r.an.source_roots);
	return rc;
}
