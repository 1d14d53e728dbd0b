/* runset_cost.c — a run set's cost: each profile run read on its own and
 * its samples charged to the findings' extents pooled over the dump runs
 * (a sample to at most one finding, the failed one whose extent is the
 * innermost holding its line), then each finding's share per profile,
 * median and range. */
#include <stdlib.h>
#include <string.h>
#include "cli/runset_impl.h"
#include "output/message.h"
#include "profile/profile.h"
#include "util/alloc.h"

/* The failed finding whose pooled extent in base holds line and is the
 * shortest (the earlier in rank order of equals): its index, or -1. */
static long holder(const struct rs_set *s, const char *base, size_t blen, int32_t line)
{
	long best = -1;
	int64_t span = 0;
	for (size_t i = 0; i < s->nf; i++) {
		const struct rs_finding *f = &s->f[i];
		if (!f->failed)
			continue;
		for (size_t e = 0; e < f->next; e++) {
			const struct rs_extent *x = &f->ext[e];
			if (line < x->first || line > x->last || strlen(x->base) != blen ||
			    memcmp(x->base, base, blen) != 0)
				continue;
			int64_t w = (int64_t)x->last - x->first;
			if (best < 0 || w < span) {
				best = (long)i;
				span = w;
			}
		}
	}
	return best;
}

static int charge_one(struct rs_set *s, size_t k)
{
	struct rs_profile *rp = &s->profiles[k];
	struct profile p;
	struct profile_error e;
	profile_init(&p, rp->path);
	int r = profile_load(&p, rp->path, &e);
	if (r < 0) {
		if (e.line)
			msg_error("%s:%llu: %s", rp->path, (unsigned long long)e.line, e.msg);
		else
			msg_error("%s: %s", rp->path, e.msg);
		profile_free(&p);
		return -1;
	}
	rp->ok = !p.percent;
	rp->states = p.states;
	rp->total = p.total;
	rp->interpreted = p.states ? p.state_total[VM_INTERPRETED] : 0;
	size_t named = 0, ours = 0;
	for (size_t i = 0; i < p.nlines; i++) {
		const struct profile_line *l = &p.lines[i];
		size_t blen;
		const char *b = profile_basename(l->file, strlen(l->file), &blen);
		named++;
		if (rs_has_file(s, b, blen))
			ours++;
		long h = holder(s, b, blen, l->line);
		if (h >= 0) {
			s->f[h].samples[k] += l->samples;
			rp->charged += l->samples;
		}
	}
	/* -jp=G: the lines are the stacks' leaves, read into lines too */
	rp->foreign = named > 0 && ours == 0 && s->nfiles > 0;
	profile_free(&p);
	return 0;
}

int rs_charge_profiles(struct rs_set *s)
{
	for (size_t k = 0; k < s->nprofiles; k++)
		if (charge_one(s, k) < 0)
			return -1;
	double *v = xrealloc(NULL, (s->nprofiles + 1) * sizeof(*v));
	for (size_t i = 0; i < s->nf; i++) {
		struct rs_finding *f = &s->f[i];
		size_t n = 0;
		f->samples_total = 0;
		for (size_t k = 0; k < s->nprofiles; k++) {
			const struct rs_profile *rp = &s->profiles[k];
			if (!rp->ok || rp->total == 0 || rp->foreign)
				continue;
			f->samples_total += f->samples[k];
			v[n++] = 100.0 * (double)f->samples[k] / (double)rp->total;
		}
		rs_median(v, n, &f->share_med, &f->share_low, &f->share_high);
	}
	free(v);
	return 0;
}
