/* model.c — traces, bushes, aborts and exits from parser events; see
 * model.h.  Views see each record as soon as it is complete, and each
 * generation's bushes at its end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/model.h"
#include "util/list.h"

/* A sink's non-zero return stops the run: the parser needs it negative. */
static int sent(struct model *m, int r)
{
	if (r == 0)
		return 0;
	m->stopped = 1;
	return r < 0 ? r : -1;
}

#define SEND(m, hook, rec) \
	((m)->sink && (m)->sink->hook ? sent((m), (m)->sink->hook((m)->sink_data, (rec))) : 0)

static int gen_begin(struct model *m, uint64_t line)
{
	/* The tallies and places are reused, emptied. */
	struct gen_state keep = m->gen;
	memset(&m->gen, 0, sizeof(m->gen));
	m->gen.exits = keep.exits;
	m->gen.sides = keep.sides;
	m->gen.resume = keep.resume;
	m->gen.places = keep.places;
	m->gen.places_cap = keep.places_cap;
	tally_clear(&m->gen.exits);
	tally_clear(&m->gen.sides);
	tally_clear(&m->gen.resume);
	m->gen.pub.number = m->generations + 1;
	m->gen.pub.first_line = line;
	m->started = 1;
	return SEND(m, gen_begin, &m->gen.pub);
}

void gen_counts_add(struct da_counts *to, const struct da_counts *n)
{
	to->traces += n->traces;
	to->root += n->root;
	to->side += n->side;
	to->stitched += n->stitched;
	to->orphans += n->orphans;
	to->aborts += n->aborts;
	to->exits += n->exits;
	to->incomplete += n->incomplete;
	to->bushes += n->bushes;
}

static int gen_end(struct model *m, uint64_t line)
{
	m->gen.pub.last_line = line;
	int r = SEND(m, gen_end, &m->gen.pub);
	gen_counts_add(&m->total, &m->gen.pub.n);
	m->generations++;
	m->started = 0;
	/* Between generations there is none being read: da_current is zero,
	 * and the lists are gone with the arena. */
	memset(&m->gen.pub.n, 0, sizeof(m->gen.pub.n));
	m->gen.pub.traces = m->gen.pub.traces_last = NULL;
	m->gen.pub.bushes = m->gen.pub.bushes_last = NULL;
	arena_reset(&m->arena);
	if (m->holder)
		memset(m->holder, 0, m->nholder * sizeof(*m->holder));
	if (m->root_uses)
		memset(m->root_uses, 0, m->nroot_uses * sizeof(*m->root_uses));
	if (m->exit_warned)
		memset(m->exit_warned, 0, m->nexit_warned * sizeof(*m->exit_warned));
	return r;
}

void model_init(struct model *m, struct diag *diag, const struct da_sink *sink, void *data)
{
	memset(m, 0, sizeof(*m));
	arena_init(&m->arena, 256 * 1024);
	arena_init(&m->brief, 16 * 1024);
	intern_init(&m->strings);
	m->diag = diag;
	m->sink = sink;
	m->sink_data = data;
}

/* Grow a table indexed by trace number so that index id exists. */
static void *grow_table(void *table, uint32_t *n, uint32_t id, size_t elem)
{
	if (id < *n)
		return table;
	uint32_t want = *n ? *n : 256;
	while (want <= id)
		want *= 2;
	table = xrealloc(table, want * elem);
	memset((char *)table + *n * elem, 0, (want - *n) * elem);
	*n = want;
	return table;
}

static const char *intern_span(struct model *m, const char *s, size_t n)
{
	return intern_get(&m->strings, s ? s : "", s ? n : 0);
}

/* The record arena: the generation's, or with callback_only the one of
 * this callback. */
static struct arena *records(struct model *m)
{
	return m->callback_only ? &m->brief : &m->arena;
}

/* Text that lives as long as its record: copied into the generation's
 * arena, or with callback_only the parser's, valid for the callback. */
