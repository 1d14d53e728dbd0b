/* compare_findings_render.c — --compare's findings rendered from their
 * diff (compare_findings.c): the changed ones as lines of text (new, moved,
 * gone; every name through cmp_text), every one into the dump's JSON
 * object. */
#include <stdio.h>
#include <jansson.h>
#include "compare/compare_impl.h"

static const char *const change_words[] = { "same", "moved", "new", "gone" };
static const char *const note_words[] = {
	"", "  (baselined)", "  (not an abort site: no rule counts it)",
	"  (baselined: not counted)", "  (usually harmless: not counted)"
};

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
static void say(struct rep *r, int *shown, const struct finding_diff *c)
{
	const struct cfinding *f = c->f, *o = c->old;
	if (!(*shown)++)
		cmp_say(r, "  findings (matched by identity: file, error and the text of their lines):\n");
	char where[512], was[64] = "";
	finding_place(where, sizeof(where), f->file, f->line, f->end_line);
	if (o && o->line != f->line)
		snprintf(was, sizeof(was), c->how == MATCH_TEXT ? " (was %ld)" : " (was %ld, by order: "
		         "no source text)", o->line);
	cmp_say(r, "    %-6s %-12s %s%s  %s%s%s%s\n", change_words[c->change], explain_severity_word(f->level),
	        cmp_text(r, where), was, cmp_text(r, f->kind), *f->reason ? "  " : "",
	        cmp_text(r, f->reason), note_words[c->note]);
}

void findings_render(struct rep *r, json_t *d, const struct findings_diff *fd)
{
	json_t *list = json_array();
	int shown = 0;
	for (size_t i = 0; i < fd->n; i++) {
		const struct finding_diff *c = &fd->v[i];
		if (c->change == FC_GONE)
			json_array_append_new(list, row(c->f, c->f, NULL, "gone", MATCH_NONE));
		else
			json_array_append_new(list, row(c->f, c->old, c->f, change_words[c->change], c->how));
		if (c->change != FC_SAME)
			say(r, &shown, c);
	}
	if (fd->moved)
		cmp_say(r, "  findings moved with the lines around them: %zu\n", fd->moved);
	json_object_set_new(d, "findings", list);
	json_object_set_new(d, "findings_moved", json_integer((json_int_t)fd->moved));
	json_object_set_new(d, "findings_baselined", json_integer((json_int_t)fd->accepted));
}

