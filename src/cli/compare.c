/* compare.c — compare two output directories; see compare.h.  Both must
 * have a manifest (the views each run rendered); only views both sides
 * rendered are compared, over the whole run (generation numbers are not
 * stable across runs); sites and bushes are matched by compare_align.c.
 * One pass makes the text report or, with --json, the same as a JSON
 * object (its parts in compare_views.c), and evaluates the --fail-on
 * rules. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "cli/compare.h"
#include "cli/compare_impl.h"
#include "output/message.h"
#include "output/rundir.h"
#include "output/termtext.h"
#include "util/alloc.h"
#include "util/diag.h"

/* ---- rules ------------------------------------------------------------ */

struct rules {
	int aborts_pct, aborts_abs, traces_pct;     /* -1: not set */
	int new_reasons, new_sites;
};

static int parse_rules(const char *s, struct rules *r)
{
	*r = (struct rules){ -1, -1, -1, 0, 0 };
	if (!s)
		return 0;
	char *copy = xrealloc(NULL, strlen(s) + 1);
	strcpy(copy, s);
	int ok = 1;
	for (char *tok = strtok(copy, ","); tok && ok; tok = strtok(NULL, ",")) {
		int v;
		char pct;
		if (strcmp(tok, "new-reasons") == 0)
			r->new_reasons = 1;
		else if (strcmp(tok, "new-sites") == 0)
			r->new_sites = 1;
		else if (sscanf(tok, "aborts+%d%c", &v, &pct) == 2 && pct == '%' && v >= 0)
			r->aborts_pct = v;
		else if (sscanf(tok, "aborts+%d%c", &v, &pct) == 1 && v >= 0)
			r->aborts_abs = v;
		else if (sscanf(tok, "traces-%d%c", &v, &pct) == 2 && pct == '%' && v >= 0)
			r->traces_pct = v;
		else {
			msg_error("unknown --fail-on rule '%s' (rules: aborts+N, aborts+N%%, "
			         "traces-N%%, new-reasons, new-sites)", tok);
			ok = 0;
		}
	}
	free(copy);
	return ok ? 0 : -1;
}

/* ---- one dump's directories ------------------------------------------- */

static int has_view(const struct side *s, const char *v)
{
	for (size_t i = 0; i < s->m.nviews; i++)
		if (strcmp(s->m.views[i], v) == 0)
			return 1;
	return 0;
}

/* Views rendered on one side only: listed, never read as zero. */
static void not_compared(struct rep *r, json_t *d, const struct side *a, const struct side *b)
{
	json_t *list = json_array();
	for (int pass = 0; pass < 2; pass++) {
		const struct side *s = pass ? b : a, *other = pass ? a : b;
		for (size_t i = 0; i < s->m.nviews; i++) {
			if (has_view(other, s->m.views[i]))
				continue;
			json_t *e = json_object();
			json_object_set_new(e, "view", cmp_str(s->m.views[i]));
			json_object_set_new(e, "only_in", json_string(pass ? "new" : "old"));
			json_array_append_new(list, e);
			cmp_say(r, "  not compared: %s (only in %s)\n", cmp_text(r, s->m.views[i]), s->label);
		}
	}
	json_object_set_new(d, "not_compared", list);
}

static void fail(struct rep *r, const char *fmt, ...) DA_PRINTF(2, 3);
static void fail(struct rep *r, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	cmp_say(r, "FAIL: %s\n", buf);
	json_array_append_new(r->fail, json_string(buf));
	r->tripped = 1;
}

/* A rule that needs a view one side lacks cannot be evaluated: a gate
 * that cannot tell must not pass. */
static int needs(struct rep *r, const char *rule, int ok, const char *view)
{
	if (!ok) {
		msg_error("cannot evaluate --fail-on %s: %s was not rendered on both sides", rule, view);
		r->cannot = 1;
	}
	return ok;
}

