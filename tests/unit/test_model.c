/* test_model.c — traces, bushes, aborts, exits and generations, built
 * from hand-made parser events (and once from dump lines through the
 * parser), as seen by a recording test view. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "model/model.h"
#include "parse/parser.h"
#include "views/view.h"

#include "capture.h"

/* ---- the recording view ----------------------------------------------- */

#define MAXT 32
#define MAXG 8
#define MAXB 8

struct rec_trace {
	const struct da_trace *ptr;    /* identity only: dies at gen end */
	const struct da_bush *bush;
	const struct da_trace *parent_trace;
	uint32_t parent_trace_id;
	uint32_t id, gen, seq, parent, nexits;
	int32_t parent_exit, line;
	uint32_t bush_root, bush_dup, num_bc, num_ir, num_sn, size_mc, link_target;
	enum da_link link_kind;
	const char *loc, *file, *link;  /* interned: live until model_free */
	uint16_t exits[8];
	uint64_t start_line, stop_line;
	int has_text;
};

struct rec_bush {
	uint32_t root, dup, seq, ntraces, nids;
	uint64_t mcode_bytes;
	uint32_t ids[8];
	int root_is_first;
};

struct rec_gen {
	uint32_t number;
	struct da_counts n;
	uint64_t first_line, last_line;
	uint32_t nbushes, ntraces;
	struct rec_bush bush[MAXB];
	uint32_t trace_ids[MAXT];
	uint64_t exit_count[MAXT];      /* for rec.exit[i] of this generation */
	uint64_t side_first[MAXT];      /* gen.sides for rec.trace[i] */
};

struct record {
	struct rec_trace trace[MAXT];
	int ntraces;
	struct da_abort abort[MAXT];
	char abort_bc[MAXT][PENDING_BC_KEEP][168];   /* copies: valid for the call */
	int naborts;
	struct da_exit exit[MAXT];
	int nexits;
	uint32_t begun[MAXG];
	int nbegun;
	struct rec_gen gen[MAXG];
	int nended;
	int fail_trace;             /* returned by the trace hook */
};

static int rec_gen_begin(struct view_ctx *c, const struct da_gen *g)
{
	struct record *r = c->state;
	assert_true(r->nbegun < MAXG);
	assert_null(g->traces);
	assert_null(g->bushes);
	assert_int_equal(g->n.traces, 0);
	r->begun[r->nbegun++] = g->number;
	return 0;
}

static int rec_trace(struct view_ctx *c, const struct da_trace *t)
{
	struct record *r = c->state;
	assert_true(r->ntraces < MAXT);
	struct rec_trace *s = &r->trace[r->ntraces++];
	memset(s, 0, sizeof(*s));
	s->ptr = t;
	s->bush = t->bush;
	s->parent_trace = t->parent_trace;
	s->parent_trace_id = t->parent_trace ? t->parent_trace->id : 0;
	s->id = t->id;
	s->gen = t->gen;
	s->seq = t->seq;
	s->parent = t->parent;
	s->parent_exit = t->parent_exit;
	s->line = t->line;
	s->bush_root = t->bush->root->id;
	s->bush_dup = t->bush->dup;
	s->num_bc = t->num_bc;
	s->num_ir = t->num_ir;
	s->num_sn = t->num_sn;
	s->size_mc = t->size_mc;
	s->link_kind = t->link_kind;
	s->link_target = t->link_target;
	s->loc = t->loc;
	s->file = t->file;
	s->link = t->link;
	s->start_line = t->start_line;
	s->stop_line = t->stop_line;
	s->has_text = t->text != NULL;
	s->nexits = t->nexits;
	assert_true(t->nexits <= 8);
	for (uint32_t i = 0; i < t->nexits; i++)
		s->exits[i] = t->exits[i];
	return r->fail_trace;
}

static int rec_abort(struct view_ctx *c, const struct da_abort *a)
{
	struct record *r = c->state;
	assert_true(r->naborts < MAXT);
	assert_true(a->nbytecode <= PENDING_BC_KEEP);
	for (uint32_t i = 0; i < a->nbytecode; i++) {
		assert_true(strlen(a->bytecode[i]) < sizeof(r->abort_bc[0][0]));
		strcpy(r->abort_bc[r->naborts][i], a->bytecode[i]);
	}
	r->abort[r->naborts++] = *a;
	return 0;
}

static int rec_exit(struct view_ctx *c, const struct da_exit *e)
{
	struct record *r = c->state;
	assert_true(r->nexits < MAXT);
	r->exit[r->nexits++] = *e;
	return 0;
}

static int rec_gen_end(struct view_ctx *c, const struct da_gen *g)
{
	struct record *r = c->state;
	assert_true(r->nended < MAXG);
	struct rec_gen *rg = &r->gen[r->nended++];
	memset(rg, 0, sizeof(*rg));
	rg->number = g->number;
	rg->n = g->n;
	rg->first_line = g->first_line;
	rg->last_line = g->last_line;
	for (const struct da_bush *b = g->bushes; b; b = b->next) {
		assert_true(rg->nbushes < MAXB);
		struct rec_bush *rb = &rg->bush[rg->nbushes++];
		rb->root = b->root->id;
		rb->dup = b->dup;
		rb->seq = b->seq;
		rb->ntraces = b->ntraces;
		rb->mcode_bytes = b->mcode_bytes;
		rb->root_is_first = 1;
		for (const struct da_trace *t = b->root; t; t = t->next_in_bush) {
			assert_true(rb->nids < 8);
			assert_ptr_equal(t->bush, b);
			rb->ids[rb->nids++] = t->id;
		}
	}
	for (const struct da_trace *t = g->traces; t; t = t->next) {
		assert_true(rg->ntraces < MAXT);
		rg->trace_ids[rg->ntraces++] = t->id;
	}
	for (int i = 0; i < r->nexits; i++)
		if (r->exit[i].gen == g->number)
			rg->exit_count[i] = tally_get(gen_exits(g), r->exit[i].trace, NULL,
			                              EXIT_KEY(r->exit[i].id, r->exit[i].exit));
	for (int i = 0; i < r->ntraces; i++)
		if (r->trace[i].gen == g->number && r->trace[i].parent_trace)
			rg->side_first[i] = tally_get(gen_sides(g), r->trace[i].parent_trace, NULL,
			                              r->trace[i].parent_exit);
	return 0;
}

