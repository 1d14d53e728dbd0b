/* compare_runset_render.c — a run-set comparison as text: on how many runs
 * each side rests, the interpreted share with its samples and test, the
 * new findings with their presence, cost and verdict, those moved, gone
 * and whose cost changed (`~` within the noise), the warnings, then the
 * rules crossed.  Every name through term_text. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "compare/compare_runset.h"
#include "output/termtext.h"

static size_t runs_of(const struct rs_set *s)
{
	size_t n = 0;
	for (size_t k = 0; k < s->ndumps; k++)
		n += s->dumps[k].status == 0;
	return n;
}

static size_t profiles_of(const struct rs_set *s)
{
	size_t n = 0;
	for (size_t k = 0; k < s->nprofiles; k++)
		n += s->profiles[k].ok && s->profiles[k].total > 0;
	return n;
}

void crs_warnings(const struct crs_diff *d, FILE *fp, const char *prefix)
{
	const struct rs_set *sides[2] = { d->a, d->b };
	const char *names[2] = { "BASE", "NEW" };
	int plain[2] = { d->a_plain, d->b_plain };
	for (int i = 0; i < 2; i++) {
		if (plain[i])
			fprintf(fp, "%s%s is one run, not a run set: the verdict rests on one run, which "
			        "LuaJIT may not repeat (record a run set: --repeats, --run-set)\n", prefix,
			        names[i]);
		for (size_t k = 0; k < sides[i]->nprofiles; k++) {
			const struct rs_profile *p = &sides[i]->profiles[k];
			if (p->ok && p->total < RUNSET_MIN_SAMPLES)
				fprintf(fp, "%sonly %" PRIu64 " samples: %s's profile %zu is too small to rank "
				        "by (%d at least): run the workload longer or sample more often "
				        "(-jp=Gvli1)\n", prefix, p->total, names[i], k + 1, RUNSET_MIN_SAMPLES);
		}
	}
}

static void place(FILE *out, const struct rs_finding *f)
{
	char *file = term_text(f->file), *reason = term_text(f->reason);
	fprintf(out, "%s:%" PRId32 "  %s, %s", file, f->line, reason, f->severity);
	if (f->at_line > 0 && f->at_file && *f->at_file) {
		char *at = term_text(f->at_file);
		fprintf(out, ", at %s:%" PRId32, at, f->at_line);
		free(at);
	}
	free(file);
	free(reason);
}

static void cost(FILE *out, const struct rs_finding *f, size_t profiles)
{
	if (profiles && f->share_med >= 0)
		fprintf(out, "%.1f%% [%.1f-%.1f] (%" PRIu64 " samples in %zu profiles)", f->share_med,
		        f->share_low, f->share_high, f->samples_total, profiles);
	else
		fputs("no profile", out);
}

static const char *verdict(enum crs_verdict v)
{
	switch (v) {
	case CRS_FAILS: return "FAIL";
	case CRS_NOT_NEW: return "not new: in too few of NEW's runs (unstable)";
	case CRS_KNOWN_PLACE: return "not new: BASE's findings fail at its line for its reason";
	case CRS_NEGLIGIBLE: return "negligible cost: does not fail";
	case CRS_HARMLESS: return "usually harmless: does not fail";
	case CRS_OUTWEIGHED: return "the interpreted share fell: does not fail (look at it next)";
	case CRS_GREW: return "costlier (not a rule asked)";
	default: return "";
	}
}

static void share(FILE *out, const struct crs_share *s)
{
	if (!s->n)
		fputs("no profile with VM states", out);
	else
		fprintf(out, "%.1f%% [%.1f-%.1f] (%" PRIu64 " of %" PRIu64 " samples, %zu profiles)",
		        s->med, s->low, s->high, s->samples, s->total, s->n);
}

static void items(const struct crs_diff *d, FILE *out, enum crs_what what, const char *title)
{
	size_t n = 0, ra = runs_of(d->a), rb = runs_of(d->b);
	size_t pa = profiles_of(d->a), pb = profiles_of(d->b);
	for (size_t i = 0; i < d->nitems; i++) {
		const struct crs_item *it = &d->items[i];
		if (it->what != what)
			continue;
		if (what == CRS_BOTH && it->p < 0)
			continue;
		if (!n++)
			fprintf(out, "\n%s\n", title);
		const struct rs_finding *f = it->b ? it->b : it->a;
		fputs("  ", out);
		place(out, f);
		if (what == CRS_NEW) {
			fprintf(out, ": runs %u/%zu, cost ", f->seen, rb);
			cost(out, f, pb);
			fprintf(out, "  %s", verdict(it->verdict));
			/* what decided negligible, when more than this finding */
			if (it->place_findings > 1 && it->place_share >= 0 &&
			    (it->verdict == CRS_FAILS || it->verdict == CRS_NEGLIGIBLE))
				fprintf(out, " (%u findings fail at %s:%" PRId32 ", %.1f%% together)",
				        it->place_findings, f->at_file, f->at_line, it->place_share);
			fputc('\n', out);
		} else if (what == CRS_GONE) {
			fprintf(out, ": was in runs %u/%zu, cost ", f->seen, ra);
			cost(out, f, pa);
			fputc('\n', out);
		} else {
			if (what == CRS_MOVED && it->a->line != it->b->line)
				fprintf(out, " (was at line %" PRId32 ")", it->a->line);
			else if (what == CRS_MOVED)
				fprintf(out, " (BASE: failing at line %" PRId32 ")", it->a->at_line);
			fprintf(out, ": runs %u/%zu -> %u/%zu", it->a->seen, ra, it->b->seen, rb);
			if (it->p >= 0) {
				fprintf(out, ", cost %.1f%% -> %.1f%%  ", it->a->share_med, it->b->share_med);
				if (it->verdict == CRS_FAILS || it->p < RUNSET_ALPHA)
					fprintf(out, "%+.1f points (p=%.3f n=%zu+%zu)%s%s", it->delta, it->p, pa, pb,
					        it->verdict == CRS_FAILS || it->verdict == CRS_OUTWEIGHED ||
					        it->verdict == CRS_GREW ? "  " : "",
					        it->verdict == CRS_FAILS || it->verdict == CRS_OUTWEIGHED ||
					        it->verdict == CRS_GREW ? verdict(it->verdict) : "");
				else
					fprintf(out, "~ (p=%.3f n=%zu+%zu)", it->p, pa, pb);
			}
			fputc('\n', out);
		}
	}
}

