/* answers.c — whole-run aggregates for summary.txt and the HTML report;
 * see answers.h. */
#include <stdlib.h>
#include <string.h>
#include "analysis/answers.h"
#include "util/alloc.h"
#include "util/arena.h"
#include "model/model.h"
#include "util/alloc.h"

const struct link_end answers_link_ends[] = {
	{ DA_LINK_LOOP, "loop" }, { DA_LINK_ROOT, "link to a trace" },
	{ DA_LINK_RETURN, "return to the VM" }, { DA_LINK_INTERPRETER, "interpreter (stub)" },
	{ DA_LINK_STITCH, "stitch" }, { DA_LINK_TAIL_RECURSION, "tail-recursion" },
	{ DA_LINK_UP_RECURSION, "up-recursion" }, { DA_LINK_DOWN_RECURSION, "down-recursion" },
	{ DA_LINK_OTHER, "other" },
};
const size_t answers_nlink_ends = sizeof(answers_link_ends) / sizeof(answers_link_ends[0]);

void answers_trace(struct answers *a, const struct da_trace *t)
{
	a->links[t->link_kind]++;
	tally_add(&a->starts, t->file, NULL, t->line, 1);
	attempts_trace(&a->attempts, t);
	diagnose_trace(&a->diag, t);
}

static void answers_site_extra(struct answers *a, const struct da_abort *r)
{
	uint64_t k = tally_find(&a->sites, r->reason, r->file, r->line)->first;
	if (k >= a->site_extra_cap) {
		size_t was = a->site_extra_cap;
		ALLOC_GROW(a->site_extra, k + 1, a->site_extra_cap);
		memset(a->site_extra + was, 0, (a->site_extra_cap - was) * sizeof(*a->site_extra));
	}
	struct site_extra *x = &a->site_extra[k];
	if (!x->first_line)
		x->first_line = r->line_no;
	x->last_line = r->line_no;
	x->last_gen = r->gen;
	x->reason_normal = r->reason_normal;
	x->error = r->error;
	x->nbytecode = r->nbytecode;
	if (!a->bytecode.slots)
		intern_init(&a->bytecode);
	for (uint32_t i = 0; i < r->nbytecode && i < PENDING_BC_KEEP; i++)
		x->bytecode[i] = intern_get(&a->bytecode, r->bytecode[i], strlen(r->bytecode[i]));
}

void answers_abort(struct answers *a, const struct da_abort *r)
{
	tally_add(&a->reasons, r->reason, NULL, 0, 1);
	tally_add(&a->sites, r->reason, r->file, r->line, 1);
	answers_site_extra(a, r);
	if (r->start_file)
		tally_add(&a->starts, r->start_file, NULL, r->start_line, 1);
	attempts_abort(&a->attempts, r);
	diagnose_abort(&a->diag, r);
}

static int bush_bigger(struct top_bush a, struct top_bush b)
{
	return a.traces != b.traces ? a.traces > b.traces : a.mcode > b.mcode;
}

static int exit_hotter(struct top_exit a, struct top_exit b)
{
	return a.count > b.count;
}

/* Insert into a list kept sorted, best first; ties keep arrival order. */
static void keep_bush(struct top_bush *arr, struct top_bush b)
{
	size_t k = ANSWERS_TOP;
	while (k > 0 && (arr[k - 1].traces == 0 || bush_bigger(b, arr[k - 1])))
		k--;
	if (k < ANSWERS_TOP) {
		memmove(&arr[k + 1], &arr[k], (ANSWERS_TOP - k - 1) * sizeof(*arr));
		arr[k] = b;
	}
}

static void keep_exit(struct top_exit *arr, struct top_exit x)
{
	size_t k = ANSWERS_TOP;
	while (k > 0 && (arr[k - 1].count == 0 || exit_hotter(x, arr[k - 1])))
		k--;
	if (k < ANSWERS_TOP) {
		memmove(&arr[k + 1], &arr[k], (ANSWERS_TOP - k - 1) * sizeof(*arr));
		arr[k] = x;
	}
}