static const struct view recorder = {
	.name = "recorder",
	.gen_begin = rec_gen_begin,
	.trace = rec_trace,
	.abort = rec_abort,
	.exit = rec_exit,
	.gen_end = rec_gen_end,
};

/* ---- the world: model + one view, built by hand ----------------------- */

struct world {
	struct diag diag;
	struct record rec;
	struct view_ctx ctx[1];
	struct view_set views;
	struct model model;
	uint64_t line;
};

static void world_start(struct world *w)
{
	memset(w, 0, sizeof(*w));
	diag_init(&w->diag, "t.dump");
	w->diag.fn = diag_print;
	w->ctx[0].view = &recorder;
	w->ctx[0].state = &w->rec;
	w->ctx[0].jobs = 1;
	w->views.ctx = w->ctx;
	w->views.n = 1;
	w->views.needs = 0;
	model_init(&w->model, &w->diag, &view_set_sink, &w->views);
}

static int finish(struct world *w)
{
	return model_finish(&w->model, ++w->line);
}

/* ---- hand-made events ------------------------------------------------- */

/* A trace stopping: start header "start [P/E ]LOC" one line, stop the
 * next.  The location is copied to a scratch buffer that is scribbled
 * over afterwards: the model must keep its own copy. */
static int stop_ex(struct world *w, uint32_t id, uint32_t parent, int32_t pexit,
                   const char *loc, const char *link, enum da_link lk, uint32_t target,
                   const uint16_t *exits, uint32_t nexits)
{
	char locbuf[128], linkbuf[64];
	snprintf(locbuf, sizeof(locbuf), "%s", loc);
	snprintf(linkbuf, sizeof(linkbuf), "%s", link);
	struct pending_trace t;
	memset(&t, 0, sizeof(t));
	t.id = id;
	t.started = 1;
	t.parent = parent;
	t.parent_exit = pexit;
	t.loc_text = locbuf;
	t.loc_len = strlen(locbuf);
	loc_split(locbuf, t.loc_len, &t.loc);
	t.num_bc = 3;
	t.num_ir = 5;
	t.num_sn = 1;
	t.size_mc = 100 + id;
	t.counts_known = 1;
	t.start_line = ++w->line;
	t.exits = exits;
	t.nexits = nexits;
	struct header h;
	memset(&h, 0, sizeof(h));
	h.kind = HEADER_STOP;
	h.id = id;
	h.link = linkbuf;
	h.link_len = strlen(linkbuf);
	h.link_kind = lk;
	h.link_target = target;
	struct event ev = { EV_STOP, ++w->line, &t, &h };
	int r = model_event(&w->model, &ev);
	memset(locbuf, 'Z', sizeof(locbuf) - 1);
	memset(linkbuf, 'Z', sizeof(linkbuf) - 1);
	return r;
}

static int stop_root(struct world *w, uint32_t id, const char *loc)
{
	return stop_ex(w, id, 0, PARENT_EXIT_NONE, loc, "loop", DA_LINK_LOOP, 0, NULL, 0);
}

static int stop_side(struct world *w, uint32_t id, uint32_t parent, int32_t pexit, const char *loc)
{
	return stop_ex(w, id, parent, pexit, loc, "1", DA_LINK_ROOT, 1, NULL, 0);
}

static int flush(struct world *w)
{
	struct header h;
	memset(&h, 0, sizeof(h));
	h.kind = HEADER_FLUSH;
	struct event ev = { EV_FLUSH, ++w->line, NULL, &h };
	return model_event(&w->model, &ev);
}

static int exit_taken(struct world *w, uint32_t id, uint32_t ex)
{
	struct header h;
	memset(&h, 0, sizeof(h));
	h.kind = HEADER_EXIT;
	h.id = id;
	h.number = ex;
	struct event ev = { EV_EXIT, ++w->line, NULL, &h };
	return model_event(&w->model, &ev);
}

/* ---- bushes ----------------------------------------------------------- */

static void test_root_trace_starts_a_new_bush(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	assert_int_equal(stop_ex(&w, 1, 0, PARENT_EXIT_NONE, "argparse.lua:53", "loop",
	                         DA_LINK_LOOP, 0, NULL, 0), 0);
	assert_int_equal(w.rec.ntraces, 1);
	struct rec_trace *t = &w.rec.trace[0];
	assert_int_equal(t->id, 1);
	assert_int_equal(t->gen, 1);
	assert_int_equal(t->seq, 0);
	assert_null(t->parent_trace);
	assert_int_equal(t->parent, 0);
	assert_int_equal(t->parent_exit, PARENT_EXIT_NONE);
	assert_int_equal(t->bush_root, 1);
	assert_ptr_equal(t->bush->root, t->ptr);
	assert_int_equal(t->bush_dup, 1);
	assert_string_equal(t->loc, "argparse.lua:53");
	assert_string_equal(t->file, "argparse.lua");
	assert_int_equal(t->line, 53);
	assert_string_equal(t->link, "loop");
	assert_int_equal(t->link_kind, DA_LINK_LOOP);
	assert_int_equal(t->num_bc, 3);
	assert_int_equal(t->num_ir, 5);
	assert_int_equal(t->num_sn, 1);
	assert_int_equal(t->size_mc, 101);
	assert_int_equal(t->start_line, 1);
	assert_int_equal(t->stop_line, 2);
	assert_false(t->has_text);
	assert_int_equal(finish(&w), 0);
	assert_int_equal(w.rec.nended, 1);
	struct rec_gen *g = &w.rec.gen[0];
	assert_int_equal(g->n.traces, 1);
	assert_int_equal(g->n.root, 1);
	assert_int_equal(g->n.side, 0);
	assert_int_equal(g->n.bushes, 1);
	assert_int_equal(g->nbushes, 1);
	assert_int_equal(g->bush[0].root, 1);
	assert_int_equal(g->bush[0].seq, 0);
	assert_int_equal(g->bush[0].ntraces, 1);
	assert_int_equal(g->bush[0].mcode_bytes, 101);
	assert_int_equal(w.diag.warnings, 0);
	model_free(&w.model);
}