static const struct da_trace_text *keep_text(struct model *m, const struct da_trace_text *src)
{
	if (!src || (m->callback_only && src->buf))
		return src;
	if (!src->buf) {            /* no line yet: buf is "", never NULL */
		struct da_trace_text *t = arena_alloc(&m->arena, sizeof(*t));
		*t = *src;
		t->buf = "";
		return t;
	}
	size_t end = 0;
	for (int s = 0; s < DA_SEC_COUNT; s++)
		if (src->off[s] + src->len[s] > end)
			end = src->off[s] + src->len[s];
	struct da_trace_text *t = arena_alloc(&m->arena, sizeof(*t) + end);
	*t = *src;
	char *buf = (char *)(t + 1);
	if (end)
		memcpy(buf, src->buf, end);
	t->buf = buf;
	return t;
}

/* Exit `exit` of trace `id` (held by holder, or NULL) resumes at
 * file:line, unless something started there before. */
static void note_resume(struct model *m, const struct da_trace *holder, uint32_t id, int32_t exit,
                        const char *file, int32_t line)
{
	struct gen_state *gs = &m->gen;
	if (tally_get(&gs->resume, holder, NULL, EXIT_KEY(id, exit)))
		return;
	ALLOC_GROW(gs->places, gs->nplaces + 1, gs->places_cap);
	gs->places[gs->nplaces++] = (struct exit_place){ file, line };
	tally_add(&gs->resume, holder, NULL, EXIT_KEY(id, exit), gs->nplaces);
}

static struct da_bush *bush_new(struct model *m, struct da_trace *root)
{
	struct da_bush *b = arena_alloc(&m->arena, sizeof(*b));
	b->root = b->last = root;
	b->seq = (uint32_t)m->gen.pub.n.bushes++;
	m->root_uses = grow_table(m->root_uses, &m->nroot_uses, root->id,
	                          sizeof(*m->root_uses));
	b->dup = ++m->root_uses[root->id];
	LIST_APPEND(m->gen.pub.bushes, m->gen.pub.bushes_last, b, next);
	return b;
}

