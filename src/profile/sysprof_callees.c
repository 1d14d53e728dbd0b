/* sysprof_callees.c — the functions of a sysprof profile (its Lua frames
 * are functions, not lines) that hold the dump's failed lines, for the
 * flame graph's marks.  A function holds a failed line of its chunk when its extent from the
 * source (sp_func.last, findings/fnextent.c) holds the line, the innermost
 * such function (the one that starts last, then the shortest); for an
 * abort, not a function that ends on that line (a closure written there:
 * the FNEW that makes it, a common abort, runs in its parent), while a
 * start LuaJIT likely gave up on at a function's first line is that
 * function's.  Without the source the stream's defining lines are all
 * there is: the chunk's function whose defining line comes last before
 * the line (or at it, for a start) holds it, so a function defined above
 * the failed one and ended before it (a sibling) takes the line wrongly. */
#include <stdlib.h>
#include <string.h>
#include "profile/sysprof_callees.h"
#include "util/alloc.h"

static int by_chunk_line(const void *x, const void *y)
{
	const struct sp_func *a = x, *b = y;
	int c = intern_cmp(a->file, b->file);
	return c ? c : (a->line > b->line) - (a->line < b->line);
}

void sp_holders_build(struct sp_holders *h, const struct callees *c, const struct sysprof *p)
{
	memset(h, 0, sizeof(*h));
	intern_init(&h->names);
	tally_init(&h->held);
	h->c = c;
	if (!c->nfailed || !p->nfuncs)
		return;
	struct sp_func *fn = xrealloc(NULL, p->nfuncs * sizeof(*fn));
	memcpy(fn, p->funcs, p->nfuncs * sizeof(*fn));
	qsort(fn, p->nfuncs, sizeof(*fn), by_chunk_line);
	/* most aborts first, so that of several lines a function holds it
	 * keeps the one with most */
	size_t *order = xrealloc(NULL, c->nfailed * sizeof(*order));
	for (size_t i = 0; i < c->nfailed; i++)
		order[i] = i;
	for (size_t i = 1; i < c->nfailed; i++)     /* insertion sort: stable */
		for (size_t k = i; k > 0 && c->failed[order[k]].aborts > c->failed[order[k - 1]].aborts; k--) {
			size_t t = order[k];
			order[k] = order[k - 1];
			order[k - 1] = t;
		}
	for (size_t o = 0; o < c->nfailed; o++) {
		const struct failed_line *f = &c->failed[order[o]];
		/* the chunk's functions: fn[lo, ...) */
		size_t lo = 0, hi = p->nfuncs;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			size_t n = intern_len(fn[mid].file);
			int k = memcmp(fn[mid].file, f->file, n < f->file_len ? n : f->file_len);
			if (!k)
				k = (n > f->file_len) - (n < f->file_len);
			if (k < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		const struct sp_func *best = NULL;
		size_t end = lo;
		while (end < p->nfuncs && intern_len(fn[end].file) == f->file_len &&
		       memcmp(fn[end].file, f->file, f->file_len) == 0)
			end++;
		int extents = 0;
		for (size_t k = lo; k < end && !extents; k++)
			extents = fn[k].last != SP_LAST_UNKNOWN;
		if (extents) {
			for (size_t k = lo; k < end; k++) {
				const struct sp_func *x = &fn[k];
				if (x->last == SP_LAST_UNKNOWN || x->line > f->line || x->last < f->line ||
				    (f->aborts && x->last == f->line && x->line > 0))
					continue;
				if (!best || x->line > best->line ||
				    (x->line == best->line && x->last < best->last))
					best = x;
			}
		} else {
			/* a start LuaJIT gave up on (no aborts there) may be a
			 * function's own first line */
			int32_t last = f->aborts ? f->line - 1 : f->line;
			for (size_t k = lo; k < end && fn[k].line <= last; k++)
				best = &fn[k];
		}
		if (!best)
			continue;
		const char *name = intern_get(&h->names, best->file, intern_len(best->file));
		if (!tally_get(&h->held, name, NULL, best->line))
			tally_add(&h->held, name, NULL, best->line, order[o] + 1);
	}
	free(order);
	free(fn);
}

const struct failed_line *sp_holder_of(struct sp_holders *h, const char *frame)
{
	size_t fl;
	int32_t line;
	if (!h->c || !h->held.count || !profile_split_frame(frame, strlen(frame), &fl, &line))
		return NULL;
	uint64_t k = tally_get(&h->held, intern_get(&h->names, frame, fl), NULL, line);
	return k ? &h->c->failed[k - 1] : NULL;
}

void sp_holders_free(struct sp_holders *h)
{
	intern_free(&h->names);
	tally_free(&h->held);
}
