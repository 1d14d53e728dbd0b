/* main.c — options, and the wiring: input -> parser -> model -> views. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "dumpanalyze/compare.h"
#include "dumpanalyze/diag.h"
#include "dumpanalyze/forkguard.h"
#include "dumpanalyze/input.h"
#include "dumpanalyze/merge.h"
#include "dumpanalyze/arena.h"
#include "dumpanalyze/model.h"
#include "dumpanalyze/outdir.h"
#include "dumpanalyze/parser.h"
#include "dumpanalyze/view.h"
#include "dumpanalyze/profile.h"

enum exit_code { EXIT_OK = 0, EXIT_USAGE = 1, EXIT_IO = 2, EXIT_REJECTED = 3 };
enum { OPT_STRICT = 256, OPT_VERSION, OPT_COMPARE, OPT_FAIL_ON };
#define MAX_JOBS 64

/* One table for getopt_long and --help, so they cannot drift apart
 * (tests/cli checks the man page against --help). */
static const struct option_doc {
	struct option opt;
	const char *arg, *help;
} options[] = {
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
#define NOPTIONS (sizeof(options) / sizeof(options[0]))

static void usage(FILE *fp)
{
	fputs("usage: dumpanalyze [--dump FILE] [--out-dir DIR] [--views LIST] [options]\n"
	      "       luajit -jdump=+x app.lua | dumpanalyze --out-dir DIR\n"
	      "       dumpanalyze --compare OLD_OUT NEW_OUT [--fail-on RULES]\n\n"
	      "       luajit -jp=lvrm0i1,prof.txt app.lua; dumpanalyze --dump dump.txt --profile prof.txt\n"
	      "Turns a LuaJIT -jdump dump into CSV, text and picture views.\n\n", fp);
	for (size_t i = 0; i < NOPTIONS; i++) {
		const struct option_doc *o = &options[i];
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

static void list_views(void)
{
	for (size_t i = 0; view_table[i]; i++) {
		const struct view *v = view_table[i];
		printf("%-18s %-26s %s%s\n", v->name, v->files, v->summary,
		       v->is_default ? "" : " (not default)");
	}
}

struct run {
	const char **dumps;
	size_t ndumps;
	const char **profiles;      /* none, or one per dump */
	size_t nprofiles;
	const char *out_dir, *views, *compare, *fail_on;
	int quiet, verbose, strict;
	unsigned jobs;
	int quiet_stdout;           /* a worker of several dumps: no summary */
	struct diag diag;
};

static void summary(const struct run *run, const struct model *m,
                    const struct line_counts *lc, struct outdir *out)
{
	const struct gen_counts *n = &m->total;
	fprintf(stderr,
	        "%s: %" PRIu32 " generation%s\n"
	        "  traces        %8" PRIu64 "  (root %" PRIu64 ", side %" PRIu64
	        ", stitched %" PRIu64 ", orphan %" PRIu64 ")\n"
	        "  bushes        %8" PRIu64 "\n"
	        "  incomplete    %8" PRIu64 "\n"
	        "  aborts        %8" PRIu64 "\n"
	        "  exits         %8" PRIu64 "\n"
	        "  lines         %8" PRIu64 "  (trace content %" PRIu64 ", headers %" PRIu64
	        ", exit registers %" PRIu64 ", foreign %" PRIu64 ", blank %" PRIu64 ")\n"
	        "  warnings      %8" PRIu64 "\n"
	        "  files written %8lu  in %s\n",
	        run->diag.file, m->generations, m->generations == 1 ? "" : "s",
	        n->traces, n->root, n->side - n->orphans, n->stitched, n->orphans,
	        n->bushes, n->incomplete, n->aborts, n->exits,
	        lc->total, lc->content, lc->header, lc->exit_regs, lc->foreign, lc->blank,
	        run->diag.warnings, outdir_files_written(out), outdir_path(out));
}

/* ---- progress on a terminal ----------------------------------------- */

struct progress {
	int on;
	uint64_t total;             /* file size, 0 when unknown (a pipe) */
	double start, last;
};

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Only when stderr is a terminal and the user did not ask for quiet. */
static void progress_start(struct progress *pg, const struct input *in, int quiet)
{
	memset(pg, 0, sizeof(*pg));
	pg->on = !quiet && isatty(STDERR_FILENO);
	struct stat st;
	if (pg->on && fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode))
		pg->total = (uint64_t)st.st_size;
	pg->start = pg->last = now_seconds();
}

/* Redrawn at most four times a second. */
static void progress_show(struct progress *pg, const struct input *in, const struct model *m)
{
	double t = now_seconds();
	if (t - pg->last < 0.25)
		return;
	pg->last = t;
	double mb = (double)in->bytes / 1e6;
	fprintf(stderr, "\r%.0f MB", mb);
	if (pg->total)
		fprintf(stderr, " of %.0f MB (%.0f%%)", (double)pg->total / 1e6,
		        100.0 * (double)in->bytes / (double)pg->total);
	fprintf(stderr, ", %.0f MB/s, %" PRIu64 " traces, generation %u   ",
	        t > pg->start ? mb / (t - pg->start) : 0.0, m->total.traces + m->gen.n.traces,
	        m->generations + 1);
	fflush(stderr);
}

static void progress_end(struct progress *pg)
{
	if (pg->on && pg->last > pg->start)
		fputs("\r\033[K", stderr);     /* clear the line */
}

/* Copy an output file to stdout, if the run wrote it. */
static void print_file(const struct outdir *out, const char *name)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", outdir_path(out), name);
	FILE *fp = fopen(path, "r");
	if (!fp)
		return;
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		fwrite(buf, 1, n, stdout);
	fclose(fp);
	fflush(stdout);
}

/* Read every line through parser and model.  0, or the exit code. */
static int analyse(struct run *run, struct input *in, struct view_set *views,
                   struct outdir *out)
{
	struct model m;
	model_init(&m, &run->diag, views);
	struct parser *p = parser_new(&run->diag, (views->needs & NEEDS_TEXT) != 0,
	                              model_event, &m);
	for (size_t i = 0; i < views->n; i++)
		views->ctx[i].lines = parser_counts(p);
	const struct line *lines;
	int r, rc = EXIT_OK;
	struct progress pg;
	progress_start(&pg, in, run->quiet);
	uint64_t shown = 0;
	while ((r = input_next_chunk(in, &lines)) > 0) {
		if ((r = parser_lines(p, lines, (size_t)r)) < 0)
			break;
		if (pg.on && in->lineno - shown >= 0x10000) {
			shown = in->lineno;
			progress_show(&pg, in, &m);
		}
	}
	progress_end(&pg);
	if (r == 0) {
		if (input_truncated(in))
			r = diag_warn(&run->diag, in->lineno, "the %s stream ends early: the dump was cut off",
			              input_compression(in));
		if (r >= 0)
			r = parser_end(p, in->lineno);
		if (r >= 0)
			r = model_finish(&m, in->lineno);
	} else if (r < -1 && !run->diag.failed) {
		/* input_next reports -errno; view failures return -1 */
		da_error("%s: %s (after line %llu)", run->diag.file, input_error(in),
		         (unsigned long long)in->lineno);
	}
	if (r < 0)
		rc = run->diag.failed ? EXIT_REJECTED : EXIT_IO;
	if (view_set_finish(views) < 0 && rc == EXIT_OK)
		rc = EXIT_IO;
	/* What the finish hooks wrote (summary.txt) appears only for a run
	 * that got to its end. */
	if (rc == EXIT_OK && (outdir_publish(out) < 0 || outdir_sync(out) < 0))
		rc = EXIT_IO;
	if (rc == EXIT_OK && !run->diag.quiet && !run->quiet_stdout)
		print_file(out, "summary.txt");
	if (rc == EXIT_OK && !run->diag.quiet)
		summary(run, &m, parser_counts(p), out);
	parser_free(p);
	model_free(&m);
	return rc;
}

static char *default_out_dir(const char *dump)
{
	if (strcmp(dump, "-") == 0)
		return strdup("dumpanalyze-out");
	size_t n = strlen(dump);
	while (n > 1 && dump[n - 1] == '/')
		n--;
	char *s = malloc(n + sizeof("-parsed"));
	if (s) {
		memcpy(s, dump, n);
		memcpy(s + n, "-parsed", sizeof("-parsed"));
	}
	return s;
}

/* The views of a run with a profile and no --views: the default ones,
 * the profile's, and the flame graph when there are stacks to draw. */
static char *views_with_profile(int stacks)
{
	size_t n = 64;
	for (size_t i = 0; view_table[i]; i++)
		n += strlen(view_table[i]->name) + 1;
	char *list = xrealloc(NULL, n);
	list[0] = '\0';
	for (size_t i = 0; view_table[i]; i++)
		if (view_table[i]->is_default) {
			strcat(list, view_table[i]->name);
			strcat(list, ",");
		}
	strcat(list, stacks ? "profile,flamegraph" : "profile");
	return list;
}

/* The chosen views against what the profile (or its absence) gives:
 * a usage error when they do not fit.  0 or -1. */
static int views_fit_profile(const struct view_set *v, const struct profile *p, const char *path)
{
	for (size_t i = 0; i < v->n; i++) {
		unsigned needs = v->ctx[i].view->needs;
		if ((needs & NEEDS_PROFILE) && !p) {
			da_error("view %s needs --profile FILE (a -jp profile of the same workload)",
			         v->ctx[i].view->name);
			return -1;
		}
		if ((needs & NEEDS_STACKS) && p && p->kind != PROFILE_STACKS) {
			da_error("view %s needs folded stacks: %s has none (record it with -jp=Gvl)",
			         v->ctx[i].view->name, path);
			return -1;
		}
	}
	return 0;
}

/* One dump (and its profile) into one output directory: the whole
 * pipeline.  Returns the exit code. */
static int run_one(struct run *run, const char *dump, const char *profile_path,
                   const char *out_dir)
{
	diag_init(&run->diag, strcmp(dump, "-") == 0 ? "<stdin>" : dump);
	run->diag.strict = run->strict;
	run->diag.quiet = run->quiet;
	run->diag.verbose = run->verbose;
	struct profile prof, *pp = NULL;
	if (profile_path) {
		profile_init(&prof, profile_path);
		int pr = profile_load(&prof, profile_path);
		if (pr < 0) {
			profile_free(&prof);
			return pr == -2 ? EXIT_IO : EXIT_REJECTED;
		}
		pp = &prof;
	}
	struct view_set views;
	char err[256];
	char *list = pp && !run->views ? views_with_profile(pp->kind == PROFILE_STACKS) : NULL;
	int vr = view_set_init(&views, list ? list : run->views, NULL, &run->diag, err, sizeof(err));
	free(list);
	if (vr < 0 || views_fit_profile(&views, pp, profile_path) < 0) {
		if (vr < 0)
			da_error("%s", err);
		else
			view_set_finish(&views);
		if (pp)
			profile_free(pp);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < views.n; i++)
		views.ctx[i].profile = pp;
	struct input in;
	int r = input_open(&in, dump);
	if (r < 0) {
		da_error("cannot read dump %s: %s", dump, strerror(-r));
		view_set_finish(&views);
		if (pp)
			profile_free(pp);
		return EXIT_IO;
	}
	char *dir = out_dir ? strdup(out_dir) : default_out_dir(dump);
	struct outdir *out = dir ? outdir_open(dir) : NULL;
	free(dir);
	if (!out) {
		input_close(&in);
		view_set_finish(&views);
		if (pp)
			profile_free(pp);
		return EXIT_IO;
	}
	for (size_t i = 0; i < views.n; i++) {
		views.ctx[i].out = out;
		views.ctx[i].jobs = run->jobs;
	}
	int rc = analyse(run, &in, &views, out);
	input_close(&in);
	outdir_close(out);      /* discards anything not committed */
	if (pp)
		profile_free(pp);
	return rc;
}

static void free_names(char **dirs, char **names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(dirs[i]);
		free(names[i]);
	}
	free(dirs);
	free(names);
}

