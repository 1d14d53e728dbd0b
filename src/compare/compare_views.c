/* compare_views.c — the parts of --compare's report, each as text (when
 * not --json) and into the dump's JSON object at once: abort reasons and
 * abort sites rendered from their diff (compare_counts.c); bushes
 * (matched by compare_align.c) and profiles diffed as they are said. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "compare/compare_impl.h"
#include "output/json.h"
#include "output/termtext.h"
#include "util/alloc.h"

void cmp_done(struct rep *r)
{
	for (size_t i = 0; i < r->nscratch; i++)
		free(r->scratch[i]);
	r->nscratch = 0;
}

void cmp_say(struct rep *r, const char *fmt, ...)
{
	if (r->out) {
		va_list ap;
		va_start(ap, fmt);
		vfprintf(r->out, fmt, ap);
		va_end(ap);
	}
	cmp_done(r);
}

const char *cmp_textn(struct rep *r, const char *s, size_t n)
{
	ALLOC_GROW(r->scratch, r->nscratch + 1, r->scratch_cap);
	return r->scratch[r->nscratch++] = term_textn(s, n);
}

const char *cmp_text(struct rep *r, const char *s)
{
	return cmp_textn(r, s, strlen(s));
}

json_t *cmp_str(const char *s)
{
	return s ? json_text(s, strlen(s)) : json_null();
}

json_t *cmp_old_new(uint64_t a, uint64_t b)
{
	json_t *o = json_object();
	json_object_set_new(o, "old", json_integer((json_int_t)a));
	json_object_set_new(o, "new", json_integer((json_int_t)b));
	return o;
}

/* A row's counts and change, after its own keys, then the row into list. */
static void add_row(json_t *list, json_t *e, uint64_t was, uint64_t is, const char *c)
{
	json_object_set_new(e, "old", json_integer((json_int_t)was));
	json_object_set_new(e, "new", json_integer((json_int_t)is));
	json_object_set_new(e, "change", json_string(c));
	json_array_append_new(list, e);
}

void cmp_delta_line(struct rep *r, const char *what, uint64_t a, uint64_t b)
{
	if (a == b) {
		cmp_say(r, "  %-18s %8" PRIu64 " -> %" PRIu64 "\n", what, a, b);
		return;
	}
	cmp_say(r, "  %-18s %8" PRIu64 " -> %-8" PRIu64, what, a, b);
	{
		cmp_say(r, " (%+" PRId64, (int64_t)(b - a));
		if (a)
			cmp_say(r, ", %+.1f%%", 100.0 * ((double)b - (double)a) / (double)a);
		cmp_say(r, ")");
	}
	cmp_say(r, "\n");
}

static const char *const level_note[] = { "", "", "  (usually harmless: not counted)" };

void reasons_render(struct rep *r, json_t *d, const struct counts_diff *rd)
{
	json_t *list = json_array();
	size_t shown = 0;
	for (size_t i = 0; i < rd->n; i++) {
		const struct count_change *c = &rd->v[i];
		const char *note = c->in_old ? "" : c->baselined ? "  (baselined: not counted)"
		                                  : level_note[c->level];
		json_t *e = json_object();
		json_object_set_new(e, "reason", cmp_str(c->name));
		json_object_set_new(e, "severity", json_string(explain_severity_word(c->level)));
		json_object_set_new(e, "baselined", json_boolean(c->baselined));
		add_row(list, e, c->was, c->is, c->change);
		if (c->was == c->is)
			continue;
		if (!shown++)
			cmp_say(r, "  abort reasons:\n");
		cmp_say(r, "    %-6s %6" PRIu64 " -> %-6" PRIu64 " %s%s\n", c->change, c->was, c->is,
		        cmp_text(r, c->name), note);
	}
	json_object_set_new(d, "reasons", list);
}

void sites_render(struct rep *r, json_t *d, const struct counts_diff *sd)
{
	json_t *list = json_array();
	size_t shown = 0;
	for (size_t i = 0; i < sd->n; i++) {
		const struct count_change *c = &sd->v[i];
		const struct placed *o = c->old, *n = c->new, *p = n ? n : o;
		json_t *e = json_object();
		json_object_set_new(e, "file", cmp_str(p->file));
		json_object_set_new(e, "old_line", o ? json_integer(o->line) : json_null());
		json_object_set_new(e, "new_line", n ? json_integer(n->line) : json_null());
		json_object_set_new(e, "reason", cmp_str(p->group));
		json_object_set_new(e, "matched_by", c->how == MATCH_TEXT ? json_string("text")
		                    : c->how == MATCH_ORDER ? json_string("order") : json_null());
		add_row(list, e, c->was, c->is, c->change);
		if (c->was == c->is)
			continue;
		if (!shown++)
			cmp_say(r, "  abort sites (matched by the text of their line, else by file, reason "
			        "and order):\n");
		cmp_say(r, "    %-6s %6" PRIu64 " -> %-6" PRIu64 " %s:%ld", c->change, c->was, c->is,
		        cmp_text(r, p->file), p->line);
		if (o && n && o->line != n->line)
			cmp_say(r, c->how == MATCH_TEXT ? " (was %ld)" : " (was %ld, by order: no source text)",
			        o->line);
		cmp_say(r, "  %s\n", cmp_text(r, p->group));
	}
	if (sd->moved)
		cmp_say(r, "  abort sites moved with the lines around them: %zu\n", sd->moved);
	json_object_set_new(d, "sites", list);
	json_object_set_new(d, "sites_moved", json_integer((json_int_t)sd->moved));
}

