/* runset_cost.c — a run set's cost: each profile run read on its own and
 * its interpreted samples charged to the findings' extents pooled over the dump runs
 * (a sample to at most one finding, the failed one whose extent is the
 * innermost holding its line), then each finding's share per profile,
 * median and range. */
#include <stdlib.h>
#include <string.h>
#include "cli/runset_impl.h"
#include "output/message.h"
#include "profile/profile.h"
#include "util/alloc.h"

static long holder_of(const struct rs_set *s, const char *base, size_t blen, int32_t line,
                      size_t runs)
{
	long best = -1;
	int64_t span = 0;
	for (size_t i = 0; i < s->nf; i++) {
		const struct rs_finding *f = &s->f[i];
		if (!f->failed || (runs && !rs_stable(f->seen, runs)))
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

/* The failed finding whose pooled extent in base holds line and is the
 * shortest (the earlier of equals), of those seen in most runs when one
 * holds it (else of all): its index, or -1.  A finding seen in one run of
 * five does not take the samples of the stable one around it. */
static long holder(const struct rs_set *s, const char *base, size_t blen, int32_t line,
                   size_t runs)
{
	long best = holder_of(s, base, blen, line, runs);
	return best >= 0 ? best : holder_of(s, base, blen, line, 0);
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
	uint64_t named = 0, ours = 0;      /* samples at a source line; in the dumps' files */
	size_t runs = rs_usable_runs(s);
	for (size_t i = 0; i < p.nlines; i++) {
		const struct profile_line *l = &p.lines[i];
		size_t blen;
		const char *b = profile_basename(l->file, strlen(l->file), &blen);
		named += l->samples;
		if (rs_has_file(s, b, blen))
			ours += l->samples;
		if (p.kind == PROFILE_STACKS)
			continue;
		/* the cost is the interpreted samples (all, without states) */
		uint64_t n = p.states ? l->state[VM_INTERPRETED] : l->samples;
		long h = n ? holder(s, b, blen, l->line, runs) : -1;
		if (h >= 0) {
			s->f[h].samples[k] += n;
			rp->charged += n;
		}
	}
	/* with stacks, from the sampled frame outwards to the first in a
	 * failed extent: what a failed loop calls is charged to it */
	for (size_t i = 0; p.kind == PROFILE_STACKS && i < p.nstacks; i++) {
		const struct profile_stack *st = &p.stacks[i];
		if (p.states && st->state != VM_INTERPRETED)
			continue;
		for (size_t j = st->nframes; j-- > 0;) {
			const char *fr = p.frames[st->first + j];
			size_t flen, blen;
			int32_t line;
			if (!profile_split_frame(fr, strlen(fr), &flen, &line))
				continue;
			const char *b = profile_basename(fr, flen, &blen);
			long h = holder(s, b, blen, line, runs);
			if (h >= 0) {
				s->f[h].samples[k] += st->count;
				rp->charged += st->count;
				break;
			}
		}
	}
	/* -jp=G: the lines are the stacks' leaves, read into lines too */
	/* of another program: most of its samples at a source line fall
	 * outside the files the dumps name */
	rp->foreign = named > 0 && 2 * ours < named && s->nfiles > 0;
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
