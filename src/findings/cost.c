/* cost.c — what the findings cost, from a profile of the same workload.
 *
 * The rule: each sample is charged to at most one finding: the innermost
 * extent (findings.h, place.c) of a loop or function whose compilation
 * failed that holds the sample's line (of those holding it, the one that
 * starts last, then the shortest), on the first frame of its stack,
 * from the sampled line outwards, that lies in such an extent, up to the
 * first C function that called Lua (profile_frame_is_c_boundary: a
 * trace of its caller never runs that Lua code).  So the body of a loop
 * that never compiled, and what it calls, is charged to that loop, but
 * not a table.sort comparator or a gsub callback it passes.  A profile without stacks (-jp=lvr) knows only the sampled
 * line.  The cost is the interpreted samples charged (all samples for a
 * profile without VM states); the other states' samples are charged by
 * the same rule and shown beside it, never in it: compiled code, C and
 * the GC are no JIT failure.  No sample is charged twice, so the charged
 * samples of all findings sum to at most the interpreted samples.
 *
 * A frame is a source line ("app.lua:40"), matched to a finding's file
 * by its name as the dump writes it, else by the base names of both
 * (-jp=...p prints whole paths, dumps print a chunk's short name).
 *
 * A profile by function (Tarantool's sysprof, when no -jp profile is
 * given: that one knows lines) names each Lua frame by its function's
 * defining line, not the line running: a frame of kind FRAME_FUNCTION is
 * charged to the innermost failed extent that holds the whole function,
 * its defining line to its last (from the source, findings/fnextent.c;
 * without the source its defining line alone), and the findings say
 * basis "function".  So a loop that failed inside a function it does not
 * span is charged nothing by it: the profile cannot say which line of
 * the function ran; the function is, when it failed too (or a failed loop
 * or function around it); the interpreted samples left so in a function
 * that holds a failed loop of its own are counted (da_profile_totals'
 * unsplit).
 * Its compiled samples are charged, beside the cost, by their trace's
 * start line. */
#include <stdlib.h>
#include <string.h>
#include "findings/findings.h"
#include "findings/lines.h"
#include "util/alloc.h"

enum frame_kind { FRAME_LINE, FRAME_FUNCTION };

struct frame {
	const char *file;           /* as the profile writes it */
	size_t len;
	int32_t line;
	enum frame_kind kind;
	int32_t last;               /* FRAME_FUNCTION: the function's last line */
};

struct charger {
	const struct fextent *v;
	size_t n;
	struct draft *d;
	int states;
	struct text_files *texts;   /* which function holds a line */
	struct tally fns;           /* (frame, kind, line) -> its function's
	                               first line + 1, or UINT64_MAX: unknown */
	struct frame *outer;        /* a stack's functions seen, innermost first */
	size_t nouter, outer_cap;
	struct tally seen;          /* (file or frame as interned by the
	                               profile, kind, line) -> extent + 1, or
	                               UINT64_MAX: none */
	uint64_t unsplit;           /* by function: interpreted samples left in
	                               a function that holds a failed extent */
};

static int same_bytes(const char *a, size_t na, const char *b, size_t nb)
{
	return na == nb && memcmp(a, b, na) == 0;
}

const struct fextent *fextent_holder(const struct fextent *v, size_t n, const char *file,
                                     size_t len, int32_t from, int32_t to)
{
	size_t bn;
	const char *base = profile_basename(file, len, &bn);
	const struct fextent *best = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct fextent *e = &v[i];
		if (e->first > from || e->last < to || !same_bytes(e->base, e->len, base, bn))
			continue;
		int hole = 0;
		for (uint32_t h = 0; h < e->nholes && !hole; h++)
			hole = from <= e->holes[h][1] && to >= e->holes[h][0];
		if (hole)
			continue;
		if (!best || e->first > best->first ||
		    (e->first == best->first && e->last < best->last))
			best = e;
	}
	return best;
}

/* The innermost failed extent holding the frame. */
static const struct fextent *holder(const struct charger *c, const struct frame *f)
{
	int32_t to = f->kind == FRAME_FUNCTION && f->last > f->line ? f->last : f->line;
	return fextent_holder(c->v, c->n, f->file, f->len, f->line, to);
}

/* holder() once per distinct frame: a stack repeats its callers' frames. */
static const struct fextent *holder_of(struct charger *c, const struct frame *f)
{
	/* f->file is interned by the profile: a frame's or a line's file */
	const void *kind = (const void *)(uintptr_t)(f->kind + 1);
	uint64_t k = tally_get(&c->seen, f->file, kind, f->line);
	if (!k) {
		const struct fextent *e = holder(c, f);
		k = e ? (uint64_t)(e - c->v) + 1 : UINT64_MAX;
		tally_add(&c->seen, f->file, kind, f->line, k);
	}
	return k == UINT64_MAX ? NULL : &c->v[k - 1];
}

/* The first line of the function that holds the frame (a function frame
 * is its own), 0 at a chunk's top level, -1 when not known (its file not
 * read, or its blocks not balanced). */