static void test_side_trace_joins_bush_of_its_parent(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	assert_int_equal(stop_root(&w, 1, "x.lua:1"), 0);
	assert_int_equal(stop_side(&w, 2, 1, 3, "standards.lua:262"), 0);
	assert_int_equal(w.rec.ntraces, 2);
	struct rec_trace *root = &w.rec.trace[0], *side = &w.rec.trace[1];
	assert_ptr_equal(side->parent_trace, root->ptr);
	assert_int_equal(side->parent_trace_id, 1);
	assert_int_equal(side->parent, 1);
	assert_int_equal(side->parent_exit, 3);
	assert_ptr_equal(side->bush, root->bush);
	assert_int_equal(side->bush_root, 1);
	assert_int_equal(side->seq, 1);
	assert_int_equal(finish(&w), 0);
	struct rec_gen *g = &w.rec.gen[0];
	assert_int_equal(g->nbushes, 1);
	assert_int_equal(g->bush[0].ntraces, 2);
	assert_int_equal(g->bush[0].nids, 2);
	assert_int_equal(g->bush[0].ids[0], 1);
	assert_int_equal(g->bush[0].ids[1], 2);
	assert_int_equal(g->bush[0].mcode_bytes, 101 + 102);
	assert_int_equal(g->n.root, 1);
	assert_int_equal(g->n.side, 1);
	assert_int_equal(g->n.orphans, 0);
	/* the first side trace grown from exit 3 of trace 1 is trace 2 */
	assert_int_equal(g->side_first[1], 2);
	assert_int_equal(w.diag.warnings, 0);
	model_free(&w.model);
}

static void test_side_of_side_trace_joins_the_same_bush(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	stop_root(&w, 1, "x.lua:1");
	stop_side(&w, 2, 1, 3, "x.lua:4");
	stop_side(&w, 3, 2, 0, "x.lua:5");
	stop_side(&w, 4, 1, 3, "x.lua:4");     /* a second side trace at 1/3 */
	assert_ptr_equal(w.rec.trace[2].parent_trace, w.rec.trace[1].ptr);
	assert_ptr_equal(w.rec.trace[2].bush, w.rec.trace[0].bush);
	assert_int_equal(finish(&w), 0);
	struct rec_gen *g = &w.rec.gen[0];
	assert_int_equal(g->nbushes, 1);
	assert_int_equal(g->bush[0].nids, 4);
	assert_int_equal(g->bush[0].ids[0], 1);
	assert_int_equal(g->bush[0].ids[1], 2);
	assert_int_equal(g->bush[0].ids[2], 3);
	assert_int_equal(g->bush[0].ids[3], 4);
	assert_int_equal(g->side_first[3], 2);  /* still the first one, 2 */
	assert_int_equal(g->n.side, 3);
	model_free(&w.model);
}

static void test_side_trace_attaches_to_latest_holder_of_reused_number(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	stop_root(&w, 1, "a.lua:1");
	stop_root(&w, 1, "b.lua:7");           /* number 1 freed and reused */
	stop_side(&w, 2, 1, 2, "b.lua:8");
	struct rec_trace *first = &w.rec.trace[0], *second = &w.rec.trace[1];
	struct rec_trace *side = &w.rec.trace[2];
	assert_ptr_not_equal(first->ptr, second->ptr);
	assert_ptr_not_equal(first->bush, second->bush);
	assert_null(second->parent_trace);      /* the second 1 is a new root */
	assert_ptr_equal(side->parent_trace, second->ptr);
	assert_ptr_equal(side->bush, second->bush);
	assert_string_equal(w.rec.trace[1].file, "b.lua");
	assert_int_equal(finish(&w), 0);
	struct rec_gen *g = &w.rec.gen[0];
	assert_int_equal(g->nbushes, 2);
	assert_int_equal(g->bush[0].ntraces, 1);
	assert_int_equal(g->bush[1].ntraces, 2);
	assert_int_equal(g->bush[1].ids[1], 2);
	assert_int_equal(g->n.root, 2);
	assert_int_equal(g->n.side, 1);
	model_free(&w.model);
}

static void test_second_bush_with_same_root_number_has_dup_2(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	stop_root(&w, 1, "a.lua:1");
	stop_root(&w, 2, "a.lua:9");
	stop_root(&w, 1, "b.lua:7");
	stop_root(&w, 1, "c.lua:3");
	assert_int_equal(w.rec.trace[0].bush_dup, 1);
	assert_int_equal(w.rec.trace[1].bush_dup, 1);
	assert_int_equal(w.rec.trace[2].bush_dup, 2);
	assert_int_equal(w.rec.trace[3].bush_dup, 3);
	assert_int_equal(finish(&w), 0);
	struct rec_gen *g = &w.rec.gen[0];
	assert_int_equal(g->nbushes, 4);
	assert_int_equal(g->bush[2].root, 1);
	assert_int_equal(g->bush[2].dup, 2);
	assert_int_equal(g->bush[2].seq, 2);
	assert_int_equal(g->bush[3].dup, 3);
	model_free(&w.model);
}

