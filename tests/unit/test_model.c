/* test_model.c — bushes, parents, generations, built from parser events
 * fed with dump-shaped lines. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "dumpanalyze/model.h"
#include "dumpanalyze/parser.h"
#include "dumpanalyze/view.h"

/* A test view that records what the model hands to views. */
struct seen_trace { uint32_t id, gen, bush_root, bush_dup, parent_of; int has_parent; };
struct record {
	struct seen_trace traces[32];
	int ntraces;
	uint32_t gens_begun, gens_ended, bushes_at_end[8], traces_at_end[8];
	uint32_t exits, exit_found[8];
	uint32_t aborts;
};

static int rec_gen_begin(struct view_ctx *c, const struct gen *g)
{
	struct record *r = c->state;
	assert_int_equal(g->number, r->gens_begun + 1);
	r->gens_begun++;
	return 0;
}

static int rec_trace(struct view_ctx *c, const struct trace *t)
{
	struct record *r = c->state;
	struct seen_trace *s = &r->traces[r->ntraces++];
	s->id = t->id;
	s->gen = t->gen;
	s->bush_root = t->bush->root->id;
	s->bush_dup = t->bush->dup;
	s->has_parent = t->parent_trace != NULL;
	s->parent_of = t->parent_trace ? t->parent_trace->id : 0;
	return 0;
}

static int rec_exit(struct view_ctx *c, const struct exit_rec *e)
{
	struct record *r = c->state;
	r->exit_found[r->exits++] = e->trace ? e->trace->id : 0;
	return 0;
}

static int rec_abort(struct view_ctx *c, const struct abort_rec *a)
{
	struct record *r = c->state;
	(void)a;
	r->aborts++;
	return 0;
}