static int32_t function_of(struct charger *c, const struct frame *f)
{
	if (f->kind == FRAME_FUNCTION)
		return f->line;
	const void *kind = (const void *)(uintptr_t)(f->kind + 1);
	uint64_t k = tally_get(&c->fns, f->file, kind, f->line);
	if (!k) {
		const struct text_file *t = c->texts ? text_file_get(c->texts, f->file, f->len) : NULL;
		int ok = t && t->read && t->balanced && f->line >= 1 && (size_t)f->line <= t->nlines;
		k = ok ? (uint64_t)t->scope[f->line - 1] + 1 : UINT64_MAX;
		tally_add(&c->fns, f->file, kind, f->line, k);
	}
	return k == UINT64_MAX ? -1 : (int32_t)(k - 1);
}

/* A frame of a function that also runs in a frame nearer the leaf (seen
 * so far): a recursive call's caller.  Else the frame's function is added
 * to those seen. */
static int outer_recursion(struct charger *c, const struct frame *f)
{
	int32_t fn = function_of(c, f);
	if (fn < 0)
		return 0;
	for (size_t i = 0; i < c->nouter; i++)
		if (c->outer[i].line == fn && same_bytes(c->outer[i].file, c->outer[i].len, f->file, f->len))
			return 1;
	ALLOC_GROW(c->outer, c->nouter + 1, c->outer_cap);
	c->outer[c->nouter++] = (struct frame){ f->file, f->len, fn, FRAME_LINE, fn };
	return 0;
}

/* Charge count samples of a state (-1: none known) to the first frame,
 * leaf first, held by a failed extent, passing over the frames of a
 * function that runs nearer the leaf too (a recursive function's callers
 * do not charge its inner call's samples to their extents): 1, or 0 when
 * none holds one. */
static int charge(struct charger *c, const struct frame *fr, size_t n, int state, uint64_t count)
{
	c->nouter = 0;
	for (size_t i = n; i-- > 0;) {
		if (outer_recursion(c, &fr[i]))
			continue;
		const struct fextent *e = holder_of(c, &fr[i]);
		if (!e)
			continue;
		struct da_finding *p = &c->d[e->finding].pub;
		if (state >= 0)
			p->state_samples[state] += count;
		if (state == VM_INTERPRETED || !c->states)
			p->samples += count;
		return 1;
	}
	return 0;
}

/* The functions that hold a failed loop of their own (the innermost
 * function around it, its extent from the source): their interpreted
 * samples may be the loop's, but a profile by function cannot say.  In
 * owners: the function's index + 1 -> 1. */
static void loop_owners(const struct charger *c, const struct sysprof *p, struct tally *owners)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct fextent *e = &c->v[i];
		if (!e->part)
			continue;
		size_t best = SIZE_MAX;
		for (size_t k = 0; k < p->nfuncs; k++) {
			const struct sp_func *f = &p->funcs[k];
			size_t bn;
			if (!f->file || f->last == SP_LAST_UNKNOWN || f->line > e->first || f->last < e->last)
				continue;
			const char *base = profile_basename(f->file, intern_len(f->file), &bn);
			if (same_bytes(e->base, e->len, base, bn) &&
			    (best == SIZE_MAX || f->line > p->funcs[best].line))
				best = k;
		}
		if (best != SIZE_MAX && !tally_get(owners, NULL, NULL, best + 1))
			tally_add(owners, NULL, NULL, best + 1, 1);
	}
}

static int frame_of(const char *s, size_t n, struct frame *f)
{
	size_t flen;
	int32_t line;
	if (!profile_split_frame(s, n, &flen, &line))
		return 0;
	*f = (struct frame){ s, flen, line, FRAME_LINE, line };
	return 1;
}

/* The sysprof profile's samples: interpreted, C and GC ones by their
 * Lua stacks' functions, compiled ones by their trace's start. */
static void charge_sysprof(struct charger *c, const struct sysprof *p)
{
	struct tally fn;            /* frame (interned by p) -> function + 1 */
	tally_init(&fn);
	for (size_t i = 0; i < p->nfuncs; i++)
		if (p->funcs[i].frame && !tally_get(&fn, p->funcs[i].frame, NULL, 0))
			tally_add(&fn, p->funcs[i].frame, NULL, 0, i + 1);
	struct tally owners;
	tally_init(&owners);
	loop_owners(c, p, &owners);
	struct frame *fr = NULL;
	size_t cap = 0;
	for (size_t s = 0; s < p->nstacks; s++) {
		const struct sp_stack *k = &p->stacks[s];
		size_t m = 0;
		uint64_t leaf = 0;          /* the innermost Lua function's index + 1 */
		for (uint32_t j = 0; j < k->nframes; j++) {
			const char *name = p->frames[k->first + j];
			if (sysprof_is_host_frame(p, name))
				continue;
			ALLOC_GROW(fr, m + 1, cap);
			if (!frame_of(name, intern_len(name), &fr[m]))
				continue;
			uint64_t f = tally_get(&fn, name, NULL, 0);
			leaf = f;
			fr[m].kind = FRAME_FUNCTION;
			if (f && p->funcs[f - 1].last != SP_LAST_UNKNOWN)
				fr[m].last = p->funcs[f - 1].last;
			m++;
		}
		int state = sp_state_jp(k->state);
		if (!charge(c, fr, m, state, k->count) && state == VM_INTERPRETED && leaf &&
		    tally_get(&owners, NULL, NULL, leaf))
			c->unsplit += k->count;
	}
	for (size_t i = 0; i < p->ntraces; i++) {
		const struct sp_trace *t = &p->traces[i];
		if (!t->samples || !t->file || t->line < 0)
			continue;
		struct frame f = { t->file, intern_len(t->file), t->line, FRAME_LINE, t->line };
		charge(c, &f, 1, VM_COMPILED, t->samples);
	}
	free(fr);
	tally_free(&fn);
	tally_free(&owners);
}