static void test_stitch_start_has_no_parent_bush(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	stop_ex(&w, 4, 0, PARENT_EXIT_NONE, "lapp.lua:200", "stitch", DA_LINK_STITCH, 0, NULL, 0);
	stop_ex(&w, 5, 4, PARENT_EXIT_STITCH, "lapp.lua:229", "return", DA_LINK_RETURN, 0, NULL, 0);
	struct rec_trace *st = &w.rec.trace[1];
	assert_null(st->parent_trace);
	assert_int_equal(st->parent, 4);
	assert_int_equal(st->parent_exit, PARENT_EXIT_STITCH);
	assert_int_equal(st->bush_root, 5);
	assert_ptr_equal(st->bush->root, st->ptr);
	assert_ptr_not_equal(st->bush, w.rec.trace[0].bush);
	assert_int_equal(finish(&w), 0);
	struct rec_gen *g = &w.rec.gen[0];
	assert_int_equal(g->nbushes, 2);
	assert_int_equal(g->n.stitched, 1);
	assert_int_equal(g->n.root, 1);
	assert_int_equal(g->n.side, 0);
	assert_int_equal(g->n.orphans, 0);
	assert_int_equal(w.diag.warnings, 0);
	model_free(&w.model);
}

static void test_orphan_side_trace_becomes_root_with_warning(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	capture_begin();
	assert_int_equal(stop_side(&w, 10, 9, 1, "x.lua:3"), 0);
	capture_end();
	struct rec_trace *t = &w.rec.trace[0];
	assert_null(t->parent_trace);
	assert_int_equal(t->parent, 9);
	assert_int_equal(t->parent_exit, 1);
	assert_int_equal(t->bush_root, 10);
	assert_int_equal(w.diag.warnings, 1);
	assert_non_null(strstr(cap.text, "t.dump:1: warning: trace 10: parent trace 9 is not in this generation"));
	assert_int_equal(finish(&w), 0);
	struct rec_gen *g = &w.rec.gen[0];
	assert_int_equal(g->n.orphans, 1);
	assert_int_equal(g->n.side, 0);         /* counted apart */
	assert_int_equal(g->n.traces, 1);
	assert_int_equal(g->n.root, 0);
	assert_int_equal(g->nbushes, 1);
	assert_int_equal(w.model.total.orphans, 1);
	model_free(&w.model);
}

static void test_orphan_in_strict_mode_is_fatal(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	w.diag.strict = 1;
	capture_begin();
	int r = stop_side(&w, 10, 9, 1, "x.lua:3");
	capture_end();
	assert_true(r < 0);
	assert_int_equal(w.diag.failed, 1);
	model_free(&w.model);
}

/* ---- generations ------------------------------------------------------ */

static void test_flush_ends_a_generation(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	stop_root(&w, 1, "x.lua:1");
	assert_int_equal(w.rec.nbegun, 1);
	assert_int_equal(w.rec.nended, 0);
	assert_int_equal(flush(&w), 0);
	assert_int_equal(w.rec.nended, 1);
	assert_int_equal(w.model.generations, 1);
	assert_int_equal(w.rec.gen[0].number, 1);
	assert_int_equal(w.rec.gen[0].n.traces, 1);
	assert_int_equal(w.rec.gen[0].first_line, 2);  /* its first event */
	assert_int_equal(w.rec.gen[0].last_line, 3);   /* the flush */
	stop_root(&w, 1, "x.lua:1");
	assert_int_equal(w.rec.trace[1].gen, 2);
	assert_int_equal(w.rec.trace[1].seq, 0);      /* seq starts over */
	assert_int_equal(w.rec.trace[1].bush_dup, 1); /* so do bush numbers */
	assert_int_equal(finish(&w), 0);
	assert_int_equal(w.rec.nbegun, 2);
	assert_int_equal(w.rec.begun[0], 1);
	assert_int_equal(w.rec.begun[1], 2);
	assert_int_equal(w.rec.nended, 2);
	assert_int_equal(w.rec.gen[1].number, 2);
	assert_int_equal(w.rec.gen[1].n.traces, 1);
	assert_int_equal(w.model.generations, 2);
	assert_int_equal(w.model.total.traces, 2);
	assert_int_equal(w.model.total.bushes, 2);
	model_free(&w.model);
}

static void test_two_flushes_in_a_row_give_an_empty_generation(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	stop_root(&w, 1, "x.lua:1");
	flush(&w);
	flush(&w);
	stop_root(&w, 1, "x.lua:1");
	assert_int_equal(finish(&w), 0);
	assert_int_equal(w.model.generations, 3);
	assert_int_equal(w.rec.nbegun, 3);
	assert_int_equal(w.rec.nended, 3);
	for (int i = 0; i < 3; i++)
		assert_int_equal(w.rec.gen[i].number, (uint32_t)i + 1);
	assert_int_equal(w.rec.gen[0].n.traces, 1);
	assert_int_equal(w.rec.gen[1].n.traces, 0);
	assert_int_equal(w.rec.gen[1].nbushes, 0);
	assert_int_equal(w.rec.gen[1].ntraces, 0);
	assert_int_equal(w.rec.gen[2].n.traces, 1);
	assert_int_equal(w.rec.trace[1].gen, 3);
	model_free(&w.model);
}

static void test_side_trace_after_flush_does_not_find_old_parent(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	stop_root(&w, 1, "x.lua:1");
	flush(&w);
	capture_begin();
	stop_side(&w, 2, 1, 1, "x.lua:2");
	capture_end();
	assert_null(w.rec.trace[1].parent_trace);
	assert_int_equal(w.rec.trace[1].bush_root, 2);
	assert_int_equal(w.diag.warnings, 1);
	assert_int_equal(finish(&w), 0);
	assert_int_equal(w.rec.gen[1].n.orphans, 1);
	assert_int_equal(w.model.total.orphans, 1);
	model_free(&w.model);
}

