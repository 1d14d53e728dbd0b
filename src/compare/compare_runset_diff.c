/* compare_runset_diff.c — two run sets diffed into one result: findings
 * matched by identity, then the unmatched paired as moved (same reason,
 * rule and file), each new one judged by its presence in NEW's runs and
 * its measured cost, costs and the interpreted share tested across the
 * profile runs (Mann-Whitney), and which --fail-on rules that crosses. */
#include <stdlib.h>
#include <string.h>
#include "compare/compare_runset.h"
#include "output/message.h"
#include "util/alloc.h"

int crs_rules_parse(const char *s, int *rules)
{
	*rules = 0;
	if (!s)
		return 0;
	char *copy = rs_strdup(s);
	int ok = 1;
	for (char *tok = strtok(copy, ","); tok && ok; tok = strtok(NULL, ",")) {
		if (strcmp(tok, "recommended") == 0)
			*rules |= CRS_RECOMMENDED;
		else if (strcmp(tok, "new-sites") == 0)
			*rules |= CRS_NEW_SITES;
		else if (strcmp(tok, "new-reasons") == 0)
			*rules |= CRS_NEW_REASONS;
		else if (strcmp(tok, "costlier") == 0)
			*rules |= CRS_COSTLIER;
		else if (strcmp(tok, "interpreted") == 0)
			*rules |= CRS_INTERPRETED;
		else {
			msg_error("--fail-on rule '%s' is not one a run set is judged by (recommended, "
			          "new-sites, new-reasons, costlier, interpreted)", tok);
			ok = 0;
		}
	}
	free(copy);
	return ok ? 0 : -1;
}

static size_t usable_profiles(const struct rs_set *s)
{
	size_t n = 0;
	for (size_t k = 0; k < s->nprofiles; k++)
		n += s->profiles[k].ok && s->profiles[k].total > 0;
	return n;
}

static size_t usable_runs(const struct rs_set *s)
{
	size_t n = 0;
	for (size_t k = 0; k < s->ndumps; k++)
		n += s->dumps[k].status == 0;
	return n;
}

/* The finding's share of each usable profile, into v: how many. */
static size_t shares_of(const struct rs_set *s, const struct rs_finding *f, double *v)
{
	size_t n = 0;
	for (size_t k = 0; k < s->nprofiles; k++)
		if (s->profiles[k].ok && s->profiles[k].total > 0)
			v[n++] = f ? 100.0 * (double)f->samples[k] / (double)s->profiles[k].total : 0;
	return n;
}

static void add(struct crs_diff *d, enum crs_what w, enum crs_verdict v,
                const struct rs_finding *a, const struct rs_finding *b)
{
	d->items = xrealloc(d->items, (d->nitems + 1) * sizeof(*d->items));
	d->items[d->nitems++] = (struct crs_item){ w, v, a, b, -1, 0, 0, -1 };
}

/* The identity without its places: "v1|GROUP|FILE|ERROR|S:TEXT#K|A:TEXT#K"
 * up to the A: part's text, its index among equal lines dropped; NULL
 * for an identity made without the source (o:N), which cannot move. */
static size_t moved_key(const char *id, const char **a_text)
{
	const char *a = strstr(id, "|A:");
	if (!a || strstr(id, "|o:"))
		return 0;
	const char *hash = strrchr(a, '#');
	*a_text = a;
	return hash ? (size_t)(hash - a) : strlen(a);
}

/* Moved: the same group, file and error, and the same failing line's
 * text (the closure hoisted out of a function: its start changed, its
 * line did not), when the source was read on both sides. */
static int same_place(const struct rs_finding *x, const struct rs_finding *y)
{
	const char *ax, *ay;
	size_t nx = moved_key(x->identity, &ax), ny = moved_key(y->identity, &ay);
	const char *sx = strstr(x->identity, "|S:"), *sy = strstr(y->identity, "|S:");
	if (!nx || nx != ny || memcmp(ax, ay, nx) != 0 || !sx || !sy || sx - x->identity != sy - y->identity)
		return 0;
	/* v1|GROUP|FILE|ERROR alike */
	return memcmp(x->identity, y->identity, (size_t)(sx - x->identity)) == 0;
}

/* The same site: the same identity up to its failing line's part
 * ("|A:..."), which the same loop or function shows at one line in one
 * run and another in the next (an abort's place moves with LuaJIT's
 * decisions); without the source (o:N), the whole identity. */
static int same_site(const struct rs_finding *x, const struct rs_finding *y)
{
	const char *ax = strstr(x->identity, "|A:"), *ay = strstr(y->identity, "|A:");
	size_t nx = ax ? (size_t)(ax - x->identity) : strlen(x->identity);
	size_t ny = ay ? (size_t)(ay - y->identity) : strlen(y->identity);
	return nx == ny && memcmp(x->identity, y->identity, nx) == 0;
}