static void apply_rules(struct rep *r, const struct rules *ru, const struct side *a,
                        const struct side *b, size_t new_reasons, size_t new_sites)
{
	int aborts = (a->has_reasons || a->has_sites) && (b->has_reasons || b->has_sites);
	if (ru->aborts_pct >= 0 && needs(r, "aborts+N%", aborts, "abort-reasons")) {
		double up = a->aborts ? 100.0 * ((double)b->aborts - (double)a->aborts) / (double)a->aborts
		                      : (b->aborts ? 1e9 : 0);
		if (up > ru->aborts_pct)
			fail(r, "aborts grew by more than %d%%", ru->aborts_pct);
	}
	if (ru->aborts_abs >= 0 && needs(r, "aborts+N", aborts, "abort-reasons") &&
	    b->aborts > a->aborts + (uint64_t)ru->aborts_abs)
		fail(r, "aborts grew by more than %d", ru->aborts_abs);
	if (ru->traces_pct >= 0 && needs(r, "traces-N%", a->has_traces && b->has_traces, "traces")) {
		double down = a->traces ? 100.0 * ((double)a->traces - (double)b->traces) / (double)a->traces : 0;
		if (down > ru->traces_pct)
			fail(r, "compiled traces dropped by more than %d%%", ru->traces_pct);
	}
	if (ru->new_reasons && needs(r, "new-reasons", a->has_reasons && b->has_reasons, "abort-reasons") &&
	    new_reasons)
		fail(r, "%zu new abort reason%s", new_reasons, new_reasons == 1 ? "" : "s");
	if (ru->new_sites && needs(r, "new-sites", a->has_sites && b->has_sites, "abort-sites") && new_sites)
		fail(r, "%zu new abort site%s", new_sites, new_sites == 1 ? "" : "s");
}

static int any_rule(const struct rules *ru)
{
	return ru->aborts_pct >= 0 || ru->aborts_abs >= 0 || ru->traces_pct >= 0 || ru->new_reasons ||
	       ru->new_sites;
}

static json_t *jit_events(const struct side *s)
{
	return s->m.jit_events ? json_boolean(s->m.jit_events > 0) : json_null();
}

static json_t *compare_one(struct rep *r, const struct rules *ru, const char *name,
                           struct side *a, struct side *b)
{
	json_t *d = json_object();
	json_object_set_new(d, "name", cmp_str(name));
	if (name)
		cmp_say(r, "\ndump %s\n", cmp_text(r, name));
	side_finish(a, a->reasons_normal && b->reasons_normal, a->sites_normal && b->sites_normal,
	            a->sites_source && b->sites_source);
	side_finish(b, a->reasons_normal && b->reasons_normal, a->sites_normal && b->sites_normal,
	            a->sites_source && b->sites_source);
	json_object_set_new(d, "old_complete", json_boolean(a->m.complete));
	json_object_set_new(d, "new_complete", json_boolean(b->m.complete));
	json_object_set_new(d, "old_jit_events", jit_events(a));
	json_object_set_new(d, "new_jit_events", jit_events(b));
	for (int i = 0; i < 2; i++)
		if ((i ? b : a)->m.jit_events < 0)
			cmp_say(r, "  %s saw no JIT events (no trace, abort or -jv line in its input): "
			        "compared under --allow-empty\n", (i ? b : a)->label);
	for (int i = 0; i < 2; i++) {
		const struct side *s = i ? b : a;
		if (s->m.complete)
			continue;
		cmp_say(r, "  %s is an incomplete run (it stopped with exit status %d): "
		    "its numbers are partial\n", s->label, s->m.exit_status);
		if (any_rule(ru)) {
			msg_error("cannot evaluate --fail-on: %s is an incomplete run", s->dir);
			r->cannot = 1;
		}
	}
	not_compared(r, d, a, b);
	json_object_set_new(d, "generations", cmp_old_new(a->gens, b->gens));
	cmp_delta_line(r, "generations", a->gens, b->gens);
	int aborts = (a->has_reasons || a->has_sites) && (b->has_reasons || b->has_sites);
	if (a->has_traces && b->has_traces)
		cmp_delta_line(r, "traces compiled", a->traces, b->traces);
	json_object_set_new(d, "traces", a->has_traces && b->has_traces ? cmp_old_new(a->traces, b->traces)
	                                                              : json_null());
	if (aborts)
		cmp_delta_line(r, "aborts", a->aborts, b->aborts);
	json_object_set_new(d, "aborts", aborts ? cmp_old_new(a->aborts, b->aborts) : json_null());
	size_t new_reasons = 0, new_sites = 0;
	if (a->has_reasons && b->has_reasons)
		new_reasons = cmp_reasons(r, d, a, b);
	else
		json_object_set_new(d, "reasons", json_null());
	if (a->has_sites && b->has_sites) {
		new_sites = cmp_sites(r, d, a, b);
	} else {
		json_object_set_new(d, "sites", json_null());
		json_object_set_new(d, "sites_moved", json_null());
	}
	if (a->has_bushes && b->has_bushes) {
		cmp_bushes(r, d, a, b);
	} else {
		/* Since 0.3.0 a default run has no bush text: say so, rather
		 * than leave bushes out without a word. */
		if (!a->has_bushes && !b->has_bushes)
			cmp_say(r, "  not compared: bushes (neither run has bush-txt or jsonl; "
			        "run both with --views default,bush-txt)\n");
		json_object_set_new(d, "bushes", json_null());
	}
	if (a->has_profile && b->has_profile)
		cmp_profiles(r, d, a, b);
	else
		json_object_set_new(d, "profile", json_null());
	json_object_set_new(d, "new_reasons", a->has_reasons && b->has_reasons
	                    ? json_integer((json_int_t)new_reasons) : json_null());
	json_object_set_new(d, "new_sites", a->has_sites && b->has_sites
	                    ? json_integer((json_int_t)new_sites) : json_null());
	if (a->has_reasons && b->has_reasons)
		cmp_say(r, "  %-18s %8zu\n", "new abort reasons", new_reasons);
	if (a->has_sites && b->has_sites)
		cmp_say(r, "  %-18s %8zu\n", "new abort sites", new_sites);
	apply_rules(r, ru, a, b, new_reasons, new_sites);
	return d;
}