static void test_model_finish_ends_the_last_generation(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	stop_root(&w, 1, "x.lua:1");
	stop_side(&w, 2, 1, 0, "x.lua:4");
	assert_int_equal(w.rec.nended, 0);
	assert_int_equal(finish(&w), 0);
	assert_int_equal(w.rec.nended, 1);
	assert_int_equal(w.model.generations, 1);
	assert_int_equal(w.rec.gen[0].number, 1);
	assert_int_equal(w.rec.gen[0].ntraces, 2);
	assert_int_equal(w.rec.gen[0].trace_ids[0], 1);
	assert_int_equal(w.rec.gen[0].trace_ids[1], 2);
	assert_int_equal(w.rec.gen[0].last_line, 5);
	assert_int_equal(w.model.total.traces, 2);
	assert_int_equal(w.model.total.side, 1);
	model_free(&w.model);
}

static void test_finish_after_flush_is_an_empty_last_generation(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	stop_root(&w, 1, "x.lua:1");
	flush(&w);
	assert_int_equal(finish(&w), 0);
	assert_int_equal(w.model.generations, 2);
	assert_int_equal(w.rec.nended, 2);
	assert_int_equal(w.rec.gen[1].number, 2);
	assert_int_equal(w.rec.gen[1].n.traces, 0);
	model_free(&w.model);
}

static void test_empty_input_is_one_empty_generation(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	assert_int_equal(finish(&w), 0);
	assert_int_equal(w.model.generations, 1);
	assert_int_equal(w.rec.nbegun, 1);
	assert_int_equal(w.rec.nended, 1);
	assert_int_equal(w.rec.gen[0].n.traces, 0);
	model_free(&w.model);
}

/* ---- exits, aborts, incomplete traces --------------------------------- */

static void test_exit_records_find_their_trace(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	stop_root(&w, 1, "x.lua:1");
	assert_int_equal(exit_taken(&w, 1, 3), 0);
	assert_int_equal(exit_taken(&w, 1, 3), 0);
	assert_int_equal(exit_taken(&w, 7, 0), 0);      /* no trace 7 */
	assert_int_equal(w.rec.nexits, 3);
	assert_ptr_equal(w.rec.exit[0].trace, w.rec.trace[0].ptr);
	assert_int_equal(w.rec.exit[0].id, 1);
	assert_int_equal(w.rec.exit[0].exit, 3);
	assert_int_equal(w.rec.exit[0].gen, 1);
	assert_int_equal(w.rec.exit[0].line_no, 3);
	assert_null(w.rec.exit[2].trace);
	assert_int_equal(w.rec.exit[2].id, 7);
	assert_int_equal(finish(&w), 0);
	assert_int_equal(w.rec.gen[0].n.exits, 3);
	assert_int_equal(w.rec.gen[0].exit_count[0], 2);
	assert_int_equal(w.rec.gen[0].exit_count[2], 1);
	assert_int_equal(w.model.total.exits, 3);
	model_free(&w.model);
}

static void test_exit_after_number_reuse_finds_latest_holder(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	stop_root(&w, 1, "a.lua:1");
	stop_root(&w, 1, "b.lua:1");
	exit_taken(&w, 1, 0);
	assert_ptr_equal(w.rec.exit[0].trace, w.rec.trace[1].ptr);
	assert_int_equal(finish(&w), 0);
	model_free(&w.model);
}

static void test_exit_before_any_trace_has_no_trace(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	exit_taken(&w, 1, 0);
	assert_int_equal(w.rec.nbegun, 1);      /* the event opens generation 1 */
	assert_null(w.rec.exit[0].trace);
	assert_int_equal(finish(&w), 0);
	assert_int_equal(w.rec.gen[0].n.exits, 1);
	assert_int_equal(w.rec.gen[0].exit_count[0], 1);
	model_free(&w.model);
}

static void test_trace_exits_are_copied(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	uint16_t exits[3] = { 0, 2, 5 };
	stop_ex(&w, 1, 0, PARENT_EXIT_NONE, "x.lua:1", "loop", DA_LINK_LOOP, 0, exits, 3);
	exits[0] = exits[1] = exits[2] = 99;
	assert_int_equal(w.rec.trace[0].nexits, 3);
	assert_int_equal(w.rec.trace[0].exits[0], 0);
	assert_int_equal(w.rec.trace[0].exits[1], 2);
	assert_int_equal(w.rec.trace[0].exits[2], 5);
	const struct da_trace *t = w.model.gen.pub.traces;
	assert_non_null(t);
	assert_int_equal(t->nexits, 3);
	assert_int_equal(t->exits[2], 5);
	assert_int_equal(finish(&w), 0);
	model_free(&w.model);
}

static void test_strings_are_interned_copies(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	stop_root(&w, 1, "x.lua:1");
	stop_root(&w, 2, "x.lua:9");
	stop_ex(&w, 3, 0, PARENT_EXIT_NONE, "x.lua:9", "2", DA_LINK_ROOT, 2, NULL, 0);
	assert_ptr_equal(w.rec.trace[0].file, w.rec.trace[1].file);
	assert_ptr_equal(w.rec.trace[1].loc, w.rec.trace[2].loc);
	assert_ptr_equal(w.rec.trace[0].link, w.rec.trace[1].link);
	assert_string_equal(w.rec.trace[2].link, "2");
	assert_int_equal(w.rec.trace[2].link_kind, DA_LINK_ROOT);
	assert_int_equal(w.rec.trace[2].link_target, 2);
	assert_int_equal(finish(&w), 0);
	/* interned strings outlive the generation */
	assert_string_equal(w.rec.trace[0].file, "x.lua");
	assert_string_equal(w.rec.trace[1].loc, "x.lua:9");
	model_free(&w.model);
}