/* The generation's traces by number (the last to hold each), to name
 * where a given-up exit's parent starts. */
static const struct da_trace **traces_by_id(const struct da_gen *g, size_t *n)
{
	uint32_t top = 0;
	for (const struct da_trace *t = g->traces; t; t = t->next)
		if (t->id > top)
			top = t->id;
	const struct da_trace **v = xrealloc(NULL, ((size_t)top + 1) * sizeof(*v));
	memset(v, 0, ((size_t)top + 1) * sizeof(*v));
	for (const struct da_trace *t = g->traces; t; t = t->next)
		v[t->id] = t;
	*n = (size_t)top + 1;
	return v;
}

void answers_gen_end(struct answers *a, const struct da_gen *g)
{
	gen_counts_add(&a->total, &g->n);
	ALLOC_GROW(a->gens, a->ngens + 1, a->gens_cap);
	a->gens[a->ngens++] = (struct gen_row){ g->number, g->n };
	for (const struct da_bush *b = g->bushes; b; b = b->next)
		keep_bush(a->bushes, (struct top_bush){ g->number, b->root->id, b->dup,
		                                        b->ntraces, b->mcode_bytes,
		                                        b->root->file, b->root->line });
	size_t ne;
	struct tally_entry *e = tally_entries(gen_exits(g), &ne);
	qsort(e, ne, sizeof(*e), tally_by_c);   /* stable ties: trace, exit */
	for (size_t i = 0; i < ne; i++) {
		uint32_t ex = EXIT_KEY_EXIT(e[i].c);
		const struct da_trace *t = e[i].a;
		const struct exit_place *at = gen_resume(g, t, EXIT_KEY_ID(e[i].c), ex);
		struct top_exit x = { g->number, EXIT_KEY_ID(e[i].c), ex,
		                      t ? (uint32_t)tally_get(gen_sides(g), t, NULL, ex) : 0,
		                      e[i].count, t ? t->file : NULL, t ? t->line : DA_NO_LINE,
		                      at ? at->file : NULL, at ? at->line : DA_NO_LINE };
		keep_exit(a->hot, x);
		a->nexits_all++;
		if (!x.side) {
			keep_exit(a->cold, x);
			a->ncold_all++;
		}
	}
	free(e);
	size_t ng;
	const struct start **gu = attempts_given_up(&a->attempts, &ng);
	const struct da_trace **by_id = NULL;
	size_t nby_id = 0;
	for (size_t i = 0; i < ng; i++) {
		if (gu[i]->later == LATER_YES)
			continue;
		const char *file = gu[i]->file;
		int32_t line = gu[i]->line;
		if (gu[i]->exit != PARENT_EXIT_NONE) {
			if (!by_id)
				by_id = traces_by_id(g, &nby_id);
			const struct da_trace *p = gu[i]->parent < nby_id ? by_id[gu[i]->parent] : NULL;
			file = p ? p->file : NULL;
			line = p ? p->line : DA_NO_LINE;
		}
		ALLOC_GROW(a->gave_up, a->ngave_up + 1, a->gave_up_cap);
		a->gave_up[a->ngave_up++] = (struct given_up){ g->number, *gu[i], file, line };
		a->nmcode_gave_up += diagnose_is_mcode(gu[i]->last_reason);
	}
	free(by_id);
	free(gu);
	attempts_clear(&a->attempts);
	diagnose_gen_end(&a->diag, g);
}

void answers_free(struct answers *a)
{
	tally_free(&a->reasons);
	tally_free(&a->sites);
	free(a->site_extra);
	if (a->bytecode.slots)
		intern_free(&a->bytecode);
	tally_free(&a->starts);
	attempts_free(&a->attempts);
	free(a->gave_up);
	free(a->gens);
	diagnose_free(&a->diag);
}
