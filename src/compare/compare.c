/* compare.c — compare two output directories; see compare.h.  Both must
 * have a manifest (the views each run rendered); only views both sides
 * rendered are compared, over the whole run (generation numbers are not
 * stable across runs); sites and bushes are matched by compare_align.c.
 * Each dump's sides are diffed first (compare_diff.c: reasons, sites,
 * findings), then one pass renders the text report or, with --json, the
 * same as a JSON object (its parts in compare_views.c and
 * compare_findings_render.c), and evaluates the --fail-on rules. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "compare/compare.h"
#include "compare/compare_runset.h"
#include "compare/compare_impl.h"
#include "compare/baseline_file.h"
#include <inttypes.h>
#include "outdir/rundir.h"
#include "output/message.h"
#include "output/termtext.h"
#include "util/alloc.h"
#include "util/diag.h"
#include "views/where.h"

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

static json_t *jit_events(const struct side *s)
{
	return s->m.jit_events ? json_boolean(s->m.jit_events > 0) : json_null();
}

/* The baseline's reasons on a side's findings; on NEW its entries are
 * marked matched (what is left is stale). */
static void accept(struct side *s, struct baseline *bl, int mark)
{
	for (size_t i = 0; bl && i < s->findings.n; i++) {
		struct cfinding *f = &s->findings.v[i];
		const struct baseline_entry *e = mark ? baseline_match(bl, f->identity)
		                                      : baseline_lookup(bl, f->identity);
		f->accepted = e ? e->pub.accepted : NULL;
	}
}

static json_t *compare_one(struct rep *r, const struct rules *ru, const char *name,
                           struct side *a, struct side *b, struct baseline *bl)
{
	json_t *d = json_object();
	json_object_set_new(d, "name", cmp_str(name));
	if (name)
		cmp_say(r, "\ndump %s\n", cmp_text(r, name));
	int rn = a->reasons_normal && b->reasons_normal, sn = a->sites_normal && b->sites_normal;
	int sf = a->sites_fp && b->sites_fp;
	side_finish(a, rn, sn, sf);
	side_finish(b, rn, sn, sf);
	accept(a, bl, 0);
	accept(b, bl, 1);
	/* everything diffed first; what follows says it */
	struct dump_diff dd;
	dump_diff(&dd, a, b);
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
		if (rules_any(ru)) {
			msg_error("cannot evaluate --fail-on: %s is an incomplete run", s->dir);
			r->cannot = 1;
		}
	}
	not_compared(r, d, a, b);
	/* where the time went, before the counts */
	int findings = dd.findings;
	if (dd.profiles)
		profile_states_render(r, d, &dd.profile);
	else
		json_object_set_new(d, "profile", json_null());
	if (dd.times)
		time_states_render(r, d, &dd.time);
	else
		json_object_set_new(d, "time", json_null());
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
	if (dd.reasons)
		reasons_render(r, d, &dd.reason_list);
	else
		json_object_set_new(d, "reasons", json_null());
	if (dd.sites) {
		sites_render(r, d, &dd.site_list);
	} else {
		json_object_set_new(d, "sites", json_null());
		json_object_set_new(d, "sites_moved", json_null());
	}
	if (findings) {
		findings_render(r, d, &dd.finding_list);
	} else {
		json_object_set_new(d, "findings", json_null());
		json_object_set_new(d, "findings_moved", json_null());
		json_object_set_new(d, "findings_baselined", json_null());
	}
	if (dd.bushes) {
		bushes_render(r, d, &dd.bush_list);
	} else {
		/* Since 0.3.0 a default run has no bush text: say so, rather
		 * than leave bushes out without a word. */
		if (!a->has_bushes && !b->has_bushes)
			cmp_say(r, "  not compared: bushes (neither run has bush-txt or jsonl; "
			        "run both with --views default,bush-txt)\n");
		json_object_set_new(d, "bushes", json_null());
	}
	if (dd.profiles)
		profile_lines_render(r, d, &dd.profile);
	if (dd.times)
		time_bushes_render(r, d, &dd.time);
	for (int k = 0; k < 2; k++) {
		const struct fresh *f = k ? &dd.fd.sites : &dd.fd.reasons;
		int have = k ? dd.findings : dd.reasons;
		json_t *o = json_object();
		json_object_set_new(o, "counted", json_integer((json_int_t)f->counted));
		json_object_set_new(o, "harmless", json_integer((json_int_t)f->harmless));
		json_object_set_new(o, "baselined", json_integer((json_int_t)f->baselined));
		json_object_set_new(d, k ? "new_sites" : "new_reasons", have ? o : json_null());
		if (!have) {
			json_decref(o);
			continue;
		}
		cmp_say(r, "  %-18s %8zu", k ? "new abort sites" : "new abort reasons", f->counted);
		if (f->harmless || f->baselined) {
			cmp_say(r, "  (costly or worth a look; not counted: %zu usually harmless", f->harmless);
			if (f->baselined)
				cmp_say(r, ", %zu baselined", f->baselined);
			cmp_say(r, ")");
		}
		cmp_say(r, "\n");
	}
	rules_apply(r, ru, a, b, &dd.fd, bl != NULL);
	if (r->ann && findings)
		cmp_annotate(r, b, &dd.fd);
	dump_diff_free(&dd);
	return d;
}

