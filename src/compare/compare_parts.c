/* compare_parts.c — the parts of one dump's comparison beside the aborts
 * and findings, diffed before a word is said (compare_diff.c): the bushes
 * by root kind and start, the -jp profile's shares by VM state and its
 * top lines, sysprof's shares and time per bush.  compare_views.c and
 * compare_time.c render them. */
#include <stdlib.h>
#include <string.h>
#include "compare/compare_impl.h"
#include "util/alloc.h"

/* ---- bushes -------------------------------------------------------------- */

void bushes_diff(struct bushes_diff *d, const struct side *a, const struct side *b)
{
	memset(d, 0, sizeof(*d));
	const struct placed_list *la = &a->bushes, *lb = &b->bushes;
	long *to = xrealloc(NULL, (la->n + 1) * sizeof(*to));
	placed_align(la, lb, to, NULL);
	char *hit = xrealloc(NULL, lb->n + 1);
	memset(hit, 0, lb->n + 1);
	d->v = xrealloc(NULL, (la->n + lb->n + 1) * sizeof(*d->v));
	d->na = la->n;
	d->nb = d->fresh = lb->n;
	for (size_t i = 0; i < la->n; i++) {
		const struct placed *o = &la->v[i], *n = to[i] >= 0 ? &lb->v[to[i]] : NULL;
		d->v[d->n++] = (struct placed_pair){ o, n, MATCH_NONE, 0, 0 };
		if (!n) {
			d->gone++;
			continue;
		}
		hit[to[i]] = 1;
		d->fresh--;
		d->shrank += n->count < o->count;
		d->grew += n->count > o->count;
	}
	for (size_t j = 0; j < lb->n; j++)
		if (!hit[j])
			d->v[d->n++] = (struct placed_pair){ NULL, &lb->v[j], MATCH_NONE, 0, 0 };
	free(hit);
	free(to);
}

void bushes_diff_free(struct bushes_diff *d)
{
	free(d->v);
	memset(d, 0, sizeof(*d));
}

/* ---- the -jp profile ----------------------------------------------------- */

static double prof_share(const struct side *s, double v)
{
	return s->prof_samples > 0 ? 100.0 * v / s->prof_samples : 0;
}

/* The line of s that is l of the other side: the same text (both
 * FINGERPRINTs), else, where one lacks it, the same FILE:LINE. */
static const struct prof_line *same_line(const struct side *s, const struct prof_line *l,
                                         int *by_text)
{
	*by_text = 0;
	for (size_t i = 0; l->fp && i < s->nprof; i++)
		if (s->prof[i].fp && strcmp(s->prof[i].fp, l->fp) == 0 &&
		    strcmp(s->prof[i].file, l->file) == 0) {
			*by_text = 1;
			return &s->prof[i];
		}
	for (size_t i = 0; i < s->nprof; i++)
		if (!(l->fp && s->prof[i].fp) && strcmp(s->prof[i].loc, l->loc) == 0)
			return &s->prof[i];
	return NULL;
}

/* Whether l is among the first PROFILE_TOP_LINES of s. */
static int in_top(const struct side *s, const struct prof_line *l)
{
	for (size_t k = 0; k < s->nprof && k < PROFILE_TOP_LINES; k++)
		if (&s->prof[k] == l)
			return 1;
	return 0;
}