/* Several dumps (one per worker process is common): each into
 * OUT/<basename>/, as many at once as there are cores, then one merged
 * OUT/summary.txt.  A dump that fails does not stop the others; the exit
 * code is the worst of theirs. */
static int run_many(struct run *run)
{
	const char *top = run->out_dir ? run->out_dir : "dumpanalyze-out";
	struct outdir *out = outdir_open(top);
	if (!out)
		return EXIT_IO;
	size_t n = run->ndumps;
	char **dirs = xrealloc(NULL, n * sizeof(*dirs));
	char **names = xrealloc(NULL, n * sizeof(*names));
	int *status = xrealloc(NULL, n * sizeof(*status));
	pid_t *pids = xrealloc(NULL, n * sizeof(*pids));
	for (size_t i = 0; i < n; i++) {
		const char *b = strrchr(run->dumps[i], '/');
		b = b ? b + 1 : run->dumps[i];
		/* The same base name twice: dump.txt, dump.txt.2, ... */
		unsigned k = 1;
		for (size_t j = 0; j < i; j++)
			if (strncmp(names[j], b, strlen(b)) == 0 &&
			    (names[j][strlen(b)] == '\0' || names[j][strlen(b)] == '.'))
				k++;
		size_t len = strlen(b) + 16;
		names[i] = xrealloc(NULL, len);
		if (k > 1)
			snprintf(names[i], len, "%s.%u", b, k);
		else
			snprintf(names[i], len, "%s", b);
		len = strlen(top) + strlen(names[i]) + 2;
		dirs[i] = xrealloc(NULL, len);
		snprintf(dirs[i], len, "%s/%s", top, names[i]);
		status[i] = EXIT_IO;
		pids[i] = -1;
	}
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	size_t jobs = cores > 0 ? (size_t)cores : 1, running = 0, next = 0;
	fflush(NULL);
	while (next < n || running > 0) {
		if (next < n && running < jobs) {
			pid_t pid = fork_guarded();
			if (pid == 0) {
				run->quiet_stdout = 1;
				run->jobs = 1;      /* the dumps already share the cores */
				int r = run_one(run, run->dumps[next],
				                run->nprofiles ? run->profiles[next] : NULL, dirs[next]);
				/* The parent's copies, freed so that leak checkers
				 * following the worker see a clean exit. */
				outdir_close(out);
				free_names(dirs, names, n);
				free(status);
				free(pids);
				free(run->dumps);
				free(run->profiles);
				_exit(r);
			}
			if (pid < 0) {
				da_error("cannot start a worker: %s", strerror(errno));
				status[next++] = EXIT_IO;
				continue;
			}
			pids[next++] = pid;
			running++;
			continue;
		}
		int st;
		pid_t pid = wait(&st);
		if (pid < 0)
			break;
		running--;
		for (size_t i = 0; i < n; i++)
			if (pids[i] == pid)
				status[i] = WIFEXITED(st) ? WEXITSTATUS(st) : EXIT_IO;
	}
	int rc = EXIT_OK;
	for (size_t i = 0; i < n; i++)
		if (status[i] > rc)
			rc = status[i];
	if (merge_summaries(out, (const char *const *)run->dumps, (const char *const *)names,
	                    status, n) < 0 || outdir_publish(out) < 0 || outdir_sync(out) < 0)
		rc = EXIT_IO;
	else if (!run->quiet)
		print_file(out, "summary.txt");
	outdir_close(out);
	free_names(dirs, names, n);
	free(status);
	free(pids);
	return rc;
}

