/* run.c — one dump into one output directory: the views as a library
 * sink, the library reading the dump, the closing summary. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dumpanalyze.h"
#include "cli/cli.h"
#include "compare/baseline_file.h"
#include "cli/progress.h"
#include "draw/bush_files.h"
#include "output/message.h"
#include "outdir/manifest.h"
#include "outdir/outdir.h"
#include "outdir/rundir.h"
#include "output/termtext.h"
#include "cli/signals.h"
#include "profile/profile.h"
#include "util/alloc.h"
#include "lib/api.h"
#include "lib/profiles.h"
#include "views/view.h"
#include "luajit/recipe.h"

#define WARNINGS_SHOWN 20       /* printed before going quiet */

/* Warnings as "FILE:LINE: warning: ...", the first WARNINGS_SHOWN. */
struct printer {
	uint64_t warnings;
	int profile;                /* da_use_profile: its errors are the
	                               tool's one-line messages */
};

static void print_diag(void *data, enum da_severity sev, const char *file, uint64_t line,
                       const char *text)
{
	struct printer *pr = data;
	if (pr->profile) {
		if (line)
			msg_error("%s:%" PRIu64 ": %s", file, line, text);
		else
			msg_error("%s: %s", file, text);
		return;
	}
	/* The file and the message quote names from dumps and the disk:
	 * escaped (output/termtext.h), the message's own words unchanged. */
	char *shown = term_text(text), *name = term_text(file);
	const char *msg = shown;
	if (sev == DA_NOTE) {
		fprintf(stderr, "%s:%" PRIu64 ": %s\n", name, line, msg);
	} else if (line == 0 && sev == DA_WARNING) {  /* about the source */
		fprintf(stderr, "%s: warning: %s\n", name, msg);
	} else if (line == 0) {     /* not about a line: why an open failed */
		fprintf(stderr, "%s: %s%s\n", name, sev == DA_ERROR ? "error: " : "", msg);
	} else {
		pr->warnings++;
		if (pr->warnings <= WARNINGS_SHOWN || sev == DA_ERROR)
			fprintf(stderr, "%s:%" PRIu64 ": %s%s\n", name, line,
			        sev == DA_ERROR ? "error: " : "warning: ", msg);
		else if (pr->warnings == WARNINGS_SHOWN + 1)
			fprintf(stderr, "%s: further warnings are counted, not shown\n", name);
	}
	free(shown);
	free(name);
}

static void summary(const char *name, const da_dump *d, unsigned long written,
                    unsigned long left_out, const char *dir)
{
	const struct da_counts *n = da_totals(d);
	const struct da_line_counts *lc = da_line_counts(d);
	uint32_t gens = da_generations(d);
	char *shown = term_text(name), *dir_shown = term_text(dir);
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
	        shown, gens, gens == 1 ? "" : "s",
	        n->traces, n->root, n->side, n->stitched, n->orphans,
	        n->bushes, n->incomplete, n->aborts, n->exits,
	        lc->total, lc->content, lc->header, lc->exit_regs, lc->foreign, lc->blank,
	        da_warnings(d), written, dir_shown);
	free(shown);
	free(dir_shown);
	if (left_out)
		fprintf(stderr, "  pictures left out %4lu  (bushes larger than %.0f px: "
		        "--views bush-png draws them, the report zooms)\n",
		        left_out, BUSH_DEFAULT_MAX_SIDE);
}