/* Bushes matched by the kind and start location of their root. */
void bushes_render(struct rep *r, json_t *d, const struct bushes_diff *bd)
{
	json_t *list = json_array();
	size_t shown = 0;
	for (size_t i = 0; i < bd->n; i++) {
		const struct placed *o = bd->v[i].a, *n = bd->v[i].b, *any = o ? o : n;
		json_t *e = json_object();
		json_object_set_new(e, "kind", json_string(any->group));
		json_object_set_new(e, "file", cmp_str(any->file));
		json_object_set_new(e, "old_line", o ? json_integer(o->line) : json_null());
		json_object_set_new(e, "new_line", n ? json_integer(n->line) : json_null());
		json_object_set_new(e, "old_traces", json_integer(o ? (json_int_t)o->count : 0));
		json_object_set_new(e, "new_traces", json_integer(n ? (json_int_t)n->count : 0));
		json_object_set_new(e, "change", json_string(!o ? "new"
		                    : cmp_change(1, n != NULL, o->count, n ? n->count : 0)));
		json_array_append_new(list, e);
		if (!o || !n || n->count <= o->count)
			continue;
		if (!shown++)
			cmp_say(r, "  bushes that grew (matched by root kind and start location):\n");
		cmp_say(r, "    %-6s %6" PRIu64 " -> %-6" PRIu64 " %s %s:%ld", "up", o->count, n->count,
		    o->group, cmp_text(r, n->file), n->line);
		if (n->line != o->line)
			cmp_say(r, " (was %ld)", o->line);
		cmp_say(r, "\n");
	}
	cmp_say(r, "  bushes %zu -> %zu: %zu grew, %zu shrank, %zu new, %zu gone\n",
	    bd->na, bd->nb, bd->grew, bd->shrank, bd->fresh, bd->gone);
	json_object_set_new(d, "bushes", list);
}

/* The shares by VM state (interpreted first); with the findings on both
 * sides, the share charged to them.  At the top of the report (issue 28:
 * where the time went, before the counts); the top lines come later. */
void profile_states_render(struct rep *r, json_t *d, const struct profile_diff *pd)
{
	json_t *p = json_object(), *ish = json_object();
	/* a profile without the VM's states has no interpreted share: not 0 */
	int na = pd->no_states[0], nb = pd->no_states[1];
	json_object_set_new(ish, "old", na ? json_null() : json_real(pd->interpreted[0]));
	json_object_set_new(ish, "new", nb ? json_null() : json_real(pd->interpreted[1]));
	json_object_set_new(p, "interpreted_share", ish);
	cmp_say(r, "  profile (shares of the samples of profile-lines.csv):\n");
	static const char *const states[CMP_VM_STATES] = { "interpreted", "compiled", "C code",
	                                               "garbage collector", "JIT compiler" };
	static const char *const keys[CMP_VM_STATES] = { "interpreted", "compiled", "c", "gc", "jit" };
	json_t *shares = json_object();
	for (int k = 0; k < CMP_VM_STATES; k++) {
		double sa = pd->state[0][k], sb = pd->state[1][k];
		json_t *o = json_object();
		json_object_set_new(o, "old", na ? json_null() : json_real(sa));
		json_object_set_new(o, "new", nb ? json_null() : json_real(sb));
		json_object_set_new(shares, keys[k], o);
		char ta[32] = "n/a", tb[32] = "n/a";
		if (!na)
			snprintf(ta, sizeof(ta), "%.1f%%", sa);
		if (!nb)
			snprintf(tb, sizeof(tb), "%.1f%%", sb);
		cmp_say(r, "    %-18s %7s -> %s%s\n", states[k], ta, tb,
		        k == 0 && (na || nb) ? "  (n/a: a profile without the VM's states)" : "");
	}
	json_object_set_new(p, "state_shares", shares);
	json_t *ch = json_null();
	if (pd->findings) {
		cmp_say(r, "    %-18s %6.1f%% -> %.1f%%\n", "charged to findings", pd->charged[0],
		        pd->charged[1]);
		ch = json_object();
		json_object_set_new(ch, "old", json_real(pd->charged[0]));
		json_object_set_new(ch, "new", json_real(pd->charged[1]));
	}
	json_object_set_new(p, "charged_share", ch);
	json_object_set_new(d, "profile", p);
}

/* The top lines of either side; into d's "profile"
 * (profile_states_render made it). */
void profile_lines_render(struct rep *r, json_t *d, const struct profile_diff *pd)
{
	json_t *p = json_object_get(d, "profile"), *top = json_array();
	cmp_say(r, "  profile's top lines (shares of the samples of profile-lines.csv):\n");
	for (size_t i = 0; i < pd->nlines; i++) {
		const struct line_pair *lp = &pd->lines[i];
		const struct prof_line *la = lp->a, *lb = lp->b, *shown = lp->shown;
		json_t *e = json_object();
		json_object_set_new(e, "loc", cmp_str(shown->loc));
		json_object_set_new(e, "old_loc", la ? cmp_str(la->loc) : json_null());
		json_object_set_new(e, "old_share", la ? json_real(lp->share_a) : json_null());
		json_object_set_new(e, "new_share", lb ? json_real(lp->share_b) : json_null());
		json_object_set_new(e, "matched_by", !la || !lb ? json_null()
		                    : json_string(lp->by_text ? "text" : "line"));
		json_array_append_new(top, e);
		char was[48] = "";
		if (la && lb && la->line != lb->line)
			snprintf(was, sizeof(was), " (was %ld)", la->line);
		cmp_say(r, "    %6.1f%% -> %5.1f%%  %s%s%s\n", lp->share_a, lp->share_b,
		        cmp_text(r, shown->loc), was, !la ? "  (new)" : !lb ? "  (gone)" : "");
	}
	json_object_set_new(p, "top_lines", top);
}
