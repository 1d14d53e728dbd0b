/* failed.c — the callee columns (profile/callees.h) by the findings'
 * judgment: a frame has failed to compile when it lies in the extent of a
 * finding that is not usually harmless (da_finding.failed), found as the
 * cost rule finds it (fextent_holder: the innermost such extent), so that
 * a callee row names the finding its samples are charged to and the two
 * never disagree.  A -jp frame is a line; a sysprof frame a function,
 * held when its whole extent (its defining line to its end, from the
 * source) lies in the finding's, as the cost rule charges by function. */
#include <stdlib.h>
#include <string.h>
#include "findings/failed.h"
#include "util/alloc.h"

struct look {
	const struct findings *f;
	const struct sysprof *sp;   /* function frames, or NULL: lines */
	struct tally fn;            /* sysprof: frame -> function index + 1 */
	struct tally seen;          /* frame -> failed index + 1, or UINT64_MAX */
};

/* One failed line per failed extent, in the same order: the finding's
 * place (its file's base name, its line), reason and attempts. */
static void failed_of(struct callees *c, const struct findings *f)
{
	memset(c, 0, sizeof(*c));
	if (!f || !f->nfailed)
		return;
	c->failed = xrealloc(NULL, f->nfailed * sizeof(*c->failed));
	for (size_t i = 0; i < f->nfailed; i++) {
		const struct fextent *e = &f->failed[i];
		const struct da_finding *p = &f->list[e->finding];
		c->failed[i] = (struct failed_line){ e->base, e->len, p->line,
		                                     p->reason ? p->reason : p->kind_word, p->attempts };
	}
	c->nfailed = f->nfailed;
}

static const struct failed_line *held(const struct callees *c, const char *frame, void *ctx)
{
	struct look *l = ctx;
	uint64_t k = tally_get(&l->seen, frame, NULL, 0);
	if (!k) {
		size_t flen;
		int32_t line, last;
		const struct fextent *e = NULL;
		if (profile_split_frame(frame, intern_len(frame), &flen, &line)) {
			last = line;
			if (l->sp) {
				uint64_t fi = tally_get(&l->fn, frame, NULL, 0);
				if (fi && l->sp->funcs[fi - 1].last != SP_LAST_UNKNOWN &&
				    l->sp->funcs[fi - 1].last > line)
					last = l->sp->funcs[fi - 1].last;
			}
			e = fextent_holder(l->f->failed, l->f->nfailed, frame, flen, line, last);
		}
		k = e ? (uint64_t)(e - l->f->failed) + 1 : UINT64_MAX;
		tally_add(&l->seen, frame, NULL, 0, k);
	}
	return k == UINT64_MAX ? NULL : &c->failed[k - 1];
}

void failed_callees(struct callees *c, const struct findings *f, const struct profile *p)
{
	failed_of(c, f);
	if (!p || p->kind != PROFILE_STACKS || !p->nstacks || !c->nfailed)
		return;
	struct look l = { f, NULL, { NULL, 0, 0, 0 }, { NULL, 0, 0, 0 } };
	tally_init(&l.seen);
	callees_from_stacks(c, p->stacks, p->nstacks, p->frames, p->states, 1, held, &l);
	tally_free(&l.seen);
}

void failed_callees_sysprof(struct callees *c, const struct findings *f, const struct sysprof *sp)
{
	failed_of(c, f);
	if (!sp || !sp->nstacks || !c->nfailed)
		return;
	struct look l = { f, sp, { NULL, 0, 0, 0 }, { NULL, 0, 0, 0 } };
	tally_init(&l.seen);
	tally_init(&l.fn);
	for (size_t i = 0; i < sp->nfuncs; i++)
		if (sp->funcs[i].frame && !tally_get(&l.fn, sp->funcs[i].frame, NULL, 0))
			tally_add(&l.fn, sp->funcs[i].frame, NULL, 0, i + 1);
	struct profile_stack *st = xrealloc(NULL, sp->nstacks * sizeof(*st));
	for (size_t i = 0; i < sp->nstacks; i++)
		st[i] = (struct profile_stack){ sp->stacks[i].first, sp->stacks[i].nframes,
		                                sp_state_jp(sp->stacks[i].state), sp->stacks[i].count };
	callees_from_stacks(c, st, sp->nstacks, sp->frames, 1, 0, held, &l);
	free(st);
	tally_free(&l.seen);
	tally_free(&l.fn);
}