/* Whether g fails where f does: the same reason at the same line. */
static int same_failure(const struct rs_finding *f, const struct rs_finding *g)
{
	if (f == g)
		return 1;
	return f->at_file && g->at_file && f->at_line > 0 && f->at_line == g->at_line &&
	       strcmp(f->at_file, g->at_file) == 0 && f->reason && g->reason &&
	       strcmp(f->reason, g->reason) == 0;
}

/* NEW's findings that fail where f does (the same reason at the same
 * line: one cause, however many loops its attempts start from), how many,
 * and their cost together: the median and the highest share over NEW's
 * profiles (-1 without). */
static unsigned place_cost(const struct rs_set *b, const struct rs_finding *f, double *med,
                           double *high)
{
	unsigned count = 0;
	for (size_t i = 0; i < b->nf; i++)
		count += same_failure(f, &b->f[i]);
	*med = *high = -1;
	if (f->share_med < 0)
		return count;
	double *v = xrealloc(NULL, (b->nprofiles + 1) * sizeof(*v)), low;
	size_t n = 0;
	for (size_t k = 0; k < b->nprofiles; k++) {
		if (!b->profiles[k].ok || !b->profiles[k].total)
			continue;
		uint64_t charged = 0;
		for (size_t i = 0; i < b->nf; i++)
			if (same_failure(f, &b->f[i]))
				charged += b->f[i].samples[k];
		v[n++] = 100.0 * (double)charged / (double)b->profiles[k].total;
	}
	rs_median(v, n, med, &low, high);
	free(v);
	return count;
}

/* Negligible: what fails where it does costs under RUNSET_NEGLIGIBLE_SHARE
 * in the median and under twice that in every profile. */
static int negligible(double med, double high)
{
	return med >= 0 && med < RUNSET_NEGLIGIBLE_SHARE && high < 2 * RUNSET_NEGLIGIBLE_SHARE;
}

static void cost_test(struct crs_diff *d, struct crs_item *it, int profiled)
{
	if (!profiled)
		return;
	double va[64], vb[64];
	size_t na = shares_of(d->a, it->a, va), nb = shares_of(d->b, it->b, vb);
	if (na > 64 || nb > 64)
		return;
	it->p = rs_mann_whitney(va, na, vb, nb);
	double ma, mb, lo, hi;
	rs_median(va, na, &ma, &lo, &hi);
	rs_median(vb, nb, &mb, &lo, &hi);
	it->delta = mb - ma;
	if (it->b && it->b->failed && it->p < RUNSET_ALPHA && it->delta > CRS_COST_POINTS) {
		it->verdict = d->improved ? CRS_OUTWEIGHED : (d->rules & CRS_COSTLIER) ? CRS_FAILS
		              : CRS_GREW;
		if (!d->improved)
			d->fails |= d->rules & CRS_COSTLIER;
	}
}

static void interpreted(const struct rs_set *s, struct crs_share *sh, double *v)
{
	memset(sh, 0, sizeof(*sh));
	for (size_t k = 0; k < s->nprofiles; k++) {
		const struct rs_profile *p = &s->profiles[k];
		if (!p->ok || !p->states || !p->total)
			continue;
		v[sh->n++] = 100.0 * (double)p->interpreted / (double)p->total;
		sh->samples += p->interpreted;
		sh->total += p->total;
	}
	rs_median(v, sh->n, &sh->med, &sh->low, &sh->high);
}

static void reasons(struct crs_diff *d, int profiled)
{
	const struct rs_set *a = d->a, *b = d->b;
	size_t runs = usable_runs(b);
	for (size_t i = 0; i < b->nf; i++) {
		const struct rs_finding *f = &b->f[i];
		if (!f->failed || !*f->reason)
			continue;
		struct crs_reason *r = NULL;
		for (size_t j = 0; j < d->nreasons && !r; j++)
			if (strcmp(d->reasons[j].reason, f->reason) == 0)
				r = &d->reasons[j];
		if (!r) {
			int known = 0;
			for (size_t j = 0; j < a->nf && !known; j++)
				known = strcmp(a->f[j].reason, f->reason) == 0;
			if (known)
				continue;
			d->reasons = xrealloc(d->reasons, (d->nreasons + 1) * sizeof(*d->reasons));
			r = &d->reasons[d->nreasons++];
			*r = (struct crs_reason){ f->reason, CRS_NOT_NEW, 0, 0 };
		}
		if (f->share_med > 0)
			r->share += f->share_med;
		if (f->seen > r->runs)
			r->runs = f->seen;
	}
	for (size_t j = 0; j < d->nreasons; j++) {
		struct crs_reason *r = &d->reasons[j];
		if (!rs_stable(r->runs, runs))
			r->verdict = CRS_NOT_NEW;
		else if (profiled && r->share < RUNSET_NEGLIGIBLE_SHARE)
			r->verdict = CRS_NEGLIGIBLE;
		else if (d->improved)
			r->verdict = CRS_OUTWEIGHED;
		else {
			r->verdict = CRS_FAILS;
			d->fails |= d->rules & CRS_NEW_REASONS;
		}
	}
}