static int rec_gen_end(struct view_ctx *c, const struct gen *g)
{
	struct record *r = c->state;
	r->bushes_at_end[r->gens_ended] = (uint32_t)g->n.bushes;
	r->traces_at_end[r->gens_ended] = (uint32_t)g->n.traces;
	r->gens_ended++;
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

struct world {
	struct diag diag;
	struct record rec;
	struct view_ctx ctx;
	struct view_set views;
	struct model model;
	struct parser *parser;
	uint64_t line;
};

static void world_start(struct world *w)
{
	memset(w, 0, sizeof(*w));
	diag_init(&w->diag, "t.dump");
	w->ctx.view = &recorder;
	w->ctx.state = &w->rec;
	w->ctx.diag = &w->diag;
	w->views.ctx = &w->ctx;
	w->views.n = 1;
	model_init(&w->model, &w->diag, &w->views);
	w->parser = parser_new(&w->diag, 0, model_event, &w->model);
}

static void feed(struct world *w, const char *const *lines)
{
	for (size_t i = 0; lines[i]; i++) {
		struct line l = { lines[i], strlen(lines[i]), ++w->line };
		assert_true(parser_line(w->parser, &l) >= 0);
	}
}

/* One whole trace: start header (with its parent part), stop link. */
static void trace(struct world *w, const char *start, const char *id, const char *link)
{
	char h1[96], h2[64], h3[64], h4[64];
	snprintf(h1, sizeof(h1), "---- TRACE %s start %s", id, start);
	snprintf(h2, sizeof(h2), "---- TRACE %s IR", id);
	snprintf(h3, sizeof(h3), "---- TRACE %s mcode 10", id);
	snprintf(h4, sizeof(h4), "---- TRACE %s stop -> %s", id, link);
	const char *const lines[] = { h1, "0001  KSHORT   2   1", h2, h3, h4, "", NULL };
	feed(w, lines);
}

static void world_end(struct world *w)
{
	assert_true(parser_end(w->parser, w->line) >= 0);
	assert_true(model_finish(&w->model, w->line) >= 0);
	parser_free(w->parser);
	model_free(&w->model);
}

static void test_side_trace_joins_parent_bush(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	trace(&w, "x.lua:1", "1", "loop");
	trace(&w, "1/3 x.lua:4", "2", "1");
	trace(&w, "2/0 x.lua:5", "3", "1");
	world_end(&w);
	assert_int_equal(w.rec.ntraces, 3);
	assert_int_equal(w.rec.traces[1].bush_root, 1);
	assert_int_equal(w.rec.traces[1].parent_of, 1);
	assert_int_equal(w.rec.traces[2].bush_root, 1);
	assert_int_equal(w.rec.traces[2].parent_of, 2);
	assert_int_equal(w.rec.bushes_at_end[0], 1);
	assert_int_equal(w.model.total.side, 2);
	assert_int_equal(w.model.total.root, 1);
}

static void test_parent_is_latest_holder_of_the_number(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	trace(&w, "a.lua:1", "1", "loop");
	trace(&w, "b.lua:7", "1", "loop");     /* number 1 reused */
	trace(&w, "1/2 b.lua:8", "2", "1");
	world_end(&w);
	assert_int_equal(w.rec.traces[1].bush_dup, 2);
	assert_int_equal(w.rec.traces[2].bush_root, 1);
	assert_int_equal(w.rec.traces[2].bush_dup, 2);   /* the second bush 1 */
	assert_int_equal(w.rec.bushes_at_end[0], 2);
}

static void test_stitched_trace_roots_own_bush(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	trace(&w, "x.lua:1", "4", "stitch");
	trace(&w, "4/stitch x.lua:3", "5", "return");
	world_end(&w);
	assert_int_equal(w.rec.traces[1].bush_root, 5);
	assert_false(w.rec.traces[1].has_parent);
	assert_int_equal(w.model.total.stitched, 1);
	assert_int_equal(w.rec.bushes_at_end[0], 2);
}

static void test_orphan_side_trace_roots_own_bush_with_warning(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	trace(&w, "9/1 x.lua:3", "10", "9");
	world_end(&w);
	assert_int_equal(w.rec.traces[0].bush_root, 10);
	assert_false(w.rec.traces[0].has_parent);
	assert_int_equal(w.model.total.orphans, 1);
	assert_int_equal(w.diag.warnings, 1);
}

static void test_flush_ends_generation_and_numbers_start_over(void **s)
{
	(void)s;
	static const char *const flush[] = { "---- TRACE flush", "", NULL };
	struct world w;
	world_start(&w);
	trace(&w, "x.lua:1", "1", "loop");
	feed(&w, flush);
	feed(&w, flush);            /* back to back: an empty generation */
	trace(&w, "1/1 x.lua:2", "2", "1");   /* parent 1 is gone */
	world_end(&w);
	assert_int_equal(w.model.generations, 3);
	assert_int_equal(w.rec.gens_begun, 3);
	assert_int_equal(w.rec.gens_ended, 3);
	assert_int_equal(w.rec.traces_at_end[0], 1);
	assert_int_equal(w.rec.traces_at_end[1], 0);
	assert_int_equal(w.rec.traces_at_end[2], 1);
	assert_int_equal(w.rec.traces[1].gen, 3);
	assert_int_equal(w.model.total.orphans, 1);
}

static void test_empty_input_is_one_empty_generation(void **s)
{
	(void)s;
	struct world w;
	world_start(&w);
	world_end(&w);
	assert_int_equal(w.model.generations, 1);
	assert_int_equal(w.rec.gens_ended, 1);
	assert_int_equal(w.rec.traces_at_end[0], 0);
}

static void test_exits_find_their_trace(void **s)
{
	(void)s;
	static const char *const exits[] = { "---- TRACE 1 exit 3", "---- TRACE 7 exit 0", NULL };
	struct world w;
	world_start(&w);
	trace(&w, "x.lua:1", "1", "loop");
	feed(&w, exits);
	world_end(&w);
	assert_int_equal(w.rec.exits, 2);
	assert_int_equal(w.rec.exit_found[0], 1);
	assert_int_equal(w.rec.exit_found[1], 0);     /* no trace 7 */
	assert_int_equal(w.model.total.exits, 2);
}

static void test_aborts_and_incomplete_are_counted(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 2 start x.lua:1",
		"---- TRACE 2 abort x.lua:2 -- NYI: bytecode 71",
		"",
		"---- TRACE 2 start x.lua:5",
		"0001  KSHORT   2   1",
		NULL
	};
	struct world w;
	world_start(&w);
	feed(&w, lines);
	world_end(&w);
	assert_int_equal(w.rec.aborts, 1);
	assert_int_equal(w.model.total.aborts, 1);
	assert_int_equal(w.model.total.incomplete, 1);
	assert_int_equal(w.model.total.traces, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_side_trace_joins_parent_bush),
		cmocka_unit_test(test_parent_is_latest_holder_of_the_number),
		cmocka_unit_test(test_stitched_trace_roots_own_bush),
		cmocka_unit_test(test_orphan_side_trace_roots_own_bush_with_warning),
		cmocka_unit_test(test_flush_ends_generation_and_numbers_start_over),
		cmocka_unit_test(test_empty_input_is_one_empty_generation),
		cmocka_unit_test(test_exits_find_their_trace),
		cmocka_unit_test(test_aborts_and_incomplete_are_counted),
	};
	return cmocka_run_group_tests_name("model", tests, NULL, NULL);
}