void print_file(const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
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

/* The chosen views against what the profiles (or their absence) give:
 * a usage error when they do not fit.  jp: the -jp profile's path, or
 * NULL.  0 or -1. */
static int views_fit_profile(const struct view_set *v, unsigned have, const char *jp)
{
	for (size_t i = 0; i < v->n; i++) {
		unsigned needs = v->ctx[i].view->needs;
		const char *name = v->ctx[i].view->name;
		if ((needs & NEEDS_PROFILE) && !(have & NEEDS_PROFILE)) {
			msg_error("view %s needs --profile FILE (a -jp profile of the same workload)", name);
			return -1;
		}
		if ((needs & NEEDS_SYSPROF) && !(have & NEEDS_SYSPROF)) {
			msg_error("view %s needs --profile FILE written by sysprof (misc.sysprof of "
			          "Tarantool's LuaJIT) in the dump's process", name);
			return -1;
		}
		if ((needs & NEEDS_STACKS) && !(have & NEEDS_STACKS)) {
			if (jp)
				msg_error("view %s needs folded stacks: %s has none (record it with "
				          RECIPE_JP ", or give a sysprof profile)", name, jp);
			else
				msg_error("view %s needs --profile FILE (a " RECIPE_JP " profile of the same "
				          "workload, or a sysprof one)", name);
			return -1;
		}
	}
	return 0;
}

/* The profiles of a run, by kind: a -jp one and a sysprof one at most,
 * both read by the library (da_use_profile; the -jp one charges the
 * findings when both are given). */
struct profiles {
	const char *jp_path, *sp_path;
};

/* Sort the profiles by what their bytes say they are.  0, or the exit
 * code after a message. */
static int sort_profiles(struct profiles *ps, const char *const *paths, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *path = paths[i];
		int is = api_profiles_is_sysprof(path);
		if (is < 0) {
			msg_error("%s: %s", path, strerror(-is));
			return EXIT_IO;
		}
		if (is ? ps->sp_path != NULL : ps->jp_path != NULL) {
			msg_error("two %s profiles (%s, %s): give at most one -jp and one sysprof profile",
			          is ? "sysprof" : "-jp", is ? ps->sp_path : ps->jp_path, path);
			return EXIT_USAGE;
		}
		*(is ? &ps->sp_path : &ps->jp_path) = path;
	}
	return 0;
}

/* Read the whole dump into the views.  The exit code. */
static int analyse(const struct run *run, const char *dump, const char *name, da_dump *d,
                   struct view_set *views, struct outdir *out)
{
	struct progress pg;
	progress_start(&pg, dump, run->quiet);
	int r;
	while ((r = da_step(d)) > 0)
		progress_show(&pg, d);
	progress_end(&pg);
	int rc = EXIT_OK;
	if (r == DA_EIO || r == DA_ENOMEM)
		msg_error("%s: %s (after line %" PRIu64 ")", name, da_dump_error(d), da_lines_read(d));
	if (r < 0)
		rc = r == DA_ESTRICT ? EXIT_REJECTED : EXIT_IO;
	int f = view_set_finish(views);
	if (f == -ENOMEM)
		msg_error("%s: out of memory (writing the views' files)", name);
	if (f < 0 && rc == EXIT_OK)
		rc = EXIT_IO;
	/* What the finish hooks wrote (summary.txt) appears only for a run
	 * that got to its end. */
	if (rc == EXIT_OK && (outdir_publish(out) < 0 || outdir_sync(out) < 0))
		rc = EXIT_IO;
	return rc;
}

/* The manifest of this run: what it read, how, and what it rendered. */
static void describe_run(struct manifest *m, const struct run *run, const char *dump,
                         const struct profiles *ps, const da_dump *d, char **views,
                         size_t nviews, int rc)
{
	memset(m, 0, sizeof(*m));
	m->version = strdup(DA_VERSION_STRING);
	m->dumps = xrealloc(NULL, sizeof(*m->dumps));
	m->ndumps = 1;
	m->dumps[0].path = strdup(dump);
	m->dumps[0].bytes = da_bytes_read(d);
	m->dumps[0].profile = ps->jp_path ? strdup(ps->jp_path) : NULL;
	m->dumps[0].sysprof = ps->sp_path ? strdup(ps->sp_path) : NULL;
	for (size_t i = 0; i < nviews; i++)
		manifest_add(&m->views, &m->nviews, views[i]);
	m->views_option = run->views ? strdup(run->views) : NULL;
	m->strict = run->strict;
	m->complete = rc == EXIT_OK;
	m->exit_status = rc;
	m->jit_events = da_line_counts(d)->header > 0 ? 1 : -1;
}

