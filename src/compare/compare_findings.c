/* compare_findings.c — --compare's findings diffed: the two runs'
 * findings.csv matched by the findings' identity (the text of their lines,
 * so an edit elsewhere in the file moves a finding, never makes it new; by
 * order, compare_align.c, only where a run had no source text) into one
 * result (compare_impl.h, struct findings_diff), with the new abort sites
 * that new-sites counts; compare_findings_render.c renders it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/compare_impl.h"
#include "util/alloc.h"

/* "v1|GROUP|FILE|ERROR": what a finding without text aligns by (its
 * identity up to the fourth '|'). */
static char *prefix(const char *identity)
{
	size_t n = 0;
	int bars = 0;
	while (identity[n] && !(identity[n] == '|' && ++bars == 4))
		n++;
	char *s = xrealloc(NULL, n + 1);
	memcpy(s, identity, n);
	s[n] = '\0';
	return s;
}

/* Its identity holds the text of its lines (or it is run-level): not
 * "...|o:N", the order a run without the source gives. */
static int has_text(const char *identity)
{
	return !strstr(identity, "|o:");
}

static void as_placed(const struct side *s, struct placed_list *l)
{
	for (size_t i = 0; i < s->findings.n; i++) {
		const struct cfinding *f = &s->findings.v[i];
		ALLOC_GROW(l->v, l->n + 1, l->cap);
		size_t fl = strlen(f->file) + 1;
		l->v[l->n++] = (struct placed){
			memcpy(xrealloc(NULL, fl), f->file, fl), f->line, prefix(f->identity),
			has_text(f->identity) ? memcpy(xrealloc(NULL, strlen(f->identity) + 1), f->identity,
			                               strlen(f->identity) + 1) : NULL,
			0, i };
	}
	placed_sort(l);
}

static void placed_free_list(struct placed_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].file);
		free(l->v[i].group);
		free(l->v[i].text);
	}
	free(l->v);
}

/* "json.lua:19-29", "json.lua:19", "(the run)". */
void finding_place(char *buf, size_t n, const char *file, long line, long end)
{
	if (!*file)
		snprintf(buf, n, "(the run)");
	else if (line && end > line)
		snprintf(buf, n, "%s:%ld-%ld", file, line, end);
	else if (line)
		snprintf(buf, n, "%s:%ld", file, line);
	else
		snprintf(buf, n, "%s", file);
}

static void add(struct findings_diff *d, size_t *cap, struct finding_diff fc)
{
	ALLOC_GROW(d->v, d->n + 1, *cap);
	d->v[d->n++] = fc;
}

/* A new finding: whether a rule counts it, into *fresh by its name. */
static enum finding_note count_new(const struct cfinding *n, struct fresh *fresh)
{
	char name[640], where[512];
	finding_place(where, sizeof(where), n->file, n->line, n->end_line);
	snprintf(name, sizeof(name), "%s %s, %s", where, n->kind, n->reason);
	if (!n->aborts)
		return FN_NOT_SITE;
	if (n->accepted) {
		fresh->baselined++;
		return FN_NOT_COUNTED;
	}
	if (n->level == EXPLAIN_HARMLESS) {
		fresh_add(fresh, 1, name);
		return FN_HARMLESS;
	}
	fresh_add(fresh, 0, name);
	return FN_NONE;
}

void findings_diff(struct findings_diff *d, struct side *a, struct side *b, struct fresh *fresh)
{
	memset(d, 0, sizeof(*d));
	size_t cap = 0;
	struct placed_list pa = { 0 }, pb = { 0 };
	as_placed(a, &pa);
	as_placed(b, &pb);
	long *to = xrealloc(NULL, (pa.n + 1) * sizeof(*to));
	char *how = xrealloc(NULL, pa.n + 1);
	placed_align(&pa, &pb, to, how);
	/* old[j]: the OLD finding of NEW's finding j, by index */
	long *old = xrealloc(NULL, (b->findings.n + 1) * sizeof(*old));
	char *old_how = xrealloc(NULL, b->findings.n + 1);
	int *gone = xrealloc(NULL, (a->findings.n + 1) * sizeof(*gone));
	for (size_t j = 0; j < b->findings.n; j++)
		old[j] = -1;
	for (size_t i = 0; i < pa.n; i++) {
		gone[pa.v[i].index] = to[i] < 0;
		if (to[i] >= 0) {
			old[pb.v[to[i]].index] = (long)pa.v[i].index;
			old_how[pb.v[to[i]].index] = how[i];
		}
	}
	for (size_t j = 0; j < b->findings.n; j++) {
		struct cfinding *n = &b->findings.v[j];
		const struct cfinding *o = old[j] >= 0 ? &a->findings.v[old[j]] : NULL;
		n->fresh = !o;
		d->accepted += n->accepted != NULL;
		if (!o) {
			add(d, &cap, (struct finding_diff){ FC_NEW, n, NULL, MATCH_NONE, count_new(n, fresh) });
			continue;
		}
		int moved = o->line != n->line;
		d->moved += moved;
		add(d, &cap, (struct finding_diff){ moved ? FC_MOVED : FC_SAME, n, o, old_how[j],
		                                     moved && n->accepted ? FN_BASELINED : FN_NONE });
	}
	for (size_t i = 0; i < a->findings.n; i++)
		if (gone[i])
			add(d, &cap, (struct finding_diff){ FC_GONE, &a->findings.v[i], NULL, MATCH_NONE,
			                                     FN_NONE });
	free(gone);
	free(old_how);
	free(old);
	free(how);
	free(to);
	placed_free_list(&pa);
	placed_free_list(&pb);
}

void findings_diff_free(struct findings_diff *d)
{
	free(d->v);
	memset(d, 0, sizeof(*d));
}