void profile_diff(struct profile_diff *d, const struct side *a, const struct side *b,
                  int findings)
{
	memset(d, 0, sizeof(*d));
	d->findings = findings;
	for (int k = 0; k < 2; k++) {
		const struct side *s = k ? b : a;
		/* a profile without the VM's states has no shares by state: not 0 */
		d->no_states[k] = s->prof_no_states;
		d->interpreted[k] = prof_share(s, s->prof_interpreted);
		for (int i = 0; i < CMP_VM_STATES; i++)
			d->state[k][i] = prof_share(s, s->prof_state[i]);
		d->charged[k] = prof_share(s, s->charged);
	}
	/* NEW's top lines with their match in BASE, then BASE's top lines
	 * not shown already */
	d->lines = xrealloc(NULL, (2 * PROFILE_TOP_LINES + 1) * sizeof(*d->lines));
	for (int pass = 0; pass < 2; pass++) {
		const struct side *s = pass ? a : b, *other = pass ? b : a;
		for (size_t i = 0; i < s->nprof && i < PROFILE_TOP_LINES; i++) {
			const struct prof_line *l = &s->prof[i];
			int by_text;
			const struct prof_line *m = same_line(other, l, &by_text);
			if (pass && m && in_top(b, m))
				continue;
			const struct prof_line *la = pass ? l : m, *lb = pass ? m : l;
			d->lines[d->nlines++] = (struct line_pair){
				la, lb, lb ? lb : la, by_text,
				prof_share(a, la ? la->samples : 0), prof_share(b, lb ? lb->samples : 0),
			};
		}
	}
}

void profile_diff_free(struct profile_diff *d)
{
	free(d->lines);
	memset(d, 0, sizeof(*d));
}

/* ---- sysprof's time ------------------------------------------------------ */

static double time_share(const struct side *s, uint64_t v)
{
	return s->time_samples ? 100.0 * (double)v / (double)s->time_samples : 0;
}

static int by_top(const void *x, const void *y)
{
	const struct placed_pair *p = x, *q = y;
	double tp = p->share_a > p->share_b ? p->share_a : p->share_b;
	double tq = q->share_a > q->share_b ? q->share_a : q->share_b;
	if (tp != tq)
		return tp > tq ? -1 : 1;
	const struct placed *u = p->a ? p->a : p->b, *v = q->a ? q->a : q->b;
	int c = strcmp(u->file, v->file);
	if (c)
		return c;
	return u->line < v->line ? -1 : u->line > v->line;
}

void time_diff(struct time_diff *d, struct side *a, struct side *b)
{
	memset(d, 0, sizeof(*d));
	for (int k = 0; k < 2; k++) {
		const struct side *s = k ? b : a;
		d->samples[k] = s->time_samples;
		for (int i = 0; i < CMP_VM_STATES; i++)
			d->state[k][i] = time_share(s, s->time_state[i]);
	}
	/* by the text of the start only when both runs wrote it */
	if (!a->time_fp || !b->time_fp)
		for (int k = 0; k < 2; k++) {
			struct placed_list *l = k ? &b->time_bushes : &a->time_bushes;
			for (size_t i = 0; i < l->n; i++) {
				free(l->v[i].text);
				l->v[i].text = NULL;
			}
		}
	const struct placed_list *la = &a->time_bushes, *lb = &b->time_bushes;
	long *to = xrealloc(NULL, (la->n + 1) * sizeof(*to));
	char *how = xrealloc(NULL, la->n + 1);
	placed_align(la, lb, to, how);
	char *hit = xrealloc(NULL, lb->n + 1);
	memset(hit, 0, lb->n + 1);
	d->bushes = xrealloc(NULL, (la->n + lb->n + 1) * sizeof(*d->bushes));
	d->na = la->n;
	d->nb = lb->n;
	for (size_t i = 0; i < la->n; i++) {
		const struct placed *y = to[i] >= 0 ? &lb->v[to[i]] : NULL;
		if (y) {
			hit[to[i]] = 1;
			d->matched++;
		}
		d->bushes[d->nbushes++] = (struct placed_pair){
			&la->v[i], y, how[i], time_share(a, la->v[i].count), y ? time_share(b, y->count) : 0,
		};
	}
	for (size_t j = 0; j < lb->n; j++)
		if (!hit[j])
			d->bushes[d->nbushes++] = (struct placed_pair){
				NULL, &lb->v[j], MATCH_NONE, 0, time_share(b, lb->v[j].count),
			};
	qsort(d->bushes, d->nbushes, sizeof(*d->bushes), by_top);
	free(hit);
	free(how);
	free(to);
}

void time_diff_free(struct time_diff *d)
{
	free(d->bushes);
	memset(d, 0, sizeof(*d));
}
