/* compare_findings.c — --compare's findings: the two runs' findings.csv
 * matched by the findings' identity (the text of their lines, so an edit
 * elsewhere in the file moves a finding, never makes it new; by order,
 * compare_align.c, only where a run had no source text), the baseline's
 * entries put on them, and the new abort sites that new-sites counts. */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "compare/compare_impl.h"
#include "util/alloc.h"

static const char *const level_words[] = { "costly", "worth-a-look", "harmless" };

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
static void place(char *buf, size_t n, const char *file, long line, long end)
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

static json_t *row(const struct cfinding *f, const struct cfinding *o, const struct cfinding *n,
                   const char *change, int how)
{
	json_t *e = json_object();
	json_object_set_new(e, "identity", cmp_str(f->identity));
	json_object_set_new(e, "id", cmp_str(f->id));
	json_object_set_new(e, "kind", cmp_str(f->kind));
	json_object_set_new(e, "severity", cmp_str(f->severity));
	json_object_set_new(e, "reason", cmp_str(f->reason));
	json_object_set_new(e, "file", *f->file ? cmp_str(f->file) : json_null());
	json_object_set_new(e, "old_line", o && o->line ? json_integer(o->line) : json_null());
	json_object_set_new(e, "new_line", n && n->line ? json_integer(n->line) : json_null());
	json_object_set_new(e, "change", json_string(change));
	json_object_set_new(e, "matched_by", how == MATCH_TEXT ? json_string("text")
	                    : how == MATCH_ORDER ? json_string("order") : json_null());
	json_object_set_new(e, "baselined", cmp_str(f->accepted));
	return e;
}

/* One line of the text: what changed, the severity, where, what. */
static void say(struct rep *r, int *shown, const char *change, const struct cfinding *f,
                const struct cfinding *o, int how, const char *note)
{
	if (!(*shown)++)
		cmp_say(r, "  findings (matched by identity: file, error and the text of their lines):\n");
	char where[512], was[64] = "";
	place(where, sizeof(where), f->file, f->line, f->end_line);
	if (o && o->line != f->line)
		snprintf(was, sizeof(was), how == MATCH_TEXT ? " (was %ld)" : " (was %ld, by order: "
		         "no source text)", o->line);
	cmp_say(r, "    %-6s %-12s %s%s  %s%s%s%s\n", change, level_words[f->level],
	        cmp_text(r, where), was, cmp_text(r, f->kind), *f->reason ? "  " : "",
	        cmp_text(r, f->reason), note);
}

void cmp_findings(struct rep *r, json_t *d, struct side *a, struct side *b, struct fresh *fresh)
{
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
	json_t *list = json_array();
	int shown = 0;
	size_t moved = 0;
	for (size_t j = 0; j < b->findings.n; j++) {
		struct cfinding *n = &b->findings.v[j];
		const struct cfinding *o = old[j] >= 0 ? &a->findings.v[old[j]] : NULL;
		n->fresh = !o;
		int h = o ? old_how[j] : MATCH_NONE;
		const char *change = !o ? "new" : o->line != n->line ? "moved" : "same";
		json_array_append_new(list, row(n, o, n, change, h));
		moved += o && o->line != n->line;
		if (o) {
			if (o->line != n->line)
				say(r, &shown, "moved", n, o, h, n->accepted ? "  (baselined)" : "");
			continue;
		}
		const char *note = "";
		char name[640], where[512];
		place(where, sizeof(where), n->file, n->line, n->end_line);
		snprintf(name, sizeof(name), "%s %s, %s", where, n->kind, n->reason);
		if (!n->aborts)
			note = "  (not an abort site: no rule counts it)";
		else if (n->accepted) {
			note = "  (baselined: not counted)";
			fresh->baselined++;
		} else if (n->level == LEVEL_HARMLESS) {
			note = "  (usually harmless: not counted)";
			fresh_add(fresh, 1, name);
		} else {
			fresh_add(fresh, 0, name);
		}
		say(r, &shown, "new", n, NULL, MATCH_NONE, note);
	}
	for (size_t i = 0; i < a->findings.n; i++) {
		if (!gone[i])
			continue;
		const struct cfinding *o = &a->findings.v[i];
		json_array_append_new(list, row(o, o, NULL, "gone", MATCH_NONE));
		say(r, &shown, "gone", o, NULL, MATCH_NONE, "");
	}
	size_t accepted = 0;
	for (size_t j = 0; j < b->findings.n; j++)
		accepted += b->findings.v[j].accepted != NULL;
	if (moved)
		cmp_say(r, "  findings moved with the lines around them: %zu\n", moved);
	json_object_set_new(d, "findings", list);
	json_object_set_new(d, "findings_moved", json_integer((json_int_t)moved));
	json_object_set_new(d, "findings_baselined", json_integer((json_int_t)accepted));
	free(gone);
	free(old_how);
	free(old);
	free(how);
	free(to);
	placed_free_list(&pa);
	placed_free_list(&pb);
}
