/* compare_counts.c — --compare's abort reasons and abort sites diffed
 * into one result each (compare_impl.h, struct counts_diff): counts on
 * both sides, what changed, how a site was matched (compare_align.c),
 * which new reasons a rule counts.  compare_views.c renders them. */
#include <stdlib.h>
#include <string.h>
#include "compare/compare_impl.h"
#include "util/alloc.h"

const char *cmp_change(int in_a, int in_b, uint64_t a, uint64_t b)
{
	return !in_a ? "new" : !in_b ? "gone" : b > a ? "up" : b < a ? "down" : "same";
}

static struct count_change *add(struct counts_diff *d)
{
	ALLOC_GROW(d->v, d->n + 1, d->cap);
	struct count_change *c = &d->v[d->n++];
	memset(c, 0, sizeof(*c));
	return c;
}

/* Whether a finding has the reason: its main one, or one of OTHER_REASONS
 * ("2 NYI: bytecode UCLO; 1 leaving loop in root trace"; no reason LuaJIT
 * writes holds "; "). */
static int has_reason(const struct cfinding *f, const char *reason)
{
	if (strcmp(f->reason, reason) == 0)
		return 1;
	size_t n = strlen(reason);
	for (const char *p = f->others; p && *p;) {
		p += strspn(p, "0123456789");
		p += *p == ' ';
		size_t k = strcspn(p, ";");
		while (p[k] && p[k + 1] != ' ')
			k += 1 + strcspn(p + k + 1, ";");
		if (k == n && memcmp(p, reason, n) == 0)
			return 1;
		p += k + (p[k] ? 2 : 0);
	}
	return 0;
}

/* A new reason is baselined when NEW has findings with it and the
 * baseline accepts every one of them. */
static int reason_baselined(const struct side *b, const char *reason)
{
	size_t with = 0;
	for (size_t i = 0; i < b->findings.n; i++) {
		const struct cfinding *f = &b->findings.v[i];
		if (!has_reason(f, reason))
			continue;
		if (!f->accepted)
			return 0;
		with++;
	}
	return with > 0;
}

void reasons_diff(struct counts_diff *d, struct side *a, struct side *b, struct fresh *fresh)
{
	memset(d, 0, sizeof(*d));
	named_sort_by_name(&a->reasons);
	named_sort_by_name(&b->reasons);
	for (int pass = 0; pass < 2; pass++) {
		struct named_list *l = pass ? &a->reasons : &b->reasons;
		for (size_t i = 0; i < l->n; i++) {
			struct named *o = named_find(&a->reasons, l->v[i].name);
			struct named *n = named_find(&b->reasons, l->v[i].name);
			if (pass && n)
				continue;       /* seen in the first pass */
			struct count_change *c = add(d);
			c->name = l->v[i].name;
			c->in_old = o != NULL;
			c->in_new = n != NULL;
			c->was = o ? o->count : 0;
			c->is = n ? n->count : 0;
			c->change = cmp_change(c->in_old, c->in_new, c->was, c->is);
			c->level = cmp_reason_level(c->name);
			c->how = MATCH_NONE;
			if (o)
				continue;
			c->baselined = reason_baselined(b, c->name);
			if (c->baselined)
				fresh->baselined++;
			else
				fresh_add(fresh, c->level == EXPLAIN_HARMLESS, c->name);
		}
	}
}

void sites_diff(struct counts_diff *d, const struct side *a, const struct side *b)
{
	memset(d, 0, sizeof(*d));
	long *to = xrealloc(NULL, (a->sites.n + 1) * sizeof(*to));
	char *how = xrealloc(NULL, a->sites.n + 1);
	placed_align(&a->sites, &b->sites, to, how);
	for (size_t i = 0; i < a->sites.n; i++)
		if (to[i] >= 0)
			d->moved += a->sites.v[i].line != b->sites.v[to[i]].line;
	/* the new side's sites in order, then those gone */
	for (size_t k = 0; k < b->sites.n + a->sites.n; k++) {
		const struct placed *o = NULL, *n = NULL;
		int h = MATCH_NONE;
		if (k < b->sites.n) {
			n = &b->sites.v[k];
			for (size_t i = 0; i < a->sites.n; i++)
				if (to[i] == (long)k) {
					o = &a->sites.v[i];
					h = how[i];
				}
		} else if (to[k - b->sites.n] < 0) {
			o = &a->sites.v[k - b->sites.n];
		} else {
			continue;
		}
		struct count_change *c = add(d);
		c->old = o;
		c->new = n;
		c->name = (n ? n : o)->group;
		c->in_old = o != NULL;
		c->in_new = n != NULL;
		c->was = o ? o->count : 0;
		c->is = n ? n->count : 0;
		c->change = cmp_change(c->in_old, c->in_new, c->was, c->is);
		if (o && n && c->was == c->is && o->line != n->line)
			c->change = "moved";
		c->how = h;
	}
	free(how);
	free(to);
}

void counts_diff_free(struct counts_diff *d)
{
	free(d->v);
	memset(d, 0, sizeof(*d));
}
