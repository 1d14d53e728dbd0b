/* compare_time.c — --compare of two runs with a sysprof profile (the
 * sysprof view): shares of the samples by VM state, and time per bush.
 * The samples of each bush start are summed over the generations, then
 * the starts matched across the runs as the findings and abort sites are
 * (compare_align.c): by the text of the root's start line (the
 * FINGERPRINT column of profile-bushes.csv, when both runs read the
 * source) wherever it moved, else by root kind, file and order. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/compare_impl.h"
#include "compare/manifest_in.h"
#include "output/message.h"
#include "output/termtext.h"
#include "profile/sysprof.h"
#include "util/alloc.h"

#define TOP_BUSHES 10

static int on_state(void *ctx, const struct csvin *c)
{
	struct side *s = ctx;
	const char *st = csvin_text(c, CSVIN_SPSTATES_STATE);
	int i = 0;
	while (i < SP_STATES && strcmp(st, sp_state_names[i]) != 0)
		i++;
	if (i == SP_STATES) {
		char *shown = term_text(st);
		msg_error("%s: row %" PRIu64 ", column STATE: '%s' is not one of sysprof's VM states",
		          c->shown, c->row, shown);
		free(shown);
		return -1;
	}
	uint64_t before = s->time_samples;
	if (csvin_add(c, CSVIN_SPSTATES_SAMPLES, &s->time_samples) < 0)
		return -1;
	s->time_state[sp_state_jp(i)] += s->time_samples - before;
	return 0;
}

static int on_bush(void *ctx, const struct csvin *c)
{
	struct side *s = ctx;
	uint64_t sum = s->time_bush_total;
	if (csvin_add(c, CSVIN_SPBUSHES_SAMPLES, &s->time_bush_total) < 0)
		return -1;
	add_placed(&s->time_bushes, csvin_text(c, CSVIN_SPBUSHES_START),
	           csvin_text(c, CSVIN_SPBUSHES_KIND), s->time_bush_total - sum);
	const char *fp = csvin_text(c, CSVIN_SPBUSHES_FINGERPRINT);
	if (*fp) {
		size_t n = strlen(fp) + 1;
		s->time_bushes.v[s->time_bushes.n - 1].text = memcpy(xrealloc(NULL, n), fp, n);
	}
	return 0;
}

/* A run of 0.4.0 wrote no FINGERPRINT: then no bush of either side is
 * matched by text. */
static int on_bush_header(void *ctx, const struct csvin *c)
{
	struct side *s = ctx;
	s->time_fp = csvin_has(c, CSVIN_SPBUSHES_FINGERPRINT);
	return 0;
}

/* One item per kind and start (l sorted): the generations' bushes summed
 * (a start's line has one text in a run: the first row's is kept). */
static void merge_starts(struct placed_list *l)
{
	size_t k = 0;
	for (size_t i = 0; i < l->n; i++) {
		struct placed *x = &l->v[i];
		if (k && strcmp(l->v[k - 1].file, x->file) == 0 && l->v[k - 1].line == x->line &&
		    strcmp(l->v[k - 1].group, x->group) == 0) {
			l->v[k - 1].count += x->count;
			free(x->file);
			free(x->group);
			free(x->text);
			continue;
		}
		l->v[k++] = *x;
	}
	l->n = k;
}

int side_read_time(struct side *s)
{
	static const enum csvin_kind kinds[] = { CSVIN_SPSTATES, CSVIN_SPBUSHES };
	int (*const rows[])(void *, const struct csvin *) = { on_state, on_bush };
	int (*const headers[])(void *, const struct csvin *) = { NULL, on_bush_header };
	for (size_t k = 0; k < 2; k++) {
		const char *name = csvin_name(kinds[k]);
		if (!manifest_has(s->m.files, s->m.nfiles, name)) {
			msg_error("%s/%s: the view sysprof was rendered but the manifest does not list %s",
			          s->dir, MANIFEST_NAME, name);
			return -1;
		}
		struct csvin_reader rd = { headers[k], rows[k], s };
		if (csvin_read(&s->d, name, kinds[k], 0, &rd) < 0)
			return -1;
	}
	placed_sort(&s->time_bushes);
	merge_starts(&s->time_bushes);
	return 0;
}

static double share(const struct side *s, uint64_t v)
{
	return s->time_samples ? 100.0 * (double)v / (double)s->time_samples : 0;
}

struct pair { const struct placed *a, *b; double top; char how; };

static int by_top(const void *x, const void *y)
{
	const struct pair *p = x, *q = y;
	if (p->top != q->top)
		return p->top > q->top ? -1 : 1;
	const struct placed *u = p->a ? p->a : p->b, *v = q->a ? q->a : q->b;
	int c = strcmp(u->file, v->file);
	if (c)
		return c;
	return u->line < v->line ? -1 : u->line > v->line;
}