/* ---- the two directories ---------------------------------------------- */

static int open_side(struct side *s, const struct runfile_dir *parent, const char *dir,
                     const char *label)
{
	int rc = side_read(s, parent, dir, label);
	if (rc == 1)
		msg_error("%s: not a dumpanalyze output directory (no %s)", s->dir, MANIFEST_NAME);
	return rc;
}

/* A run that saw no JIT event (an empty input, program output only: a
 * program that did not start, or the dump went elsewhere) is no side of a
 * comparison: every count would be zero, and a gate would pass over it.
 * -1 after a message, unless --allow-empty. */
static int empty_side(const struct compare_opts *o, const struct side *a, const struct side *b)
{
	int ea = a->m.jit_events < 0, eb = b->m.jit_events < 0;
	if (o->allow_empty || (!ea && !eb))
		return 0;
	if (ea && eb)
		msg_error("neither OLD (%s) nor NEW (%s) saw a JIT event: no trace, abort or -jv line "
		          "in their input; nothing to compare (--allow-empty compares them anyway)",
		          a->dir, b->dir);
	else
		msg_error("%s (%s) saw no JIT events: no trace, abort or -jv line in its input, while "
		          "%s did; not compared (--allow-empty compares them anyway)",
		          ea ? "OLD" : "NEW", ea ? a->dir : b->dir, ea ? "NEW" : "OLD");
	return -1;
}

static int in_list(char *const *l, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(l[i], name) == 0)
			return 1;
	return 0;
}

/* Several dumps (manifest dirs): each subdirectory both have, by name. */
static int compare_many(struct rep *r, const struct compare_opts *o, const struct rules *ru,
                        struct side *a, struct side *b, json_t *dumps, json_t *skipped)
{
	for (int pass = 0; pass < 2; pass++) {
		const struct side *s = pass ? b : a, *other = pass ? a : b;
		for (size_t i = 0; i < s->m.ndirs; i++) {
			const char *name = s->m.dirs[i];
			if (in_list(other->m.dirs, other->m.ndirs, name))
				continue;
			json_t *e = json_object();
			json_object_set_new(e, "name", cmp_str(name));
			json_object_set_new(e, "only_in", json_string(pass ? "new" : "old"));
			json_array_append_new(skipped, e);
			cmp_say(r, "not compared: dump %s (only in %s)\n", cmp_text(r, name), s->label);
			if (any_rule(ru)) {
				char *shown = term_text(name);
				msg_error("cannot evaluate --fail-on for dump %s: only in %s", shown, s->dir);
				free(shown);
				r->cannot = 1;
			}
		}
	}
	for (size_t i = 0; i < a->m.ndirs; i++) {
		const char *name = a->m.dirs[i];
		if (!in_list(b->m.dirs, b->m.ndirs, name))
			continue;
		struct side sa, sb;
		memset(&sb, 0, sizeof(sb));
		int rc = open_side(&sa, &a->d, name, "OLD");
		if (rc == 0)
			rc = open_side(&sb, &b->d, name, "NEW");
		if (rc == 0)
			rc = empty_side(o, &sa, &sb);
		if (rc == 0)
			json_array_append_new(dumps, compare_one(r, ru, name, &sa, &sb));
		side_free(&sa);
		side_free(&sb);
		if (rc)
			return -1;
	}
	return 0;
}