size_t run_inputs(const char *const *dumps, const char *const *profiles, size_t n,
                  struct rundir_input *in)
{
	size_t k = 0;
	for (size_t i = 0; i < 2 * n; i++) {
		const char *path = i < n ? dumps[i] : profiles ? profiles[i - n] : NULL;
		struct stat st;
		if (!path)
			continue;
		/* standard input: whatever file it is */
		int r = strcmp(path, "-") == 0 && i < n ? fstat(STDIN_FILENO, &st) : stat(path, &st);
		if (r == 0 && S_ISREG(st.st_mode))
			in[k++] = (struct rundir_input){ i < n ? "dump" : "profile", path,
			                                 (uint64_t)st.st_dev, (uint64_t)st.st_ino };
	}
	return k;
}

static int registered(const char *name)
{
	for (size_t i = 0; view_table[i]; i++)
		if (strcmp(view_table[i]->name, name) == 0)
			return 1;
	return 0;
}

/* The views to keep them all: --views as given (or "default") with the
 * dropped ones, "default" standing for the default set's when it has them
 * all. */
void run_say_dropped(const struct run *run, const char *out, const struct rundir_result *res)
{
	if (!res->ndropped)
		return;
	char names[2048] = "", keep[2048] = "";
	size_t n = 0, k = 0;
	int all_default = 1, any_default = 0;
	for (size_t i = 0; view_table[i]; i++) {
		const struct view *v = view_table[i];
		int dropped = manifest_has(res->dropped, res->ndropped, v->name);
		if (v->is_default && dropped)
			any_default = 1;
		if (v->is_default && !dropped && !manifest_has(res->kept, res->nkept, v->name))
			all_default = 0;
	}
	int collapse = any_default && all_default && run->views;
	if (collapse)
		k += (size_t)snprintf(keep + k, sizeof(keep) - k, "default,");
	k += (size_t)snprintf(keep + k, sizeof(keep) - k, "%s",
	                      run->views ? run->views : "default");
	for (size_t i = 0; view_table[i]; i++) {
		const struct view *v = view_table[i];
		if (!manifest_has(res->dropped, res->ndropped, v->name))
			continue;
		n += (size_t)snprintf(names + n, n < sizeof(names) ? sizeof(names) - n : 0, "%s%s",
		                      n ? ", " : "", v->name);
		if (!(collapse && v->is_default) && k < sizeof(keep))
			k += (size_t)snprintf(keep + k, sizeof(keep) - k, ",%s", v->name);
	}
	/* views of another version, not in the registry */
	for (size_t i = 0; i < res->ndropped; i++)
		if (!registered(res->dropped[i]) && n < sizeof(names))
			n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", n ? ", " : "",
			                      res->dropped[i]);
	msg_error("%s: removed %s of the previous run; '--views %s' keeps them", out, names, keep);
}

/* The end of a run that a signal stopped: one line, then its death. */
static _Noreturn void die_of(int sig, const char *name, const char *dir, const char *state)
{
	msg_error("%s: interrupted (%s); %s %s", name, signals_name(sig), dir, state);
	signals_die(sig);
	_exit(128 + sig);
}