static json_t *share_pair(double a, double b)
{
	json_t *o = json_object();
	json_object_set_new(o, "old", json_real(a));
	json_object_set_new(o, "new", json_real(b));
	return o;
}

void cmp_time_states(struct rep *r, json_t *d, struct side *a, struct side *b)
{
	json_t *t = json_object(), *states = json_object();
	/* in the order of profile.h's enum vm_state */
	enum { NSTATES = 5 };
	static const char *const names[NSTATES] = {
		"interpreted", "compiled", "C", "GC", "JIT",
	};
	cmp_say(r, "  time (sysprof; shares of all samples, %" PRIu64 " -> %" PRIu64 "):\n",
	        a->time_samples, b->time_samples);
	cmp_say(r, "   ");
	for (int i = 0; i < NSTATES; i++) {
		double x = share(a, a->time_state[i]), y = share(b, b->time_state[i]);
		json_object_set_new(states, names[i], share_pair(x, y));
		cmp_say(r, " %s %.1f%% -> %.1f%%%s", names[i], x, y, i + 1 < NSTATES ? "," : "\n");
	}
	json_object_set_new(t, "states", states);
	json_object_set_new(d, "time", t);
}

void cmp_time_bushes(struct rep *r, json_t *d, struct side *a, struct side *b)
{
	json_t *t = json_object_get(d, "time"), *list = json_array();
	/* bushes matched by the text of their start (when both runs wrote
	 * it), else by kind, file and order; the largest share either side
	 * first */
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
	struct pair *pairs = xrealloc(NULL, (la->n + lb->n + 1) * sizeof(*pairs));
	size_t n = 0, matched = 0;
	for (size_t i = 0; i < la->n; i++) {
		const struct placed *y = to[i] >= 0 ? &lb->v[to[i]] : NULL;
		if (y) {
			hit[to[i]] = 1;
			matched++;
		}
		double sa = share(a, la->v[i].count), sb = y ? share(b, y->count) : 0;
		pairs[n++] = (struct pair){ &la->v[i], y, sa > sb ? sa : sb, how[i] };
	}
	for (size_t j = 0; j < lb->n; j++)
		if (!hit[j])
			pairs[n++] = (struct pair){ NULL, &lb->v[j], share(b, lb->v[j].count), MATCH_NONE };
	qsort(pairs, n, sizeof(*pairs), by_top);
	size_t shown = 0;
	for (size_t i = 0; i < n; i++) {
		const struct placed *x = pairs[i].a, *y = pairs[i].b, *any = x ? x : y;
		uint64_t ca = x ? x->count : 0, cb = y ? y->count : 0;
		json_t *e = json_object();
		json_object_set_new(e, "kind", json_string(any->group));
		json_object_set_new(e, "file", cmp_str(any->file));
		json_object_set_new(e, "old_line", x ? json_integer(x->line) : json_null());
		json_object_set_new(e, "new_line", y ? json_integer(y->line) : json_null());
		json_object_set_new(e, "old_samples", json_integer((json_int_t)ca));
		json_object_set_new(e, "new_samples", json_integer((json_int_t)cb));
		json_object_set_new(e, "old_share", json_real(share(a, ca)));
		json_object_set_new(e, "new_share", json_real(share(b, cb)));
		json_object_set_new(e, "matched_by", pairs[i].how == MATCH_TEXT ? json_string("text")
		                    : pairs[i].how == MATCH_ORDER ? json_string("order") : json_null());
		json_array_append_new(list, e);
		if (!ca && !cb)
			continue;
		if (!shown++)
			cmp_say(r, "  bushes by time (sysprof, profile-bushes.csv; generations summed; "
			        "matched by the text of the root's start line, else by root kind and "
			        "order):\n");
		if (shown > TOP_BUSHES)
			continue;
		cmp_say(r, "    %5.1f%% -> %5.1f%%  %s %s:%ld", share(a, ca), share(b, cb),
		        cmp_text(r, any->group), cmp_text(r, any->file), y ? y->line : x->line);
		if (x && y && x->line != y->line)
			cmp_say(r, " (was %ld%s)", x->line,
			        pairs[i].how == MATCH_ORDER ? ", by order: no source text" : "");
		cmp_say(r, "%s\n", !x ? "  (new)" : !y ? "  (gone)" : "");
	}
	if (shown > TOP_BUSHES)
		cmp_say(r, "    \u2026 %zu more\n", shown - TOP_BUSHES);
	cmp_say(r, "  bush starts %zu -> %zu: %zu matched, %zu new, %zu gone\n", la->n, lb->n, matched,
	        lb->n - matched, la->n - matched);
	json_object_set_new(t, "bushes", list);
	free(pairs);
	free(hit);
	free(how);
	free(to);
}
