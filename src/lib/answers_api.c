/* answers_api.c — the whole-run answers of the public API, copied out of
 * the handle's struct answers into plain arrays. */
#include <stdlib.h>
#include <string.h>
#include "dumpanalyze.h"
#include "lib/api.h"
#include "util/alloc.h"
#include "util/tally.h"

void da_free(void *p)
{
	free(p);
}

/* A tally's entries sorted by count: NULL (and *n = 0) when empty or out
 * of memory. */
static struct tally_entry *ranked(const struct tally *t, size_t *n)
{
	struct oom_catch oc;
	oom_push(&oc);
	if (setjmp(oc.env)) {
		*n = 0;
		return NULL;
	}
	struct tally_entry *e = tally_entries(t, n);
	oom_pop(&oc);
	qsort(e, *n, sizeof(*e), tally_by_count);
	return e;
}

/* calloc for n records, or NULL with *out NULL. */
static void *records(size_t n, size_t size, void *out)
{
	void *p = n ? calloc(n, size) : NULL;
	memcpy(out, &p, sizeof(p));
	return p;
}

size_t da_abort_reasons(const da_dump *d, struct da_reason_count **out)
{
	const struct answers *a = api_answers(d);
	size_t n = 0;
	struct tally_entry *e = a ? ranked(&a->reasons, &n) : NULL;
	struct da_reason_count *r = records(n, sizeof(*r), out);
	for (size_t i = 0; r && i < n; i++)
		r[i] = (struct da_reason_count){ e[i].a, e[i].count };
	free(e);
	return r ? n : 0;
}

size_t da_abort_sites(const da_dump *d, struct da_site_count **out)
{
	const struct answers *a = api_answers(d);
	size_t n = 0;
	struct tally_entry *e = a ? ranked(&a->sites, &n) : NULL;
	struct da_site_count *r = records(n, sizeof(*r), out);
	for (size_t i = 0; r && i < n; i++) {
		const struct site_extra *x = &a->site_extra[e[i].first];
		r[i] = (struct da_site_count){ e[i].a, e[i].b, (int32_t)e[i].c, e[i].count,
		                               x->reason_normal, x->error, x->nbytecode,
		                               x->bytecode, x->first_line, x->last_line };
	}
	free(e);
	return r ? n : 0;
}

size_t da_hot_exits(const da_dump *d, struct da_exit_count **out)
{
	const struct answers *a = api_answers(d);
	size_t n = 0;
	while (a && n < ANSWERS_TOP && a->hot[n].count)
		n++;
	struct da_exit_count *r = records(n, sizeof(*r), out);
	for (size_t i = 0; r && i < n; i++) {
		const struct top_exit *x = &a->hot[i];
		r[i] = (struct da_exit_count){ x->gen, x->trace, x->exit, x->side, x->count };
	}
	return r ? n : 0;
}

size_t da_given_up(const da_dump *d, struct da_given_up **out)
{
	const struct answers *a = api_answers(d);
	size_t n = a ? a->ngave_up : 0;
	struct da_given_up *r = records(n, sizeof(*r), out);
	for (size_t i = 0; r && i < n; i++) {
		const struct start *s = &a->gave_up[i].st;
		r[i] = (struct da_given_up){ a->gave_up[i].gen, s->file, s->line, s->parent,
		                             s->exit, s->attempts, s->last_reason };
	}
	return r ? n : 0;
}
