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

static json_t *share_pair(double a, double b)
{
	json_t *o = json_object();
	json_object_set_new(o, "old", json_real(a));
	json_object_set_new(o, "new", json_real(b));
	return o;
}

void time_states_render(struct rep *r, json_t *d, const struct time_diff *td)
{
	json_t *t = json_object(), *states = json_object();
	/* in the order of profile.h's enum vm_state */
	static const char *const names[CMP_VM_STATES] = {
		"interpreted", "compiled", "C", "GC", "JIT",
	};
	cmp_say(r, "  time (sysprof; shares of all samples, %" PRIu64 " -> %" PRIu64 "):\n",
	        td->samples[0], td->samples[1]);
	cmp_say(r, "   ");
	for (int i = 0; i < CMP_VM_STATES; i++) {
		double x = td->state[0][i], y = td->state[1][i];
		json_object_set_new(states, names[i], share_pair(x, y));
		cmp_say(r, " %s %.1f%% -> %.1f%%%s", names[i], x, y, i + 1 < CMP_VM_STATES ? "," : "\n");
	}
	json_object_set_new(t, "states", states);
	json_object_set_new(d, "time", t);
}

void time_bushes_render(struct rep *r, json_t *d, const struct time_diff *td)
{
	json_t *t = json_object_get(d, "time"), *list = json_array();
	size_t shown = 0;
	for (size_t i = 0; i < td->nbushes; i++) {
		const struct placed_pair *pp = &td->bushes[i];
		const struct placed *x = pp->a, *y = pp->b, *any = x ? x : y;
		uint64_t ca = x ? x->count : 0, cb = y ? y->count : 0;
		json_t *e = json_object();
		json_object_set_new(e, "kind", json_string(any->group));
		json_object_set_new(e, "file", cmp_str(any->file));
		json_object_set_new(e, "old_line", x ? json_integer(x->line) : json_null());
		json_object_set_new(e, "new_line", y ? json_integer(y->line) : json_null());
		json_object_set_new(e, "old_samples", json_integer((json_int_t)ca));
		json_object_set_new(e, "new_samples", json_integer((json_int_t)cb));
		json_object_set_new(e, "old_share", json_real(pp->share_a));
		json_object_set_new(e, "new_share", json_real(pp->share_b));
		json_object_set_new(e, "matched_by", pp->how == MATCH_TEXT ? json_string("text")
		                    : pp->how == MATCH_ORDER ? json_string("order") : json_null());
		json_array_append_new(list, e);
		if (!ca && !cb)
			continue;
		if (!shown++)
			cmp_say(r, "  bushes by time (sysprof, profile-bushes.csv; generations summed; "
			        "matched by the text of the root's start line, else by root kind and "
			        "order):\n");
		if (shown > TOP_BUSHES)
			continue;
		cmp_say(r, "    %5.1f%% -> %5.1f%%  %s %s:%ld", pp->share_a, pp->share_b,
		        cmp_text(r, any->group), cmp_text(r, any->file), y ? y->line : x->line);
		if (x && y && x->line != y->line)
			cmp_say(r, " (was %ld%s)", x->line,
			        pp->how == MATCH_ORDER ? ", by order: no source text" : "");
		cmp_say(r, "%s\n", !x ? "  (new)" : !y ? "  (gone)" : "");
	}
	if (shown > TOP_BUSHES)
		cmp_say(r, "    \u2026 %zu more\n", shown - TOP_BUSHES);
	cmp_say(r, "  bush starts %zu -> %zu: %zu matched, %zu new, %zu gone\n", td->na, td->nb,
	        td->matched, td->nb - td->matched, td->na - td->matched);
	json_object_set_new(t, "bushes", list);
}