static void test_abort_after_start_carries_start_and_reason(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	stop_root(&w, 1, "x.lua:1");
	char loc[] = "x.lua:9", aloc[] = "x.lua:10 -- NYI: bytecode VARG  ";
	struct pending_trace t;
	memset(&t, 0, sizeof(t));
	t.id = 2;
	t.started = 1;
	t.parent = 1;
	t.parent_exit = 3;
	t.loc_text = loc;
	t.loc_len = strlen(loc);
	loc_split(loc, t.loc_len, &t.loc);
	t.counts_known = 1;
	struct header h;
	memset(&h, 0, sizeof(h));
	h.kind = HEADER_ABORT;
	h.id = 2;
	h.loc_text = aloc;
	h.loc_len = 8;
	loc_split(aloc, 8, &h.loc);
	h.reason = aloc + 12;
	h.reason_len = strlen(aloc + 12);
	struct event ev = { EV_ABORT, 42, &t, &h };
	assert_int_equal(model_event(&w.model, &ev), 0);
	memset(aloc, 'Z', sizeof(aloc) - 1);
	assert_int_equal(w.rec.naborts, 1);
	struct da_abort *a = &w.rec.abort[0];
	assert_int_equal(a->id, 2);
	assert_int_equal(a->gen, 1);
	assert_int_equal(a->parent, 1);
	assert_int_equal(a->parent_exit, 3);
	assert_string_equal(a->loc, "x.lua:10");
	assert_string_equal(a->file, "x.lua");
	assert_int_equal(a->line, 10);
	assert_string_equal(a->reason, "NYI: bytecode VARG  ");
	assert_int_equal(intern_len(a->reason), 20);
	assert_string_equal(a->start_file, "x.lua");
	assert_ptr_equal(a->start_file, a->file);
	assert_int_equal(a->start_line, 9);
	assert_int_equal(a->line_no, 42);
	/* an abort is not a trace */
	assert_int_equal(w.rec.ntraces, 1);
	assert_int_equal(finish(&w), 0);
	assert_int_equal(w.rec.gen[0].n.aborts, 1);
	assert_int_equal(w.rec.gen[0].n.traces, 1);
	model_free(&w.model);
}

static void test_abort_without_start_has_no_start(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	struct pending_trace t;
	memset(&t, 0, sizeof(t));
	t.id = 5;
	t.started = 0;
	t.parent = 7;               /* ignored: no start header was seen */
	t.parent_exit = 1;
	t.loc_text = t.loc.file = "(?)";
	t.loc_len = t.loc.file_len = 3;
	t.loc.line = LOC_NO_LINE;
	const char *line = "string.byte -- leaving loop in root trace";
	struct header h;
	memset(&h, 0, sizeof(h));
	h.kind = HEADER_ABORT;
	h.id = 5;
	h.loc_text = line;
	h.loc_len = 11;
	loc_split(line, 11, &h.loc);
	h.reason = line + 15;
	h.reason_len = strlen(line + 15);
	struct event ev = { EV_ABORT, 1, &t, &h };
	assert_int_equal(model_event(&w.model, &ev), 0);
	struct da_abort *a = &w.rec.abort[0];
	assert_int_equal(a->parent, 0);
	assert_int_equal(a->parent_exit, PARENT_EXIT_NONE);
	assert_null(a->start_file);
	assert_int_equal(a->start_line, LOC_NO_LINE);
	assert_string_equal(a->file, "string.byte");
	assert_int_equal(a->line, LOC_NO_LINE);
	assert_string_equal(a->reason, "leaving loop in root trace");
	assert_int_equal(finish(&w), 0);
	model_free(&w.model);
}

static void test_incomplete_trace_is_counted_not_shown(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	struct pending_trace t;
	memset(&t, 0, sizeof(t));
	t.id = 3;
	t.started = 1;
	t.parent_exit = PARENT_EXIT_NONE;
	t.loc_text = t.loc.file = "x.lua";
	t.loc_len = t.loc.file_len = 5;
	t.loc.line = LOC_NO_LINE;
	struct event ev = { EV_INCOMPLETE, 9, &t, NULL };
	assert_int_equal(model_event(&w.model, &ev), 0);
	assert_int_equal(w.rec.ntraces, 0);
	assert_int_equal(finish(&w), 0);
	assert_int_equal(w.rec.gen[0].n.incomplete, 1);
	assert_int_equal(w.rec.gen[0].n.traces, 0);
	assert_int_equal(w.model.total.incomplete, 1);
	model_free(&w.model);
}

static void test_view_failure_stops_the_run(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	w.rec.fail_trace = -5;
	assert_int_equal(stop_root(&w, 1, "x.lua:1"), -5);
	model_free(&w.model);
}

/* ---- through the parser ----------------------------------------------- */