int run_one(const struct run *run, const char *dump, const char *const *profiles,
            size_t nprofiles, const char *out_dir, const char *nested_as)
{
	const char *name = strcmp(dump, "-") == 0 ? "<stdin>" : dump;
	struct profiles ps = { 0 };
	const struct profile *pp = NULL;
	struct view_set views = { 0 };
	int have_views = 0;
	struct rundir rd = { 0 };
	rd.out_fd = rd.stage_fd = rd.lock.fd = -1;
	struct outdir *out = NULL;
	da_dump *d = NULL;
	char *dir = NULL;
	char **names = NULL;
	size_t nnames = 0;
	int rc = EXIT_USAGE, sig = 0;
	int staging = 0;            /* a staging directory to remove at the end */
	const char *state = "is left as it was";
	struct rundir_input inputs[3];         /* the commit checks them too */

	int lr = sort_profiles(&ps, profiles, nprofiles);
	if (lr) {
		rc = lr;
		goto done;
	}
	char err[256];
	/* What the views need of the library, whichever kind of -jp profile
	 * (lines or stacks) it turns out to be. */
	unsigned sp_have = ps.sp_path ? NEEDS_SYSPROF | NEEDS_STACKS : 0;
	unsigned needs = 0;
	for (int stacks = 0; stacks < 2; stacks++) {
		unsigned have = sp_have | (!ps.jp_path ? 0 : stacks ? NEEDS_PROFILE | NEEDS_STACKS
		                                        : NEEDS_PROFILE);
		if (view_set_init(&views, run->views, have, err, sizeof(err)) < 0) {
			msg_error("%s", err);
			goto done;
		}
		needs |= views.needs;
		view_set_discard(&views);
	}
	struct printer pr = { 0, 0 };
	/* The views keep nothing of a record past its callback (what they
	 * keep, they copy): DA_CALLBACK_ONLY, so that memory follows a
	 * generation's traces, not its exits and text. */
	struct da_options o = DA_OPTIONS(
		.flags = ((needs & NEEDS_TEXT) ? DA_KEEP_TEXT : 0) | DA_CALLBACK_ONLY |
		         ((needs & NEEDS_FINDINGS) || run->baseline || run->write_baseline ||
		          run->format_gcc || run->annotate_github
		          ? DA_FINDINGS : 0) |
		         (run->strict ? DA_STRICT : 0) | (run->verbose ? DA_NOTES : 0),
		.name = name,
		.sink = &view_set_sink,
		.sink_data = &views,
		.diag = print_diag,
		.diag_data = &pr,
		.vmdef_path = run->vmdef,
	);
	int e;
	/* Opened before the directory: a dump that cannot be read creates
	 * nothing. */
	if (!(d = da_open_path(dump, &o, &e))) {
		msg_error("cannot read dump %s: %s", dump,
		          e == DA_EOPEN ? strerror(errno) : da_strerror(e));
		rc = EXIT_IO;
		goto done;
	}
	/* The findings read the profile and the Lua files only where the
	 * user said: the current directory, as written, and --source-root. */
	for (int k = 0; k < 2; k++) {
		const char *path = k ? ps.sp_path : ps.jp_path;
		if (!path)
			continue;
		pr.profile = 1;
		int r = da_use_profile(d, path);
		pr.profile = 0;
		if (r < 0) {             /* said by print_diag */
			rc = r == DA_EFORMAT ? EXIT_REJECTED : EXIT_IO;
			goto done;
		}
	}
	pp = api_profile(d);
	if (da_use_source_root(d, ".", 0) < 0) {
		rc = EXIT_IO;
		goto done;
	}
	for (size_t i = 0; i < run->nsource_roots; i++)
		if (da_use_source_root(d, run->source_roots[i], DA_SOURCE_BY_NAME) < 0) {
			rc = EXIT_IO;
			goto done;
		}
	if (run->baseline) {
		pr.profile = 1;         /* its errors are the tool's messages */
		int r = da_use_baseline(d, run->baseline);
		pr.profile = 0;
		if (r < 0) {
			rc = EXIT_IO;
			goto done;
		}
	}
	unsigned have = sp_have | (!pp ? 0 : pp->kind == PROFILE_STACKS ? NEEDS_PROFILE | NEEDS_STACKS
	                           : NEEDS_PROFILE);
	if (view_set_init(&views, run->views, have, err, sizeof(err)) < 0) {
		msg_error("%s", err);
		goto done;
	}
	have_views = 1;
	if (views_fit_profile(&views, have, ps.jp_path) < 0)
		goto done;
	for (size_t i = 0; i < views.n; i++)
		manifest_add(&names, &nnames, views.ctx[i].view->name);
	dir = out_dir ? strdup(out_dir) : default_out_dir(dump);
	if (!dir) {
		rc = EXIT_IO;
		goto done;
	}
	staging = 1;
	/* where the files end up, for messages: dir is staged when nested */
	const char *shown = nested_as ? nested_as : dir;
	if (nested_as) {
		rundir_open_nested(&rd, run->fs, dir, nested_as);
	} else {
		/* the dump and each profile (a dump of NULL: the profile alone) */
		const char *none = NULL;
		size_t k = run_inputs(&dump, &ps.jp_path, 1, inputs);
		k += run_inputs(&none, &ps.sp_path, 1, inputs + k);
		struct rundir_options ro = { run->fs, run->wait, run->quiet, inputs, k };
		int r = rundir_open(&rd, &ro, dir);
		if (r == RUNDIR_INTERRUPTED || (r == 0 && signals_caught())) {
			sig = signals_caught();
			goto done;
		}
		if (r < 0) {
			rc = EXIT_IO;
			goto done;
		}
	}
	if (!(out = outdir_open_fs(run->fs, rd.stage, shown))) {
		rc = EXIT_IO;
		goto done;
	}
	view_set_attach(&views, out, d, name, run->jobs, pp);
	if (api_sysprof(d))
		view_set_sysprof(&views, api_sysprof(d));
	view_set_source_roots(&views, run->source_roots, run->nsource_roots);
	for (size_t i = 0; i < views.n; i++)
		views.ctx[i].lines = da_line_counts(d);
	have_views = 0;             /* analyse finishes them */
	signals_watch(d);
	/* an empty input is the library's warning too (counted, fatal
	 * under --strict), as any input without a JIT event */
	rc = analyse(run, dump, name, d, &views, out);
	signals_watch(NULL);
	sig = signals_caught();
	/* A run that read its input to the end owns OUT now, and so does one
	 * that stopped at a warning --strict made fatal after a generation
	 * was complete; one that failed, wrote nothing or was interrupted
	 * leaves OUT as it was. */
	int written_ok = outdir_sync(out) == 0;
	unsigned long written = outdir_files_written(out);
	outdir_close(out);          /* discards anything not committed */
	out = NULL;
	staging = 0;
	int events = da_line_counts(d)->header > 0;
	/* A run of a run set without a JIT event is no run of the workload:
	 * most often a profile that a shell glob after --dump or --profile
	 * turned into a dump (the option takes only the glob's first file);
	 * counted as a run it would make every finding look unstable. */
	if (run->repeats && !events && !sig && rc == EXIT_OK) {
		msg_error("%s: no JIT event: a run set's runs are dumps (is it a profile? give "
		          "each file its own --dump or --profile: a shell glob after the option "
		          "gives it only the first file)", name);
		rc = EXIT_IO;
	}
	if (!sig && written_ok && (rc == EXIT_OK || (rc == EXIT_REJECTED && written > 0 && events))) {
		struct manifest m;
		struct rundir_result res;
		int committed;
		describe_run(&m, run, dump, &ps, d, names, nnames, rc);
		/* A signal now waits for the commit's end: OUT is then whole. */
		signals_hold();
		if (rundir_commit(&rd, &m, &res, &committed) < 0 && rc == EXIT_OK)
			rc = EXIT_IO;
		signals_release();
		if (committed)
			run_say_dropped(run, dir, &res);
		rundir_result_free(&res);
		manifest_free(&m);
		sig = signals_caught();
		state = committed ? "holds this run" : "holds the previous run";
	} else {
		rundir_discard(&rd);
	}
	if (sig)
		goto done;
	if (rc == EXIT_OK && baseline_after_run(run->baseline, run->write_baseline, d, run->quiet) < 0)
		rc = EXIT_IO;
	if (rc == EXIT_OK && !run->quiet && !run->quiet_stdout && !run->format_gcc)
		print_file(dir, "summary.txt");
	if (rc == EXIT_OK && !run->quiet_stdout && run_print_findings(run, d) < 0)
		rc = EXIT_IO;
	if (rc == EXIT_OK && !run->quiet)
		summary(name, d, written, view_set_left_out(&views), shown);
done:
	if (have_views)
		view_set_finish(&views);
	da_close(d);
	if (out)
		outdir_close(out);
	if (staging)
		rundir_discard(&rd);
	rundir_close(&rd);
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	if (sig) {
		const char *where = nested_as ? nested_as : dir ? dir : "the output directory";
		die_of(sig, name, where, state);
	}
	free(dir);
	return rc;
}
