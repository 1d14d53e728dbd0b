/* callees.c — samples of callees that failed to compile, given to their
 * callers; see callees.h.  Frames and the dump's names meet by base name
 * (dumps print a chunk's base name; -jp=...p prints whole paths).  Which
 * frames failed, the caller says (findings/failed.c: the findings'). */
#include <stdlib.h>
#include <string.h>
#include "profile/callees.h"
#include "util/alloc.h"
#include "util/intern.h"

static int bytes_cmp(const char *a, size_t na, const char *b, size_t nb)
{
	int k = memcmp(a, b, na < nb ? na : nb);
	return k ? k : (na > nb) - (na < nb);
}

static int by_place(const void *x, const void *y)
{
	const struct failed_line *a = x, *b = y;
	int k = bytes_cmp(a->file, a->file_len, b->file, b->file_len);
	return k ? k : (a->line > b->line) - (a->line < b->line);
}

static int by_place_then_aborts(const void *x, const void *y)
{
	const struct failed_line *a = x, *b = y;
	int k = by_place(a, b);
	if (k)
		return k;
	if (a->aborts != b->aborts)
		return a->aborts > b->aborts ? -1 : 1;
	return strcmp(a->reason, b->reason);
}

static void add_failed(struct callees *c, size_t *cap, const char *file, int32_t line,
                       const char *reason, uint64_t aborts)
{
	size_t n = intern_len(file), bn;
	const char *base = profile_basename(file, n, &bn);
	ALLOC_GROW(c->failed, c->nfailed + 1, *cap);
	c->failed[c->nfailed++] = (struct failed_line){ base, bn, line, reason, aborts };
}

void callees_failed_lines(struct callees *c, const struct answers *a)
{
	size_t n, cap = 0;
	struct tally_entry *e = tally_entries(&a->sites, &n);
	qsort(e, n, sizeof(*e), tally_by_count);
	for (size_t i = 0; i < n; i++)
		if (e[i].b && e[i].c != LOC_NO_LINE)
			add_failed(c, &cap, e[i].b, (int32_t)e[i].c,
			           a->site_extra[e[i].first].reason_normal, e[i].count);
	free(e);
	for (size_t i = 0; i < a->ngave_up; i++) {
		const struct start *st = &a->gave_up[i].st;
		if (st->exit == PARENT_EXIT_NONE && st->file && st->later == LATER_NO &&
		    st->line != LOC_NO_LINE)
			add_failed(c, &cap, st->file, st->line, "likely blacklisted", 0);
	}
	/* Of equal places the one with most aborts, then by reason. */
	if (!c->nfailed)
		return;                 /* (and c->failed is NULL) */
	qsort(c->failed, c->nfailed, sizeof(*c->failed), by_place_then_aborts);
	size_t u = 0;
	for (size_t i = 0; i < c->nfailed; i++)
		if (!u || by_place(&c->failed[u - 1], &c->failed[i]) != 0)
			c->failed[u++] = c->failed[i];
	c->nfailed = u;
}

static int by_samples(const void *x, const void *y)
{
	const struct callee_row *a = x, *b = y;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	int k = bytes_cmp(a->file, a->file_len, b->file, b->file_len);
	return k ? k : (a->line > b->line) - (a->line < b->line);
}

void callees_from_stacks(struct callees *c, const struct profile_stack *stacks, size_t nstacks,
                         const char *const *frames, int states, int c_cuts, callee_lookup look,
                         void *ctx)
{
	c->interpreted = states;
	struct tally pair, total;   /* (frame, failed) and (frame) -> samples */
	tally_init(&pair);
	tally_init(&total);
	for (size_t s = 0; s < nstacks; s++) {
		const struct profile_stack *k = &stacks[s];
		if (states && k->state != VM_INTERPRETED)
			continue;
		if (!k->nframes)
			continue;
		const char *const *fr = frames + k->first;
		size_t deep = k->nframes;
		const struct failed_line *f = NULL;
		int lua = 0;                /* a Lua frame seen nearer the leaf */
		for (size_t j = k->nframes; j-- > 0 && !f;) {
			size_t n = intern_len(fr[j]);
			/* as the cost rule: not past a C function that called Lua */
			if (c_cuts && lua && profile_frame_is_c_boundary(fr[j], n))
				break;
			size_t fl;
			int32_t ln;
			lua |= profile_split_frame(fr[j], n, &fl, &ln);
			if ((f = look(c, fr[j], ctx)) != NULL)
				deep = j;
		}
		if (!f)
			continue;
		/* One caller gets the sample: the nearest frame above the failed
		 * one in another file (the code that called into it), else the
		 * nearest; so no sample counts twice, for lines or files. */
		size_t fl, dn, bn;
		int32_t line;
		profile_split_frame(fr[deep], intern_len(fr[deep]), &dn, &line);
		const char *dbase = profile_basename(fr[deep], dn, &dn);
		size_t near = deep, other = deep;
		for (size_t i = deep; i-- > 0;) {
			if (!profile_split_frame(fr[i], intern_len(fr[i]), &fl, &line) || fr[i] == fr[deep])
				continue;
			if (near == deep)
				near = i;
			const char *base = profile_basename(fr[i], fl, &bn);
			if (bn != dn || memcmp(base, dbase, bn) != 0) {
				other = i;
				break;
			}
		}
		size_t who = other != deep ? other : near;
		if (who == deep)
			continue;
		tally_add(&pair, fr[who], f, 0, k->count);
		tally_add(&total, fr[who], NULL, 0, k->count);
	}
	size_t n, np;
	struct tally_entry *e = tally_entries(&total, &n);
	struct tally_entry *pe = tally_entries(&pair, &np);
	qsort(pe, np, sizeof(*pe), tally_by_count);
	c->rows = xrealloc(NULL, (n ? n : 1) * sizeof(*c->rows));
	for (size_t i = 0; i < n; i++) {
		const char *frame = e[i].a;
		size_t fl;
		int32_t line;
		profile_split_frame(frame, intern_len(frame), &fl, &line);
		const struct failed_line *best = NULL;
		uint64_t best_n = 0;
		for (size_t m = 0; m < np; m++)
			if (pe[m].a == frame) {
				const struct failed_line *f = pe[m].b;
				if (!best || pe[m].count > best_n ||
				    (pe[m].count == best_n && by_place(f, best) < 0)) {
					best = f;
					best_n = pe[m].count;
				}
			}
		c->rows[c->n++] = (struct callee_row){ frame, fl, line, e[i].count, best };
	}
	free(e);
	free(pe);
	qsort(c->rows, c->n, sizeof(*c->rows), by_samples);
	tally_free(&pair);
	tally_free(&total);
}

void callees_free(struct callees *c)
{
	free(c->failed);
	free(c->rows);
	memset(c, 0, sizeof(*c));
}
