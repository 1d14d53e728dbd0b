/* main.c — options, and the wiring: input -> parser -> model -> views. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dumpanalyze/compare.h"
#include "dumpanalyze/diag.h"
#include "dumpanalyze/input.h"
#include "dumpanalyze/model.h"
#include "dumpanalyze/outdir.h"
#include "dumpanalyze/parser.h"
#include "dumpanalyze/view.h"

enum exit_code { EXIT_OK = 0, EXIT_USAGE = 1, EXIT_IO = 2, EXIT_REJECTED = 3 };
enum { OPT_STRICT = 256, OPT_VERSION, OPT_COMPARE, OPT_FAIL_ON };

/* One table for getopt_long and --help, so they cannot drift apart
 * (tests/cli checks the man page against --help). */
static const struct option_doc {
	struct option opt;
	const char *arg, *help;
} options[] = {
	{ { "dump", required_argument, NULL, 'd' }, "FILE",
	  "the dump to read; '-' or no --dump reads standard input" },
	{ { "out-dir", required_argument, NULL, 'o' }, "DIR",
	  "where the files go (default FILE-parsed, or dumpanalyze-out for stdin)" },
	{ { "views", required_argument, NULL, 'V' }, "LIST",
	  "comma-separated views to render; 'list' lists them" },
	{ { "quiet", no_argument, NULL, 'q' }, NULL,
	  "no summary at the end" },
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
	const char *dump, *out_dir, *views, *compare, *fail_on;
	struct diag diag;
};

static void summary(const struct run *run, const struct model *m,
                    const struct line_counts *lc, const struct outdir *out)
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
	struct line l;
	int r, rc = EXIT_OK;
	while ((r = input_next(in, &l)) > 0)
		if ((r = parser_line(p, &l)) < 0)
			break;
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
	if (rc == EXIT_OK && outdir_publish(out) < 0)
		rc = EXIT_IO;
	if (rc == EXIT_OK && !run->diag.quiet)
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

int main(int argc, char **argv)
{
	struct run run = { 0 };
	/* Past a file size limit, let write() fail with EFBIG and report it,
	 * instead of dying with half-written files. */
	signal(SIGXFSZ, SIG_IGN);
	struct option longopts[NOPTIONS + 1];
	int strict = 0, quiet = 0, verbose = 0;

	for (size_t i = 0; i < NOPTIONS; i++)
		longopts[i] = options[i].opt;
	memset(&longopts[NOPTIONS], 0, sizeof(longopts[0]));
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, ":d:o:V:qvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': run.dump = optarg; break;
		case 'o': run.out_dir = optarg; break;
		case 'V': run.views = optarg; break;
		case 'q': quiet = 1; break;
		case 'v': verbose = 1; break;
		case OPT_STRICT: strict = 1; break;
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
	if (run.compare) {
		if (optind + 1 != argc) {
			da_error("--compare needs two directories: --compare OLD_OUT NEW_OUT");
			return EXIT_USAGE;
		}
		int r = compare_dirs(run.compare, argv[optind], run.fail_on, stdout);
		return r < 0 ? EXIT_USAGE : r;
	}
	if (run.fail_on) {
		da_error("--fail-on goes with --compare");
		return EXIT_USAGE;
	}
	if (optind < argc) {
		da_error("unexpected argument '%s' (the dump goes after --dump)", argv[optind]);
		return EXIT_USAGE;
	}
	if (run.views && strcmp(run.views, "list") == 0) {
		list_views();
		return EXIT_OK;
	}
	if (!run.dump) {
		if (isatty(STDIN_FILENO)) {
			da_error("no dump given: use --dump FILE, or pipe a dump to standard input");
			return EXIT_USAGE;
		}
		run.dump = "-";
	}
	diag_init(&run.diag, strcmp(run.dump, "-") == 0 ? "<stdin>" : run.dump);
	run.diag.strict = strict;
	run.diag.quiet = quiet;
	run.diag.verbose = verbose;

	/* Usage first: nothing is created for a command line that is wrong. */
	struct view_set views;
	char err[256];
	if (view_set_init(&views, run.views, NULL, &run.diag, err, sizeof(err)) < 0) {
		da_error("%s", err);
		return EXIT_USAGE;
	}
	struct input in;
	int r = input_open(&in, run.dump);
	if (r < 0) {
		da_error("cannot read dump %s: %s", run.dump, strerror(-r));
		view_set_finish(&views);
		return EXIT_IO;
	}
	char *dir = run.out_dir ? strdup(run.out_dir) : default_out_dir(run.dump);
	struct outdir *out = dir ? outdir_open(dir) : NULL;
	free(dir);
	if (!out) {
		input_close(&in);
		view_set_finish(&views);
		return EXIT_IO;
	}
	for (size_t i = 0; i < views.n; i++)
		views.ctx[i].out = out;

	int rc = analyse(&run, &in, &views, out);
	input_close(&in);
	outdir_close(out);      /* discards anything not committed */
	return rc;
}