int compare_dirs(const char *old_dir, const char *new_dir, const struct compare_opts *o, FILE *out)
{
	struct rules rules;
	if (parse_rules(o->fail_on, &rules) < 0)
		return -1;
	/* A run killed while it moved its files in (into a side, or into the
	 * directory of several dumps above it) left a mix until that commit
	 * is finished. */
	const char *dirs[2] = { old_dir, new_dir };
	for (int i = 0; i < 2; i++) {
		char up[4096];
		snprintf(up, sizeof(up), "%s/..", dirs[i]);
		int here = rundir_pending(dirs[i]);
		if (here || rundir_pending(up)) {
			msg_error("%s: the commit of a run into it was interrupted: `dumpanalyze --recover "
			          "%s` finishes it", dirs[i], here ? dirs[i] : up);
			return 2;
		}
	}
	struct side a, b;
	memset(&b, 0, sizeof(b));
	int rc = open_side(&a, NULL, old_dir, "OLD");
	if (rc == 0)
		rc = open_side(&b, NULL, new_dir, "NEW");
	if (rc == 0 && (a.m.ndirs > 0) != (b.m.ndirs > 0)) {
		const struct side *many = a.m.ndirs ? &a : &b;
		char *shown = term_text(many->m.dirs[0]);
		msg_error("%s holds several dumps and the other directory one: compare one of its "
		          "subdirectories (%s, ...) instead", many->dir, shown);
		free(shown);
		rc = -1;
	}
	if (rc == 0 && !a.m.ndirs)
		rc = empty_side(o, &a, &b);
	if (rc) {
		side_free(&a);
		side_free(&b);
		return 2;
	}
	/* The text is kept until every side was read: a file that stops the
	 * comparison half way leaves no report, only its message. */
	char *text = NULL;
	size_t text_len = 0;
	FILE *mem = o->json ? NULL : open_memstream(&text, &text_len);
	if (!o->json && !mem)
		out_of_memory();
	struct rep r = { mem, json_array(), 0, 0, NULL, 0, 0 };
	json_t *root = json_object(), *dumps = json_array(), *skipped = json_array();
	json_object_set_new(root, "old", cmp_str(old_dir));
	json_object_set_new(root, "new", cmp_str(new_dir));
	cmp_say(&r, "dumpanalyze compare: %s -> %s\n", cmp_text(&r, old_dir), cmp_text(&r, new_dir));
	if (a.m.ndirs)
		rc = compare_many(&r, o, &rules, &a, &b, dumps, skipped);
	else
		json_array_append_new(dumps, compare_one(&r, &rules, NULL, &a, &b));
	side_free(&a);
	side_free(&b);
	int status = rc < 0 || r.cannot ? 2 : r.tripped;
	json_object_set_new(root, "dumps", dumps);
	json_object_set_new(root, "dumps_not_compared", skipped);
	json_object_set_new(root, "fail", r.fail);
	json_object_set_new(root, "exit_status", json_integer(status));
	cmp_done(&r);
	free(r.scratch);
	if (mem && fclose(mem) != 0)
		out_of_memory();
	if (mem && rc == 0)
		fwrite(text, 1, text_len, out);
	free(text);
	if (o->json && rc == 0) {
		json_dumpf(root, out, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
		fputc('\n', out);
	}
	json_decref(root);
	return status;
}