static int on_stop(struct model *m, const struct event *ev)
{
	const struct pending_trace *p = ev->trace;
	const struct header *h = ev->header;
	struct da_trace *t = arena_alloc(&m->arena, sizeof(*t));
	int r = 0;

	t->id = p->id;
	t->gen = m->gen.pub.number;
	t->parent = p->parent;
	t->parent_exit = p->parent_exit;
	t->loc = intern_span(m, p->loc_text, p->loc_len);
	t->file = intern_span(m, p->loc.file, p->loc.file_len);
	t->line = p->loc.line;
	t->link = intern_span(m, h->link, h->link_len);
	t->link_kind = h->link_kind;
	t->link_target = h->link_target;
	t->num_bc = p->num_bc;
	t->num_ir = p->num_ir;
	t->num_sn = p->num_sn;
	t->size_mc = p->size_mc;
	t->counts_known = p->counts_known;
	t->seq = (uint32_t)m->gen.pub.n.traces++;
	t->start_line = p->start_line;
	t->stop_line = ev->line;
	t->nexits = p->nexits;
	if (p->nexits) {
		uint16_t *ex = arena_alloc(&m->arena, p->nexits * sizeof(*ex));
		memcpy(ex, p->exits, p->nexits * sizeof(*ex));
		t->exits = ex;
	}

	const struct da_trace *parent = NULL;
	if (p->parent_exit >= 0 && p->parent < m->nholder)
		parent = m->holder[p->parent];
	if (p->parent_exit >= 0)
		note_resume(m, parent, p->parent, p->parent_exit, t->file, t->line);
	if (p->parent_exit >= 0 && parent) {
		t->parent_trace = parent;
		if (!tally_get(&m->gen.sides, parent, NULL, t->parent_exit))
			tally_add(&m->gen.sides, parent, NULL, t->parent_exit, t->id);
		t->bush = parent->bush;
		t->bush->last->next_in_bush = t;
		t->bush->last = t;
		t->bush->ntraces++;
		m->gen.pub.n.side++;
	} else {
		if (p->parent_exit >= 0) {
			/* an orphan: counted apart from side traces */
			m->gen.pub.n.orphans++;
			r = diag_warn(m->diag, p->start_line,
			              "trace %u: parent trace %u is not in this generation; "
			              "it becomes the root of its own bush", p->id, p->parent);
		} else if (p->parent_exit == PARENT_EXIT_STITCH) {
			m->gen.pub.n.stitched++;
			m->evidence.stitch++;
		} else {
			m->gen.pub.n.root++;
		}
		t->bush = bush_new(m, t);
		t->bush->ntraces = 1;
	}
	t->bush->mcode_bytes += t->size_mc;

	m->holder = grow_table(m->holder, &m->nholder, t->id, sizeof(*m->holder));
	m->holder[t->id] = t;
	LIST_APPEND(m->gen.pub.traces, m->gen.pub.traces_last, t, next);

	t->text = keep_text(m, p->text);
	int e = SEND(m, trace, t);
	if (m->callback_only)
		t->text = NULL;
	return e < 0 ? e : r;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The reason's normal form and error name, with the evidence so far and
 * the attempt's own last bytecode line (explain.h has the rules).  Once
 * per abort, so the common case is kept short: one match, and a reason
 * that needs no rewriting is its own normal form, without a copy; only
 * NYI bytecode aborts look at their last bytecode line. */
static void normalise(struct model *m, const char *reason, size_t len,
                      const struct pending_trace *p, struct da_abort *a)
{
	struct explain_match mt;
	const struct explain_err *e = explain_match(reason, len, EXPLAIN_FLAVOUR_UNKNOWN, &mt);
	int nyibc = e && strcmp(e->name, "NYIBC") == 0;
	const struct explain_bc *op = nyibc && p->nbc
	                              ? explain_bcline(p->bc[p->nbc - 1], p->bc_len[p->nbc - 1]) : NULL;
	const char *opname = op ? op->name : NULL;
	explain_note_bc(&m->evidence, op);
	explain_note_match(&m->evidence, &mt, opname);
	a->error = e ? e->name : NULL;
	int rewrite = nyibc || (e && strcmp(e->name, "NYICF") == 0);
	if (!rewrite && (len == 0 || (!is_blank(reason[0]) && !is_blank(reason[len - 1])))) {
		a->reason_normal = a->reason;
		return;
	}
	const char *name = m->vmdef && nyibc ? vmdef_bcname(m->vmdef, mt.arg, mt.arg_len) : NULL;
	if (name) {
		/* a number, and the build's own name for it: exact */
		char nb[64];
		int k = snprintf(nb, sizeof(nb), "NYI: bytecode %s", name);
		a->reason_normal = intern_span(m, nb, (size_t)k);
		return;
	}
	enum explain_flavour fl = explain_flavour_guess(&m->evidence, NULL);
	char small[256];
	size_t cap = len + EXPLAIN_NORMAL_EXTRA + 1, n = 0;
	char *buf = cap <= sizeof(small) ? small : xrealloc(NULL, cap);
	explain_normalise(reason, len, fl, opname, buf, cap, &n);
	a->reason_normal = intern_span(m, buf, n);
	if (buf != small)
		free(buf);
}

static int on_abort(struct model *m, const struct event *ev)
{
	const struct pending_trace *p = ev->trace;
	const struct header *h = ev->header;
	struct da_abort *a = arena_alloc(records(m), sizeof(*a));
	a->id = h->id;
	a->gen = m->gen.pub.number;
	a->parent = p->started ? p->parent : 0;
	a->parent_exit = p->started ? p->parent_exit : PARENT_EXIT_NONE;
	a->loc = intern_span(m, h->loc_text, h->loc_len);
	a->file = intern_span(m, h->loc.file, h->loc.file_len);
	a->line = h->loc.line;
	a->reason = intern_span(m, h->reason, h->reason_len);
	a->start_file = p->started ? intern_span(m, p->loc.file, p->loc.file_len) : NULL;
	a->start_line = p->started ? p->loc.line : LOC_NO_LINE;
	a->line_no = ev->line;
	a->start_line_no = p->started ? p->start_line : 0;
	a->text = keep_text(m, p->text);
	if (a->parent_exit == PARENT_EXIT_STITCH)
		m->evidence.stitch++;
	if (a->parent_exit >= 0)
		note_resume(m, a->parent < m->nholder ? m->holder[a->parent] : NULL, a->parent,
		            a->parent_exit, a->start_file, a->start_line);
	/* The bytecode lines are strings like any other: until da_close. */
	a->nbytecode = p->nbc;
	if (p->nbc) {
		const char **bc = arena_alloc(records(m), p->nbc * sizeof(*bc));
		for (uint32_t i = 0; i < p->nbc; i++)
			bc[i] = intern_span(m, p->bc[i], p->bc_len[i]);
		a->bytecode = bc;
	}
	normalise(m, h->reason, h->reason_len, p, a);
	m->gen.pub.n.aborts++;
	int r = SEND(m, abort, a);
	if (m->callback_only)
		arena_reset(&m->brief);
	return r;
}

static int on_exit(struct model *m, const struct event *ev)
{
	/* With callback_only, on the stack: the commonest record of a long
	 * stream costs no allocation. */
	struct da_exit brief;
	struct da_exit *x = m->callback_only ? memset(&brief, 0, sizeof(brief))
	                    : arena_alloc(&m->arena, sizeof(*x));
	x->id = ev->header->id;
	x->exit = ev->header->number;
	x->gen = m->gen.pub.number;
	x->trace = x->id < m->nholder ? m->holder[x->id] : NULL;
	x->line_no = ev->line;
	x->trace_file = x->trace ? x->trace->file : NULL;
	x->trace_line = x->trace ? x->trace->line : DA_NO_LINE;
	const struct exit_place *at = gen_resume(&m->gen.pub, x->trace, x->id, x->exit);
	x->resume_file = at ? at->file : NULL;
	x->resume_line = at ? at->line : DA_NO_LINE;
	int r = 0;
	if (!x->trace) {
		/* Once per trace and generation: an nginx worker's dump takes
		 * thousands of exits of the master's traces. */
		m->exit_warned = grow_table(m->exit_warned, &m->nexit_warned, x->id,
		                            sizeof(*m->exit_warned));
		if (!m->exit_warned[x->id]) {
			m->exit_warned[x->id] = 1;
			r = diag_warn(m->diag, ev->line, "trace %u: exits of a trace that never "
			              "started in this generation (compiled before the dump began?)", x->id);
		}
	}
	m->gen.pub.n.exits++;
	tally_add(&m->gen.exits, x->trace, NULL, EXIT_KEY(x->id, x->exit), 1);
	int e = SEND(m, exit, x);
	return e < 0 ? e : r;
}

int model_event(void *ctx, const struct event *ev)
{
	struct model *m = ctx;
	int r;
	if (!m->started && (r = gen_begin(m, ev->line)) < 0)
		return r;
	switch (ev->kind) {
	case EV_STOP:
		return on_stop(m, ev);
	case EV_ABORT:
		return on_abort(m, ev);
	case EV_EXIT:
		return on_exit(m, ev);
	case EV_INCOMPLETE:
		m->gen.pub.n.incomplete++;
		return 0;
	case EV_FLUSH:
		return gen_end(m, ev->line);
	}
	return 0;
}

int model_finish(struct model *m, uint64_t last_line)
{
	int r;
	/* The part after the last flush is a generation too, even when it
	 * is empty (dumpanalyze 0.9.1 wrote its files as well). */
	if (!m->started && (r = gen_begin(m, last_line)) < 0)
		return r;
	return gen_end(m, last_line);
}

void model_free(struct model *m)
{
	arena_free(&m->arena);
	arena_free(&m->brief);
	intern_free(&m->strings);
	tally_free(&m->gen.exits);
	tally_free(&m->gen.sides);
	tally_free(&m->gen.resume);
	free(m->gen.places);
	m->gen.places = NULL;
	free(m->holder);
	free(m->root_uses);
	free(m->exit_warned);
	m->holder = NULL;
	m->root_uses = NULL;
	m->exit_warned = NULL;
}