size_t cost_extents(const struct draft *d, size_t n, struct fextent **out)
{
	struct fextent *v = xrealloc(NULL, (n ? n : 1) * sizeof(*v));
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (!d[i].failed || d[i].pub.basis == DA_BASIS_NONE || !d[i].pub.file)
			continue;
		size_t bn, len = intern_len(d[i].pub.file);
		const char *base = profile_basename(d[i].pub.file, len, &bn);
		enum da_finding_kind k = d[i].pub.kind;
		/* a part of a function: a loop's, an exit's or a stitch's */
		int part = k == DA_KIND_ABORTING_LOOP || k == DA_KIND_BLACKLISTED_LOOP ||
		           (d[i].start && d[i].start->kind != START_ROOT);
		v[m] = (struct fextent){ base, bn, d[i].ext_first, d[i].pub.end_line, (uint32_t)i, part,
		                         d[i].nholes, { { 0, 0 } } };
		memcpy(v[m].holes, d[i].holes, sizeof(v[m].holes));
		m++;
	}
	*out = v;
	return m;
}

void cost_drafts(struct draft *d, size_t n, const struct fextent *v, size_t nv,
                 const struct profile *p, const struct sysprof *sp, struct text_files *texts,
                 struct da_profile_totals *totals)
{
	memset(totals, 0, sizeof(*totals));
	for (size_t i = 0; i < n; i++)
		d[i].pub.extent_basis = d[i].pub.basis;
	if (!p && sp) {
		totals->path = sp->path;
		totals->total = sp->samples;
		totals->states = 1;
		totals->stacks = 1;
		totals->functions = 1;
		sysprof_jp_states(sp, totals->state);
	}
	if (!p && !sp)
		return;
	if (p) {
		totals->path = p->path;
		totals->total = p->total;
		totals->states = p->states;
		totals->stacks = p->kind == PROFILE_STACKS;
		totals->percent = p->percent;
		for (int s = 0; s < VM_STATES; s++)
			totals->state[s] = p->state_total[s];
	}
	struct charger c = { v, nv, d, totals->states, texts, { NULL, 0, 0, 0 }, NULL, 0, 0,
	                     { NULL, 0, 0, 0 }, 0 };
	for (size_t i = 0; i < n; i++) {
		d[i].pub.costed = 1;
		d[i].pub.profile = totals->path;
		if (totals->functions && d[i].pub.basis != DA_BASIS_NONE)
			d[i].pub.basis = DA_BASIS_FUNCTION;
	}
	if (!p) {
		charge_sysprof(&c, sp);
	} else if (p->kind == PROFILE_STACKS) {
		struct frame *fr = NULL;
		size_t cap = 0;
		for (size_t s = 0; s < p->nstacks; s++) {
			const struct profile_stack *k = &p->stacks[s];
			size_t m = 0;
			int cut = 0;
			for (uint32_t j = 0; j < k->nframes; j++) {
				const char *name = p->frames[k->first + j];
				ALLOC_GROW(fr, m + 1, cap);
				if (frame_of(name, intern_len(name), &fr[m])) {
					if (cut) {  /* Lua called by C: its callers' frames go */
						fr[0] = fr[m];
						m = 0;
						cut = 0;
					}
					m++;
				} else if (profile_frame_is_c_boundary(name, intern_len(name))) {
					cut = 1;
				}
			}
			charge(&c, fr, m, k->state, k->count);
		}
		free(fr);
	} else if (p->kind == PROFILE_LINES) {
		for (size_t i = 0; i < p->nlines; i++) {
			const struct profile_line *l = &p->lines[i];
			struct frame f = { l->file, intern_len(l->file), l->line, FRAME_LINE, l->line };
			if (!p->states) {
				charge(&c, &f, 1, -1, l->samples);
				continue;
			}
			for (int s = 0; s < VM_STATES; s++)
				if (l->state[s])
					charge(&c, &f, 1, s, l->state[s]);
		}
	}
	for (size_t i = 0; i < n; i++) {
		totals->charged += d[i].pub.samples;
		d[i].pub.share = totals->total ? 100.0 * (double)d[i].pub.samples /
		                                 (double)totals->total : 0;
	}
	totals->unsplit = c.unsplit;
	tally_free(&c.seen);
	tally_free(&c.fns);
	free(c.outer);
}
