/* answers_api.c — the whole-run answers of the public API: made once,
 * when reading is over, from the handle's struct answers into public
 * records that stay until da_close, handed out one at a time by index
 * (dumpanalyze.h: so that their structs may grow at their end). */
#include <stdlib.h>
#include <string.h>
#include "lib/api.h"
#include "util/alloc.h"
#include "util/tally.h"

struct answers_out {
	struct da_reason_count *reasons;
	struct da_site_count *sites;
	struct da_exit_count *exits;
	struct da_given_up *given_up;
	size_t nreasons, nsites, nexits, ngiven_up;
};

/* A tally's entries sorted by count (caller frees). */
static struct tally_entry *ranked(const struct tally *t, size_t *n)
{
	struct tally_entry *e = tally_entries(t, n);
	qsort(e, *n, sizeof(*e), tally_by_count);
	return e;
}

static void *records(size_t n, size_t size)
{
	void *p = xrealloc(NULL, (n ? n : 1) * size);
	memset(p, 0, (n ? n : 1) * size);
	return p;
}

static void make(void *arg)
{
	da_dump *d = arg;
	const struct answers *a = d->answers;
	struct answers_out *o = d->out = records(1, sizeof(*d->out));

	struct tally_entry *e = ranked(&a->reasons, &o->nreasons);
	o->reasons = records(o->nreasons, sizeof(*o->reasons));
	for (size_t i = 0; i < o->nreasons; i++)
		o->reasons[i] = (struct da_reason_count){ e[i].a, e[i].count };
	free(e);

	e = ranked(&a->sites, &o->nsites);
	o->sites = records(o->nsites, sizeof(*o->sites));
	for (size_t i = 0; i < o->nsites; i++) {
		const struct site_extra *x = &a->site_extra[e[i].first];
		o->sites[i] = (struct da_site_count){
			.reason = e[i].a, .file = e[i].b, .line = (int32_t)e[i].c, .count = e[i].count,
			.reason_normal = x->reason_normal, .error = x->error,
			.nbytecode = x->nbytecode, .bytecode = x->bytecode,
			.first_line = x->first_line, .last_line = x->last_line,
		};
	}
	free(e);

	while (o->nexits < ANSWERS_TOP && a->hot[o->nexits].count)
		o->nexits++;
	o->exits = records(o->nexits, sizeof(*o->exits));
	for (size_t i = 0; i < o->nexits; i++) {
		const struct top_exit *x = &a->hot[i];
		o->exits[i] = (struct da_exit_count){
			.gen = x->gen, .trace = x->trace, .exit = x->exit, .side = x->side,
			.count = x->count, .trace_file = x->file, .trace_line = x->line,
			.resume_file = x->resume_file, .resume_line = x->resume_line,
		};
	}

	o->ngiven_up = a->ngave_up;
	o->given_up = records(o->ngiven_up, sizeof(*o->given_up));
	for (size_t i = 0; i < o->ngiven_up; i++) {
		const struct given_up *u = &a->gave_up[i];
		int root = u->st.exit == PARENT_EXIT_NONE;
		o->given_up[i] = (struct da_given_up){
			.gen = u->gen, .file = u->st.file, .line = u->st.line,
			.parent = u->st.parent, .exit = u->st.exit, .attempts = u->st.attempts,
			.last_reason = u->st.last_reason,
			.trace_file = root ? NULL : u->file, .trace_line = root ? DA_NO_LINE : u->line,
		};
	}
}

void api_answers_make(da_dump *d)
{
	/* Out of memory here, there are no answers (counts 0). */
	if (!d->out && oom_call(make, d) < 0)
		api_answers_free(d);
}

void api_answers_free(da_dump *d)
{
	struct answers_out *o = d->out;
	if (!o)
		return;
	free(o->reasons);
	free(o->sites);
	free(o->exits);
	free(o->given_up);
	free(o);
	d->out = NULL;
}

/* The handle's answers, NULL before reading is over or without them. */
static const struct answers_out *out(const da_dump *d)
{
	return d ? d->out : NULL;
}

size_t da_abort_reasons(const da_dump *d) { return out(d) ? out(d)->nreasons : 0; }
size_t da_abort_sites(const da_dump *d) { return out(d) ? out(d)->nsites : 0; }
size_t da_hot_exits(const da_dump *d) { return out(d) ? out(d)->nexits : 0; }
size_t da_given_ups(const da_dump *d) { return out(d) ? out(d)->ngiven_up : 0; }

const struct da_reason_count *da_abort_reason(const da_dump *d, size_t i)
{
	return i < da_abort_reasons(d) ? &out(d)->reasons[i] : NULL;
}

const struct da_site_count *da_abort_site(const da_dump *d, size_t i)
{
	return i < da_abort_sites(d) ? &out(d)->sites[i] : NULL;
}

const struct da_exit_count *da_hot_exit(const da_dump *d, size_t i)
{
	return i < da_hot_exits(d) ? &out(d)->exits[i] : NULL;
}

const struct da_given_up *da_given_up(const da_dump *d, size_t i)
{
	return i < da_given_ups(d) ? &out(d)->given_up[i] : NULL;
}