int main(int argc, char **argv)
{
	struct run run = { 0 };
	/* Past a file size limit, let write() fail with EFBIG and report it,
	 * instead of dying with half-written files. */
	signal(SIGXFSZ, SIG_IGN);
	struct option longopts[NOPTIONS + 1];

	for (size_t i = 0; i < NOPTIONS; i++)
		longopts[i] = options[i].opt;
	memset(&longopts[NOPTIONS], 0, sizeof(longopts[0]));
	opterr = 0;
	int c;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	run.jobs = cores > 1 ? (unsigned)(cores < MAX_JOBS ? cores : MAX_JOBS) : 1;
	while ((c = getopt_long(argc, argv, ":d:o:p:V:j:qvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			run.dumps = xrealloc(run.dumps, (run.ndumps + 1) * sizeof(*run.dumps));
			run.dumps[run.ndumps++] = optarg;
			break;
		case 'o': run.out_dir = optarg; break;
		case 'p':
			run.profiles = xrealloc(run.profiles, (run.nprofiles + 1) * sizeof(*run.profiles));
			run.profiles[run.nprofiles++] = optarg;
			break;
		case 'V': run.views = optarg; break;
		case 'j': {
			char *end;
			long j = strtol(optarg, &end, 10);
			if (*end || j < 1 || j > MAX_JOBS) {
				da_error("--jobs wants a number from 1 to %d, not '%s'", MAX_JOBS, optarg);
				return EXIT_USAGE;
			}
			run.jobs = (unsigned)j;
			break;
		}
		case 'q': run.quiet = 1; break;
		case 'v': run.verbose = 1; break;
		case OPT_STRICT: run.strict = 1; break;
		case OPT_COMPARE: run.compare = optarg; break;
		case OPT_FAIL_ON: run.fail_on = optarg; break;
		case 'h': usage(stdout); return EXIT_OK;
		case OPT_VERSION: puts("dumpanalyze " DA_VERSION); return EXIT_OK;
		case ':':
			da_error("option '%s' needs an argument (try --help)", argv[optind - 1]);
			return EXIT_USAGE;
		default:
			if (optopt)
				da_error("unknown option '-%c' (try --help)", optopt);
			else
				da_error("unknown option '%s' (try --help)", argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	int rc = EXIT_USAGE;
	if (run.compare) {
		if (optind + 1 != argc)
			da_error("--compare needs two directories: --compare OLD_OUT NEW_OUT");
		else {
			int r = compare_dirs(run.compare, argv[optind], run.fail_on, stdout);
			rc = r < 0 ? EXIT_USAGE : r;
		}
	} else if (run.fail_on) {
		da_error("--fail-on goes with --compare");
	} else if (run.nprofiles && run.nprofiles != (run.ndumps ? run.ndumps : 1)) {
		da_error("give one --profile per --dump, in the same order (%zu dumps, %zu profiles)",
		         run.ndumps ? run.ndumps : 1, run.nprofiles);
	} else if (optind < argc) {
		da_error("unexpected argument '%s' (the dump goes after --dump)", argv[optind]);
	} else if (run.views && strcmp(run.views, "list") == 0) {
		list_views();
		rc = EXIT_OK;
	} else if (run.ndumps > 1) {
		/* Usage first: nothing is created for a command line that is wrong. */
		struct view_set views;
		char err[256];
		struct diag d;
		diag_init(&d, "");
		int stdin_twice = 0;
		for (size_t i = 0; i < run.ndumps; i++)
			stdin_twice |= strcmp(run.dumps[i], "-") == 0;
		if (stdin_twice)
			da_error("standard input can only be the one dump of a run");
		else if (view_set_init(&views, run.views, NULL, &d, err, sizeof(err)) < 0)
			da_error("%s", err);
		else {
			view_set_finish(&views);
			rc = run_many(&run);
		}
	} else {
		const char *dump = run.ndumps ? run.dumps[0] : NULL;
		if (!dump && isatty(STDIN_FILENO))
			da_error("no dump given: use --dump FILE, or pipe a dump to standard input");
		else
			rc = run_one(&run, dump ? dump : "-", run.nprofiles ? run.profiles[0] : NULL,
			             run.out_dir);
	}
	free(run.dumps);
	free(run.profiles);
	return rc;
}
