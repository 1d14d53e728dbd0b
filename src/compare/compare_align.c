/* compare_align.c — match the abort sites, findings (or bushes) of two
 * runs that a change of the source may have moved: see placed_align.
 *
 * Within one file, only items of the same group (normalised reason,
 * a finding's identity up to its text, or bush kind) match.  Items whose
 * run read their source carry its text (a site's fingerprint, a
 * finding's identity): those of equal text are the same code wherever
 * it moved, and match first; two items that both have a text and differ
 * in it are different code and never match.  The others (a run without
 * the source, chunks made by load()) match by order, today's rule:
 * a matching keeps their order: lines inserted or
 * removed move the items below them together, never past each other.
 * Among the pairs that keep that order, those sharing the offset most
 * pairs share go first (ties: the smaller move), then the next offset in
 * what is left, until nothing more can match.  So a file edited above
 * its loops matches by one offset, an edit in the middle by two (0 above,
 * N below), and a site only counts as new when its file has more of that
 * reason than before, or it appeared where keeping the order allows no
 * partner. */
#include <stdlib.h>
#include <string.h>
#include "compare/compare_impl.h"
#include "util/alloc.h"

static int cmp_placed(const void *x, const void *y)
{
	const struct placed *a = x, *b = y;
	int c = strcmp(a->file, b->file);
	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	c = strcmp(a->group, b->group);
	if (c)
		return c;
	/* two bushes of one start (two generations): the same order
	 * whichever file they were read from */
	return a->count < b->count ? -1 : a->count > b->count;
}

void placed_sort(struct placed_list *l)
{
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), cmp_placed);
}

/* One file's items: a[0..na), b[0..nb), ta/tb the matches so far. */
struct span {
	const struct placed *a, *b;
	size_t na, nb;
	long *ta, *tb;
};

/* Whether pairing a[i] with b[j] keeps the order of the pairs made. */
static int keeps_order(const struct span *s, size_t i, size_t j)
{
	for (size_t k = i; k-- > 0;)
		if (s->ta[k] >= 0) {
			if ((size_t)s->ta[k] >= j)
				return 0;
			break;
		}
	for (size_t k = i + 1; k < s->na; k++)
		if (s->ta[k] >= 0)
			return (size_t)s->ta[k] > j;
	return 1;
}

static int can_pair(const struct span *s, size_t i, size_t j)
{
	return s->ta[i] < 0 && s->tb[j] < 0 && !(s->a[i].text && s->b[j].text) &&
	       strcmp(s->a[i].group, s->b[j].group) == 0 && keeps_order(s, i, j);
}

/* Items of the same group and text: the same code. */
static void by_text(struct span *s, char *how)
{
	for (size_t i = 0; i < s->na; i++)
		for (size_t j = 0; s->a[i].text && j < s->nb; j++)
			if (s->tb[j] < 0 && s->b[j].text && strcmp(s->a[i].text, s->b[j].text) == 0 &&
			    strcmp(s->a[i].group, s->b[j].group) == 0) {
				s->ta[i] = (long)j;
				s->tb[j] = (long)i;
				if (how)
					how[i] = MATCH_TEXT;
				break;
			}
}

struct vote { long offset; size_t n; };

/* The offset most possible pairs share; 0 when there is no pair. */
static int best_offset(const struct span *s, long *offset)
{
	struct vote *v = NULL;
	size_t nv = 0, cap = 0;
	for (size_t i = 0; i < s->na; i++)
		for (size_t j = 0; j < s->nb; j++) {
			if (!can_pair(s, i, j))
				continue;
			long d = s->b[j].line - s->a[i].line;
			size_t k = 0;
			while (k < nv && v[k].offset != d)
				k++;
			if (k == nv) {
				ALLOC_GROW(v, nv + 1, cap);
				v[nv++] = (struct vote){ d, 0 };
			}
			v[k].n++;
		}
	size_t best = 0;
	for (size_t k = 1; k < nv; k++) {
		long ab = labs(v[k].offset), bb = labs(v[best].offset);
		if (v[k].n > v[best].n || (v[k].n == v[best].n &&
		    (ab < bb || (ab == bb && v[k].offset < v[best].offset))))
			best = k;
	}
	int found = nv > 0;
	if (found)
		*offset = v[best].offset;
	free(v);
	return found;
}

static void align_file(struct span *s, char *how)
{
	long d;
	by_text(s, how);
	while (best_offset(s, &d))
		for (size_t i = 0; i < s->na; i++)
			for (size_t j = 0; j < s->nb; j++)
				if (s->b[j].line - s->a[i].line == d && can_pair(s, i, j)) {
					s->ta[i] = (long)j;
					s->tb[j] = (long)i;
					if (how)
						how[i] = MATCH_ORDER;
					break;
				}
}

void placed_align(const struct placed_list *a, const struct placed_list *b, long *to, char *how)
{
	long *tb = xrealloc(NULL, (b->n + 1) * sizeof(*tb));
	for (size_t i = 0; i < a->n; i++) {
		to[i] = -1;
		if (how)
			how[i] = MATCH_NONE;
	}
	for (size_t j = 0; j < b->n; j++)
		tb[j] = -1;
	size_t i = 0, j = 0;
	while (i < a->n) {
		size_t i1 = i;
		while (i1 < a->n && strcmp(a->v[i1].file, a->v[i].file) == 0)
			i1++;
		while (j < b->n && strcmp(b->v[j].file, a->v[i].file) < 0)
			j++;
		size_t j1 = j;
		while (j1 < b->n && strcmp(b->v[j1].file, a->v[i].file) == 0)
			j1++;
		/* b->v is NULL when b is empty: no offset, not even 0, on NULL */
		struct span s = { a->v + i, j1 > j ? b->v + j : NULL, i1 - i, j1 - j, to + i, tb + j };
		align_file(&s, how ? how + i : NULL);
		for (size_t k = i; k < i1; k++)
			if (to[k] >= 0)
				to[k] += (long)j;
		i = i1;
		j = j1;
	}
	free(tb);
}