static void test_dump_lines_build_bushes_and_generations(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 1 start x.lua:1",
		"0001  KSHORT   2   1",
		"---- TRACE 1 IR",
		"0001    int SLOAD  #2    CI",
		"---- TRACE 1 mcode 10",
		"56031dd0ff4e  jge 0x56031dd00014\t->3",
		"---- TRACE 1 stop -> loop",
		"",
		"---- TRACE 1 exit 3",
		"---- TRACE 2 start 1/3 x.lua:4",
		"0002  ADDVN    1   1   0  ; 1",
		"---- TRACE 2 IR",
		"---- TRACE 2 mcode 20",
		"---- TRACE 2 stop -> 1",
		"",
		"---- TRACE 3 start 2/stitch x.lua:8",
		"---- TRACE 3 abort x.lua:9 -- NYI: bytecode 51",
		"",
		"---- TRACE flush",
		"",
		"---- TRACE 1 start 1/1 y.lua:2",
		"---- TRACE 1 IR",
		"---- TRACE 1 mcode 5",
		"---- TRACE 1 stop -> return",
		NULL
	};
	struct world w;
	world_start(&w);
	struct parser *p = parser_new(&w.diag, 0, model_event, &w.model);
	capture_begin();
	uint64_t n = 0;
	for (size_t i = 0; lines[i]; i++) {
		struct line l = { lines[i], strlen(lines[i]), ++n };
		assert_int_equal(parser_line(p, &l), 0);
	}
	assert_int_equal(parser_end(p, n), 0);
	assert_int_equal(model_finish(&w.model, n), 0);
	capture_end();
	parser_free(p);
	assert_int_equal(w.rec.ntraces, 3);
	assert_int_equal(w.rec.trace[0].nexits, 1);
	assert_int_equal(w.rec.trace[0].exits[0], 3);
	assert_int_equal(w.rec.trace[0].size_mc, 10);
	assert_ptr_equal(w.rec.trace[1].parent_trace, w.rec.trace[0].ptr);
	assert_ptr_equal(w.rec.exit[0].trace, w.rec.trace[0].ptr);
	assert_int_equal(w.rec.naborts, 1);
	assert_int_equal(w.rec.abort[0].parent, 2);
	assert_int_equal(w.rec.abort[0].parent_exit, PARENT_EXIT_STITCH);
	assert_string_equal(w.rec.abort[0].reason, "NYI: bytecode 51");
	/* generation 2: trace 1 says its parent is 1/1, which was flushed */
	assert_int_equal(w.rec.trace[2].gen, 2);
	assert_null(w.rec.trace[2].parent_trace);
	assert_int_equal(w.diag.warnings, 1);
	assert_int_equal(w.model.generations, 2);
	assert_int_equal(w.rec.gen[0].nbushes, 1);
	assert_int_equal(w.rec.gen[0].bush[0].ntraces, 2);
	assert_int_equal(w.rec.gen[0].bush[0].mcode_bytes, 30);
	assert_int_equal(w.rec.gen[0].n.aborts, 1);
	assert_int_equal(w.rec.gen[0].n.exits, 1);
	assert_int_equal(w.rec.gen[0].exit_count[0], 1);
	assert_int_equal(w.rec.gen[0].last_line, 19);
	assert_int_equal(w.rec.gen[1].first_line, 24);
	assert_int_equal(w.rec.gen[1].n.orphans, 1);
	model_free(&w.model);
}

/* ---- why it aborted: the attempt's last bytecode lines, normal form --- */

/* Feed lines through a parser (text kept or not) into w's model. */
static void feed(struct world *w, const char *const *lines, int keep_text)
{
	struct parser *p = parser_new(&w->diag, keep_text, model_event, &w->model);
	capture_begin();
	uint64_t n = 0;
	for (size_t i = 0; lines[i]; i++) {
		struct line l = { lines[i], strlen(lines[i]), ++n };
		assert_int_equal(parser_line(p, &l), 0);
	}
	assert_int_equal(parser_end(p, n), 0);
	assert_int_equal(model_finish(&w->model, n), 0);
	capture_end();
	parser_free(p);
}

static const char *const attempts20[] = {
	/* 1: six bytecode lines, IR between them and the abort (+a) */
	"---- TRACE 1 start x.lua:1",
	"0001  KSHORT   2   1",
	"0002  KSHORT   3   2",
	"0003  . FUNCC               ; string.find",
	"0004  MOV      4   3",
	"0005  ADDVN    1   1   0  ; 1",
	"0006  FNEW     6   0      ; x.lua:3",
	"---- TRACE 1 IR",
	"0001    int SLOAD  #2    CI",
	"---- TRACE 1 abort x.lua:3 -- NYI: bytecode 49",
	/* 2: no bytecode line: 51 read as 2.0's, which trace 1 showed */
	"---- TRACE 1 start x.lua:7",
	"---- TRACE 1 abort x.lua:7 -- NYI: bytecode 51",
	/* 3: a C function's address goes */
	"---- TRACE 1 start x.lua:9",
	"0000  . FUNCC               ; C:55e706e13ba0",
	"---- TRACE 1 abort x.lua:9 -- NYI: C function C:55e706e13ba0",
	/* 4: a Lua error while recording: no error name */
	"---- TRACE 1 start x.lua:11",
	"0007  GGET     0   0      ; \"f\"",
	"---- TRACE 1 abort x.lua:11 -- attempt to call a nil value",
	NULL
};

static void check_attempts20(int keep_text)
{
	struct world w;
	world_start(&w);
	feed(&w, attempts20, keep_text);
	assert_int_equal(w.rec.naborts, 4);
	const struct da_abort *a = w.rec.abort;
	assert_string_equal(a[0].reason, "NYI: bytecode 49");
	assert_string_equal(a[0].reason_normal, "NYI: bytecode FNEW");
	assert_string_equal(a[0].error, "NYIBC");
	assert_int_equal(a[0].line_no, 10);
	assert_int_equal(a[0].nbytecode, 4);      /* the last four, not the IR */
	assert_string_equal(w.rec.abort_bc[0][0], "0003  . FUNCC               ; string.find");
	assert_string_equal(w.rec.abort_bc[0][3], "0006  FNEW     6   0      ; x.lua:3");
	assert_int_equal(a[1].nbytecode, 0);
	assert_string_equal(a[1].reason_normal, "NYI: bytecode TDUP");
	assert_string_equal(a[2].reason_normal, "NYI: C function");
	assert_string_equal(a[2].error, "NYICF");
	assert_int_equal(a[2].nbytecode, 1);
	assert_string_equal(w.rec.abort_bc[2][0], "0000  . FUNCC               ; C:55e706e13ba0");
	assert_string_equal(a[3].reason_normal, "attempt to call a nil value");
	assert_null(a[3].error);
	assert_string_equal(w.rec.abort_bc[3][0], "0007  GGET     0   0      ; \"f\"");
	model_free(&w.model);
}