/* ---- the two directories ---------------------------------------------- */

static int open_side(struct side *s, const struct runfile_dir *parent, const char *dir,
                     const char *label)
{
	int rc = side_read(s, parent, dir, label);
	if (rc == 1)
		msg_error("%s: not a dumpanalyze output directory (no %s)", s->dir, MANIFEST_NAME);
	if (rc == 0 && s->has_time)
		rc = side_read_time(s);
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

/* NEW's findings, for --write-baseline: copies, as sides are freed. */
struct kept {
	struct baseline_item *v;
	size_t n, cap;
	int lacking;                /* a NEW side without findings.csv */
};

static char *copy(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}

static void keep(struct kept *k, const struct side *b)
{
	if (!k)
		return;
	k->lacking |= !b->has_findings;
	for (size_t i = 0; i < b->findings.n; i++) {
		const struct cfinding *f = &b->findings.v[i];
		ALLOC_GROW(k->v, k->n + 1, k->cap);
		k->v[k->n++] = (struct baseline_item){ copy(f->identity), copy(f->kind),
			copy(f->severity), copy(f->reason), *f->file ? copy(f->file) : NULL,
			f->line ? (int32_t)f->line : DA_NO_LINE, f->end_line ? (int32_t)f->end_line : DA_NO_LINE };
	}
}

static void kept_free(struct kept *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free((char *)k->v[i].identity);
		free((char *)k->v[i].kind);
		free((char *)k->v[i].severity);
		free((char *)k->v[i].reason);
		free((char *)k->v[i].file);
	}
	free(k->v);
}

static int by_file_line(const void *x, const void *y)
{
	const struct baseline_entry *a = *(const struct baseline_entry *const *)x;
	const struct baseline_entry *b = *(const struct baseline_entry *const *)y;
	return (a->pub.line > b->pub.line) - (a->pub.line < b->pub.line);
}

/* The entries no finding of NEW matched, in the file's order: said, and
 * as the JSON object returned. */
static json_t *stale(struct rep *r, const struct baseline *bl)
{
	json_t *o = json_object(), *list = json_array();
	json_object_set_new(o, "path", cmp_str(bl->path));
	/* the entries are sorted by identity: the unmatched ones taken in
	 * the file's order by one sort (n log n, whatever the share stale) */
	const struct baseline_entry **left = xrealloc(NULL, (bl->n ? bl->n : 1) * sizeof(*left));
	size_t nleft = 0;
	for (size_t i = 0; i < bl->n; i++)
		if (!bl->v[i].matched)
			left[nleft++] = &bl->v[i];
	qsort(left, nleft, sizeof(*left), by_file_line);
	size_t n = 0;
	for (size_t i = 0; i < nleft; i++) {
		const struct baseline_entry *e = left[i];
		const struct da_baseline_entry *p = &e->pub;
		if (!n++)
			cmp_say(r, "baseline %s: entries no finding of NEW has (stale):\n",
			        cmp_text(r, bl->path));
		cmp_say(r, "  line %" PRIu64 ": %s %s: %s  %s\n", p->line, cmp_text(r, p->place ? p->place : "?"),
		        cmp_text(r, p->kind ? p->kind : "?"), cmp_text(r, p->reason ? p->reason : "?"),
		        cmp_text(r, p->identity));
		json_t *x = json_object();
		json_object_set_new(x, "line", json_integer((json_int_t)p->line));
		json_object_set_new(x, "identity", cmp_str(p->identity));
		json_object_set_new(x, "kind", cmp_str(p->kind));
		json_object_set_new(x, "reason", cmp_str(p->reason));
		json_object_set_new(x, "place", cmp_str(p->place));
		json_array_append_new(list, x);
	}
	free(left);
	size_t matched = bl->n - n;
	cmp_say(r, "baseline %s: %zu entr%s matched, %zu stale\n", cmp_text(r, bl->path), matched,
	        matched == 1 ? "y" : "ies", n);
	json_object_set_new(o, "matched", json_integer((json_int_t)matched));
	json_object_set_new(o, "stale", list);
	return o;
}