void crs_diff(struct crs_diff *d, const struct rs_set *a, const struct rs_set *b, int rules)
{
	memset(d, 0, sizeof(*d));
	d->a = a;
	d->b = b;
	d->rules = rules;
	int profiled = usable_profiles(a) > 0 && usable_profiles(b) > 0;
	size_t runs = usable_runs(b);
	double va[1024], vb[1024];
	if (a->nprofiles <= 1024 && b->nprofiles <= 1024) {
		interpreted(a, &d->ia, va);
		interpreted(b, &d->ib, vb);
		d->interp_p = rs_mann_whitney(va, d->ia.n, vb, d->ib.n);
		d->interp_delta = d->ib.med - d->ia.med;
		if (d->ia.n && d->ib.n && d->interp_p < RUNSET_ALPHA &&
		    d->interp_delta > CRS_INTERPRETED_POINTS) {
			d->interp_fails = 1;
			d->fails |= rules & CRS_INTERPRETED;
		}
		/* the change cut the time the JIT failed on, beyond the noise:
		 * what is new in it is where the rest of that time now shows */
		d->improved = d->ia.n && d->ib.n && d->interp_p < RUNSET_ALPHA &&
		              d->interp_delta < -CRS_INTERPRETED_POINTS;
	}
	unsigned char *paired = xrealloc(NULL, a->nf + 1);
	memset(paired, 0, a->nf + 1);
	/* NEW's findings, in NEW's rank order */
	for (size_t i = 0; i < b->nf; i++) {
		const struct rs_finding *f = &b->f[i];
		const struct rs_finding *old = rs_find((struct rs_set *)a, f->identity, 0);
		if (old) {
			paired[old - a->f] = 1;
			add(d, CRS_BOTH, CRS_SAME, old, f);
			cost_test(d, &d->items[d->nitems - 1], profiled);
			continue;
		}
		/* moved: BASE's unmatched finding of the same reason, rule and file */
		const struct rs_finding *moved = NULL;
		for (size_t j = 0; j < a->nf && !moved; j++)
			if (!paired[j] && !rs_find((struct rs_set *)b, a->f[j].identity, 0) &&
			    rs_stable(a->f[j].seen, usable_runs(a)) && same_place(&a->f[j], f)) {
				moved = &a->f[j];
				paired[j] = 1;
			}
		/* the same site failing at another line: not new */
		for (size_t j = 0; j < a->nf && !moved; j++)
			if (same_site(&a->f[j], f))
				moved = &a->f[j];
		if (moved) {
			add(d, CRS_MOVED, CRS_INFO, moved, f);
			cost_test(d, &d->items[d->nitems - 1], profiled);
			continue;
		}
		double med, high;
		unsigned together = place_cost(b, f, &med, &high);
		/* the same failure seen from another start: a loop of BASE's
		 * that now starts elsewhere, an exit's attempts now a start's */
		int known = 0;
		for (size_t j = 0; j < a->nf && !known; j++)
			known = a->f[j].failed && same_failure(f, &a->f[j]);
		enum crs_verdict v = !f->failed ? CRS_HARMLESS : !rs_stable(f->seen, runs) ? CRS_NOT_NEW
		                     : known ? CRS_KNOWN_PLACE
		                     : profiled && negligible(med, high) ? CRS_NEGLIGIBLE
		                     : d->improved ? CRS_OUTWEIGHED : CRS_FAILS;
		if (v == CRS_FAILS)
			d->fails |= rules & CRS_NEW_SITES;
		add(d, CRS_NEW, v, NULL, f);
		d->items[d->nitems - 1].place_findings = together;
		d->items[d->nitems - 1].place_share = profiled ? med : -1;
	}
	for (size_t j = 0; j < a->nf; j++)
		if (!paired[j])
			add(d, CRS_GONE, CRS_INFO, &a->f[j], NULL);
	/* once items is whole: add moves it (gone ones have no test) */
	for (size_t i = 0; i < d->nitems; i++) {
		const struct crs_item *it = &d->items[i];
		if (it->p >= 0 && it->p < RUNSET_ALPHA && it->delta > 0 &&
		    (!d->grew_most || it->delta > d->grew_most->delta))
			d->grew_most = it;
	}
	free(paired);
	reasons(d, profiled);
}

void crs_diff_free(struct crs_diff *d)
{
	free(d->items);
	free(d->reasons);
	memset(d, 0, sizeof(*d));
}