static void test_abort_keeps_last_bytecode_lines_and_normal_reason(void **s)
{
	(void)s;
	check_attempts20(0);
	check_attempts20(1);
}

static void test_abort_normal_reason_in_21_numbering(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 1 start x.lua:1",
		"0001  KSHORT   2   1       (x.lua:1)",
		"0002  VARG     9   0   2       (x.lua:2)",
		"---- TRACE 1 abort x.lua:2 -- NYI: bytecode 71",
		/* a stitch: only 2.1 stitches; then 51 without a bytecode line */
		"---- TRACE 2 start 1/stitch x.lua:4",
		"---- TRACE 2 abort x.lua:4 -- NYI: bytecode 51",
		/* 2.1 since 2024 writes names, padded */
		"---- TRACE 3 start x.lua:6",
		"---- TRACE 3 abort x.lua:6 -- NYI: bytecode UCLO  ",
		NULL
	};
	struct world w;
	world_start(&w);
	feed(&w, lines, 0);
	assert_int_equal(w.rec.naborts, 3);
	assert_string_equal(w.rec.abort[0].reason_normal, "NYI: bytecode VARG");
	assert_string_equal(w.rec.abort_bc[0][1], "0002  VARG     9   0   2       (x.lua:2)");
	assert_string_equal(w.rec.abort[1].reason_normal, "NYI: bytecode FNEW");
	assert_string_equal(w.rec.abort[2].reason, "NYI: bytecode UCLO  ");
	assert_string_equal(w.rec.abort[2].reason_normal, "NYI: bytecode UCLO");
	assert_string_equal(w.rec.abort[2].error, "NYIBC");
	model_free(&w.model);
}

static void test_abort_normal_reason_from_vmdef(void **s)
{
	(void)s;
	static const char text[] = "return {\nbcnames = \"ISLT  ISGE  MYOP  \",\n}\n";
	static const char *const lines[] = {
		"---- TRACE 1 start x.lua:1",
		"0001  ISLT     2   1",
		"---- TRACE 1 abort x.lua:2 -- NYI: bytecode 2",
		NULL
	};
	struct vmdef vm;
	assert_int_equal(vmdef_parse(text, strlen(text), &vm), 0);
	assert_int_equal(vm.nbc, 3);
	struct world w;
	world_start(&w);
	w.model.vmdef = &vm;
	feed(&w, lines, 0);
	assert_int_equal(w.rec.naborts, 1);
	assert_string_equal(w.rec.abort[0].reason_normal, "NYI: bytecode MYOP");
	model_free(&w.model);
}

static void test_vmdef_text(void **s)
{
	(void)s;
	struct vmdef vm;
	static const char real[] = "-- This is a generated file. DO NOT EDIT!\n\nreturn {\n\n"
		"bcnames = \"ISLT  ISGE  ISTYPEISNUM FNEW  \",\n\nirnames = \"LT    \",\n";
	assert_int_equal(vmdef_parse(real, strlen(real), &vm), 0);
	assert_int_equal(vm.nbc, 5);
	assert_string_equal(vm.bc[2], "ISTYPE");
	assert_string_equal(vmdef_bcname(&vm, "4", 1), "FNEW");
	assert_null(vmdef_bcname(&vm, "5", 1));
	assert_null(vmdef_bcname(&vm, "FNEW", 4));
	static const char other_key[] = "xbcnames = \"ISLT  \"";
	assert_int_equal(vmdef_parse(other_key, strlen(other_key), &vm), -2);
	static const char ragged[] = "bcnames = \"ISLT  ISG\"";
	assert_int_equal(vmdef_parse(ragged, strlen(ragged), &vm), -2);
	static const char lower[] = "bcnames = \"islt  \"";
	assert_int_equal(vmdef_parse(lower, strlen(lower), &vm), -2);
	assert_int_equal(vmdef_parse("", 0, &vm), -2);
}

#define T(f) cmocka_unit_test_teardown(f, restore_stderr)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_root_trace_starts_a_new_bush),
		T(test_side_trace_joins_bush_of_its_parent),
		T(test_side_of_side_trace_joins_the_same_bush),
		T(test_side_trace_attaches_to_latest_holder_of_reused_number),
		T(test_second_bush_with_same_root_number_has_dup_2),
		T(test_stitch_start_has_no_parent_bush),
		T(test_orphan_side_trace_becomes_root_with_warning),
		T(test_orphan_in_strict_mode_is_fatal),
		T(test_flush_ends_a_generation),
		T(test_two_flushes_in_a_row_give_an_empty_generation),
		T(test_side_trace_after_flush_does_not_find_old_parent),
		T(test_model_finish_ends_the_last_generation),
		T(test_finish_after_flush_is_an_empty_last_generation),
		T(test_empty_input_is_one_empty_generation),
		T(test_exit_records_find_their_trace),
		T(test_exit_after_number_reuse_finds_latest_holder),
		T(test_exit_before_any_trace_has_no_trace),
		T(test_trace_exits_are_copied),
		T(test_strings_are_interned_copies),
		T(test_abort_after_start_carries_start_and_reason),
		T(test_abort_without_start_has_no_start),
		T(test_incomplete_trace_is_counted_not_shown),
		T(test_view_failure_stops_the_run),
		T(test_dump_lines_build_bushes_and_generations),
		T(test_abort_keeps_last_bytecode_lines_and_normal_reason),
		T(test_abort_normal_reason_in_21_numbering),
		T(test_abort_normal_reason_from_vmdef),
		T(test_vmdef_text),
	};
	return cmocka_run_group_tests_name("model", tests, NULL, NULL);
}