/* Several dumps (manifest dirs): each subdirectory both have, by name. */
static int compare_many(struct rep *r, const struct compare_opts *o, const struct rules *ru,
                        struct side *a, struct side *b, json_t *dumps, json_t *skipped,
                        struct baseline *bl, struct kept *k)
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
			if (rules_any(ru)) {
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
		if (rc == 0) {
			json_array_append_new(dumps, compare_one(r, ru, name, &sa, &sb, bl));
			keep(k, &sb);
		}
		side_free(&sa);
		side_free(&sb);
		if (rc)
			return -1;
	}
	return 0;
}

int compare_dirs(const char *old_dir, const char *new_dir, const struct compare_opts *o, FILE *out)
{
	/* a run set on either side: the gate that judges by the runs */
	if (crs_is_runset(old_dir) || crs_is_runset(new_dir))
		return compare_runsets(old_dir, new_dir, o->fail_on,
		                       o->json ? "--json" : o->annotate ? "--annotate"
		                       : o->baseline ? "--baseline"
		                       : o->write_baseline ? "--write-baseline" : NULL, out);
	struct rules rules;
	if (rules_parse(o->fail_on, &rules) < 0)
		return -1;
	if (o->fail_on && strstr(o->fail_on, "recommended"))
		msg_error("warning: the verdict rests on one run of each side, which LuaJIT may not "
		          "repeat: record run sets (--repeats, --run-set) for a gate that knows noise");
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
	struct baseline bl;
	if (o->baseline && baseline_load(&bl, o->baseline) < 0)
		return 2;
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
		if (o->baseline)
			baseline_free(&bl);
		return 2;
	}
	/* The text is kept until every side was read: a file that stops the
	 * comparison half way leaves no report, only its message. */
	char *text = NULL;
	size_t text_len = 0;
	FILE *mem = o->json ? NULL : open_memstream(&text, &text_len);
	if (!o->json && !mem)
		out_of_memory();
	struct rep r = { mem, json_array(), 0, 0, NULL, 0, 0, NULL, NULL };
	/* --annotate github: after the report, in the same order */
	char *ann = NULL;
	size_t ann_len = 0;
	struct where_map where;
	if (o->annotate) {
		if (!(r.ann = open_memstream(&ann, &ann_len)))
			out_of_memory();
		where_init(&where, NULL, o->source_roots, o->nsource_roots);
		r.where = &where;
	}
	json_t *root = json_object(), *dumps = json_array(), *skipped = json_array();
	json_object_set_new(root, "old", cmp_str(old_dir));
	json_object_set_new(root, "new", cmp_str(new_dir));
	cmp_say(&r, "dumpanalyze compare: %s -> %s\n", cmp_text(&r, old_dir), cmp_text(&r, new_dir));
	struct kept k = { 0 };
	struct kept *kp = o->write_baseline ? &k : NULL;
	struct baseline *blp = o->baseline ? &bl : NULL;
	if (a.m.ndirs) {
		rc = compare_many(&r, o, &rules, &a, &b, dumps, skipped, blp, kp);
	} else {
		json_array_append_new(dumps, compare_one(&r, &rules, NULL, &a, &b, blp));
		keep(kp, &b);
	}
	side_free(&a);
	side_free(&b);
	json_t *said = rc == 0 && blp ? stale(&r, blp) : NULL;
	if (rc == 0 && kp && k.lacking) {
		msg_error("cannot write the baseline %s: NEW has no findings.csv (the findings view)",
		          o->write_baseline);
		rc = -1;
	} else if (rc == 0 && kp && baseline_write_file(o->write_baseline, k.v, k.n, out, "NEW") < 0) {
		rc = -1;
	}
	if (kp)
		kept_free(&k);
	if (blp)
		baseline_free(&bl);
	int status = rc < 0 || r.cannot ? 2 : r.tripped;
	json_object_set_new(root, "dumps", dumps);
	json_object_set_new(root, "dumps_not_compared", skipped);
	json_object_set_new(root, "fail", r.fail);
	json_object_set_new(root, "exit_status", json_integer(status));
	if (said)
		json_object_set_new(root, "baseline", said);
	cmp_done(&r);
	free(r.scratch);
	if (mem && fclose(mem) != 0)
		out_of_memory();
	/* --write-baseline prints only what it wrote (said above) */
	if (mem && rc == 0 && !kp)
		fwrite(text, 1, text_len, out);
	free(text);
	if (r.ann) {
		if (fclose(r.ann) != 0)
			out_of_memory();
		if (rc == 0)
			fwrite(ann, 1, ann_len, out);
		free(ann);
		where_free(&where);
	}
	if (o->json && rc == 0) {
		json_dumpf(root, out, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
		fputc('\n', out);
	}
	json_decref(root);
	return status;
}