void crs_render_text(const struct crs_diff *d, const char *old_dir, const char *new_dir,
                     FILE *out)
{
	char *o = term_text(old_dir), *n = term_text(new_dir);
	fprintf(out, "dumpanalyze compare of run sets: %s -> %s\n", o, n);
	fprintf(out, "  BASE %zu run%s, %zu profile%s; NEW %zu run%s, %zu profile%s\n",
	        runs_of(d->a), runs_of(d->a) == 1 ? "" : "s", profiles_of(d->a),
	        profiles_of(d->a) == 1 ? "" : "s", runs_of(d->b), runs_of(d->b) == 1 ? "" : "s",
	        profiles_of(d->b), profiles_of(d->b) == 1 ? "" : "s");
	free(o);
	free(n);
	if (d->ia.n || d->ib.n) {
		fputs("\ninterpreted share\n  ", out);
		share(out, &d->ia);
		fputs(" -> ", out);
		share(out, &d->ib);
		if (d->ia.n && d->ib.n) {
			if (d->interp_p < RUNSET_ALPHA)
				fprintf(out, "  %+.1f points (p=%.3f n=%zu+%zu)%s\n", d->interp_delta,
				        d->interp_p, d->ia.n, d->ib.n, d->interp_fails ? "  FAIL" : "");
			else
				fprintf(out, "  ~ (p=%.3f n=%zu+%zu)\n", d->interp_p, d->ia.n, d->ib.n);
		} else {
			fputc('\n', out);
		}
		if (d->interp_fails && d->grew_most) {
			const struct crs_item *g = d->grew_most;
			fputs("  grew most: ", out);
			place(out, g->b);
			fprintf(out, " (%+.1f points)\n", g->delta);
		}
	}
	items(d, out, CRS_NEW, "new findings (in none of BASE's runs)");
	items(d, out, CRS_MOVED, "moved (the same failing line's text elsewhere, or the same site failing at another line)");
	items(d, out, CRS_GONE, "gone (in none of NEW's runs)");
	items(d, out, CRS_BOTH, "in both: cost per profile run (~: within the noise)");
	size_t shown = 0;
	for (size_t i = 0; i < d->nreasons; i++) {
		const struct crs_reason *r = &d->reasons[i];
		if (!shown++)
			fputs("\nnew reasons (in no finding of BASE)\n", out);
		char *t = term_text(r->reason);
		fprintf(out, "  %s: runs %u/%zu, cost %.1f%%  %s\n", t, r->runs, runs_of(d->b), r->share,
		        verdict(r->verdict));
		free(t);
	}
	char buf[4096];
	FILE *w = fmemopen(buf, sizeof(buf), "w");
	if (w) {
		crs_warnings(d, w, "  warning: ");
		long k = ftell(w);
		fclose(w);
		if (k > 0) {
			fputs("\nwarnings\n", out);
			fwrite(buf, 1, (size_t)k < sizeof(buf) ? (size_t)k : sizeof(buf) - 1, out);
		}
	}
	if (d->rules) {
		static const char *const names[] = { "new-sites", "new-reasons", "costlier", "interpreted" };
		fputc('\n', out);
		for (int i = 0; i < 4; i++)
			if (d->rules & (1 << i))
				fprintf(out, "%s: %s\n", (d->fails & (1 << i)) ? "FAIL" : "pass", names[i]);
	}
}
