/* test_bush_draw.c — bush pictures: which blocks and exits, where, how
 * big, in which colours; built from hand-made model records. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <cairo.h>
#include "draw/bush_draw.h"
#include "draw/bush_files.h"
#include "draw/picture.h"
#include "util/intern.h"
#include "outdir/outdir.h"
#include "draw/bush_queue.h"
#include "draw/bush_wire.h"

#define MAXT 400

struct world {
	struct intern strings;
	struct da_trace t[MAXT];
	uint16_t exits[MAXT][8];
	struct da_bush bush;
	size_t n;
};

static struct world *world_new(void)
{
	struct world *w = calloc(1, sizeof(*w));
	intern_init(&w->strings);
	return w;
}

static void world_free(struct world *w)
{
	intern_free(&w->strings);
	free(w);
}

/* Add trace `id`; parent < 0 for the root, else index of the parent trace
 * and the exit it grew from.  mcode exits 0..nexits-1. */
static struct da_trace *add(struct world *w, uint32_t id, int parent, int32_t pexit,
                         uint32_t nexits, const char *loc, enum da_link lk)
{
	struct da_trace *t = &w->t[w->n];
	memset(t, 0, sizeof(*t));
	t->id = id;
	t->seq = (uint32_t)w->n;
	t->loc = intern_get(&w->strings, loc, strlen(loc));
	t->file = t->loc;
	t->link_kind = lk;
	t->link = intern_get(&w->strings, link_kind_word(lk), strlen(link_kind_word(lk)));
	t->parent_exit = PARENT_EXIT_NONE;
	t->num_ir = 10;
	t->size_mc = 100;
	for (uint32_t k = 0; k < nexits && k < 8; k++)
		w->exits[w->n][k] = (uint16_t)k;
	t->exits = w->exits[w->n];
	t->nexits = nexits < 8 ? nexits : 8;
	t->bush = &w->bush;
	if (parent >= 0) {
		t->parent_trace = &w->t[parent];
		t->parent = w->t[parent].id;
		t->parent_exit = pexit;
		w->t[w->n - 1].next_in_bush = t;
	} else {
		w->bush.root = t;
	}
	w->bush.last = t;
	w->bush.ntraces++;
	w->bush.mcode_bytes += t->size_mc;
	w->bush.dup = 1;
	w->n++;
	return t;
}

static const struct exit_counts no_counts = { NULL, 0 };

static void test_blocks_root_first_with_parents_and_exits(void **s)
{
	(void)s;
	struct world *w = world_new();
	add(w, 1, -1, 0, 4, "a.lua:1", DA_LINK_LOOP);     /* exits 0..3 */
	add(w, 2, 0, 3, 1, "a.lua:2", DA_LINK_ROOT);
	add(w, 3, 0, 1, 1, "a.lua:3", DA_LINK_RETURN);
	add(w, 4, 1, 5, 0, "a.lua:4", DA_LINK_INTERPRETER);   /* exit 5 not in mcode */
	struct bush_picture p;
	assert_int_equal(bush_picture_build(&p, &w->bush, 1, &no_counts), 0);
	assert_int_equal(p.nblocks, 4);
	uint32_t ids[4] = { 1, 2, 3, 4 }, parents[4] = { UINT32_MAX, 0, 0, 1 };
	for (int i = 0; i < 4; i++) {
		assert_int_equal(p.blocks[i].trace->id, ids[i]);
		assert_int_equal(p.blocks[i].parent_block, parents[i]);
	}
	assert_int_equal(p.blocks[0].nexits, 4);
	assert_int_equal(p.blocks[0].exits[1].sides, 1);
	assert_int_equal(p.blocks[0].exits[3].sides, 1);
	assert_int_equal(p.blocks[0].exits[0].sides, 0);
	assert_int_equal(p.blocks[1].nexits, 2);            /* 0, and 5 for trace 4 */
	assert_int_equal(p.blocks[1].exits[1].exit, 5);
	/* siblings in exit order: trace 3 (exit 1) left of trace 2 (exit 3) */
	assert_true(p.blocks[2].x + p.blocks[2].w < p.blocks[1].x);
	/* children below their parent, parent centred over its children */
	assert_true(p.blocks[1].y > p.blocks[0].y + p.blocks[0].h);
	double mid = (p.blocks[2].x + p.blocks[1].x + p.blocks[1].w) / 2;
	assert_true(fabs(p.blocks[0].x + p.blocks[0].w / 2 - mid) < 1e-6);
	assert_true(p.scale == 1.0);
	bush_picture_free(&p);
	world_free(w);
}

static cairo_surface_t *draw(const struct bush_picture *p);

/* A bush of n traces: a chain (each side trace grown from exit 0 of the
 * one before, as a 65k-deep chain of real dumps) or a fan (trace k from
 * exit k - 1 of the root); every trace's machine code references 2
 * exits. */
struct big_bush {
	struct da_trace *t;
	uint16_t exits[2];
	struct da_bush bush;
	struct intern strings;
};

static void big_bush(struct big_bush *b, uint32_t n, int chain)
{
	memset(b, 0, sizeof(*b));
	intern_init(&b->strings);
	b->t = calloc(n, sizeof(*b->t));
	assert_non_null(b->t);
	b->exits[1] = 1;
	const char *loc = intern_get(&b->strings, "c.lua:9", 7);
	const char *link = intern_get(&b->strings, "return", 6);
	for (uint32_t i = 0; i < n; i++) {
		struct da_trace *t = &b->t[i];
		t->id = i + 1;
		t->seq = i;
		t->loc = t->file = loc;
		t->link = link;
		t->link_kind = DA_LINK_RETURN;
		t->exits = b->exits;
		t->nexits = 2;
		t->bush = &b->bush;
		t->parent_exit = PARENT_EXIT_NONE;
		if (i) {
			t->parent_trace = chain ? &b->t[i - 1] : &b->t[0];
			t->parent = t->parent_trace->id;
			t->parent_exit = chain ? 0 : (int32_t)(i - 1);
			b->t[i - 1].next_in_bush = t;
		}
	}
	b->bush.root = &b->t[0];
	b->bush.last = &b->t[n - 1];
	b->bush.ntraces = n;
}

/* Building a bush's picture costs work linear in its traces and exits,
 * counted (never timed): per trace the same from a thousand traces to
 * 65,535, for a chain that deep as for a fan that wide (issue 26: the
 * chain was quadratic, every block looking at every other for its side
 * traces). */
static void test_building_is_linear_in_the_traces(void **s)
{
	(void)s;
	static const uint32_t sizes[] = { 1000, 8000, 65535 };
	uint64_t per[2][3];
	for (int chain = 0; chain <= 1; chain++)
		for (size_t k = 0; k < 3; k++) {
			struct big_bush b;
			big_bush(&b, sizes[k], chain);
			struct bush_picture p;
			assert_int_equal(bush_picture_build(&p, &b.bush, 1, &no_counts), 0);
			assert_int_equal(p.nblocks, sizes[k]);
			/* the last trace hangs from its parent's exit row */
			const struct bush_block *last = &p.blocks[sizes[k] - 1];
			const struct bush_block *par = &p.blocks[last->parent_block];
			uint32_t row = exit_row(par, (uint32_t)last->trace->parent_exit);
			assert_true(row < par->nexits);
			assert_int_equal(par->exits[row].sides, 1);
			assert_true(last->y > par->y + par->h);
			per[chain][k] = p.steps * 1000 / sizes[k];
			assert_true(p.steps <= 24 * (uint64_t)sizes[k]);
			bush_picture_free(&p);
			free(b.t);
			intern_free(&b.strings);
		}
	for (int chain = 0; chain <= 1; chain++)
		for (size_t k = 1; k < 3; k++)
			assert_true(per[chain][k] * 100 <= per[chain][0] * 101 &&
			            per[chain][0] * 100 <= per[chain][k] * 101);
	assert_true(per[1][2] * 5 <= per[0][2] * 6 && per[0][2] * 5 <= per[1][2] * 6);
}

/* Three or more quiet exits in a row (not taken, no side trace) are one
 * row that names the first and last and counts them; fewer stay rows. */
static void test_quiet_exit_runs_are_one_row(void **s)
{
	(void)s;
	struct world *w = world_new();
	add(w, 1, -1, 0, 8, "q.lua:1", DA_LINK_LOOP);     /* exits 0..7 */
	add(w, 2, 0, 4, 8, "q.lua:2", DA_LINK_ROOT);      /* from 1/4 */
	add(w, 3, 1, 2, 0, "q.lua:3", DA_LINK_ROOT);      /* from 2/2 */
	add(w, 4, 1, 5, 0, "q.lua:4", DA_LINK_ROOT);      /* from 2/5 */
	struct bush_picture p;
	assert_int_equal(bush_picture_build(&p, &w->bush, 1, &no_counts), 0);
	/* trace 1: 0-3 (4 exits), 4 (side), 5-7 (3 exits) */
	assert_int_equal(p.blocks[0].nexits, 3);
	const struct exit_node *x = p.blocks[0].exits;
	assert_int_equal(x[0].exit, 0);
	assert_int_equal(x[0].last, 3);
	assert_int_equal(x[0].run, 4);
	assert_int_equal(x[1].exit, 4);
	assert_int_equal(x[1].run, 1);
	assert_int_equal(x[1].sides, 1);
	assert_int_equal(x[2].exit, 5);
	assert_int_equal(x[2].last, 7);
	assert_int_equal(x[2].run, 3);
	/* trace 2: 0, 1, 2 (side), 3, 4, 5 (side), 6, 7: runs too short */
	assert_int_equal(p.blocks[1].nexits, 8);
	for (uint32_t k = 0; k < 8; k++) {
		assert_int_equal(p.blocks[1].exits[k].exit, k);
		assert_int_equal(p.blocks[1].exits[k].run, 1);
	}
	/* the side edge still finds its exit's row */
	cairo_surface_t *sf = draw(&p);
	cairo_surface_destroy(sf);
	bush_picture_free(&p);
	world_free(w);
}

static void test_exit_counts_annotate_exits(void **s)
{
	(void)s;
	struct world *w = world_new();
	struct da_trace *root = add(w, 7, -1, 0, 2, "b.lua:9", DA_LINK_LOOP);
	struct tally taken;
	tally_init(&taken);
	tally_add(&taken, root, NULL, EXIT_KEY(7, 1), 7);
	tally_add(&taken, root, NULL, EXIT_KEY(7, 9), 2);     /* taken, not in the mcode */
	struct exit_counts ec;
	exit_counts_build(&ec, &taken);
	assert_int_equal(exit_counts_get(&ec, root, 1), 7);
	assert_int_equal(exit_counts_get(&ec, root, 0), 0);
	struct bush_picture p;
	assert_int_equal(bush_picture_build(&p, &w->bush, 1, &ec), 0);
	assert_int_equal(p.blocks[0].nexits, 3);
	assert_int_equal(p.blocks[0].exits[1].count, 7);
	assert_int_equal(p.blocks[0].exits[2].exit, 9);
	assert_int_equal(p.blocks[0].exits[2].count, 2);
	assert_int_equal(p.hottest, 7);
	bush_picture_free(&p);
	exit_counts_free(&ec);
	tally_free(&taken);
	world_free(w);
}

static void test_canvas_grows_with_the_bush(void **s)
{
	(void)s;
	double last_h = 0, last_w = 0;
	static const int sizes[] = { 1, 2, 5, 10, 20 };
	for (size_t k = 0; k < 5; k++) {
		/* a chain: each side trace from exit 0 of the one before */
		struct world *w = world_new();
		add(w, 1, -1, 0, 1, "c.lua:1", DA_LINK_LOOP);
		for (int i = 1; i < sizes[k]; i++)
			add(w, (uint32_t)i + 1, i - 1, 0, 1, "c.lua:2", DA_LINK_ROOT);
		struct bush_picture p;
		bush_picture_build(&p, &w->bush, 1, &no_counts);
		/* the drawing's size; the canvas follows it up to the cap */
		assert_true(p.content_h > last_h);
		last_h = p.content_h;
		bush_picture_free(&p);
		world_free(w);
		/* a fan: side traces from the root's exits */
		w = world_new();
		add(w, 1, -1, 0, 8, "c.lua:1", DA_LINK_LOOP);
		for (int i = 1; i < sizes[k]; i++)
			add(w, (uint32_t)i + 1, 0, i % 8, 1, "c.lua:2", DA_LINK_ROOT);
		bush_picture_build(&p, &w->bush, 1, &no_counts);
		assert_true(p.content_w >= last_w);
		if (sizes[k] > 3)
			assert_true(p.content_w > last_w);
		assert_true(p.width <= BUSH_CANVAS_MAX && p.height <= BUSH_CANVAS_MAX);
		last_w = p.content_w;
		bush_picture_free(&p);
		world_free(w);
	}
}

/* Each title line fits the picture, whose width is at least the title's
 * widest line; returns the number of lines. */
static int title_lines_fit(const struct bush_picture *p)
{
	int lines = 0;
	for (const char *t = p->title; ; lines++) {
		const char *nl = strchr(t, '\n');
		size_t n = nl ? (size_t)(nl - t) : strlen(t);
		assert_true(n > 0);
		assert_true(n * 14 * PICTURE_CHAR_W <= p->content_w - 48 + 1e-9);
		if (!nl)
			return lines + 1;
		t = nl + 1;
	}
}

/* A bush of one column: the title wraps instead of widening the picture
 * to twice the column; a wide bush has it on one line. */
static void test_title_wraps_on_narrow_bushes(void **s)
{
	(void)s;
	struct world *w = world_new();
	add(w, 1, -1, 0, 3, "c.lua:1", DA_LINK_LOOP);
	struct bush_picture p;
	assert_int_equal(bush_picture_build(&p, &w->bush, 7, &no_counts), 0);
	assert_string_equal(p.title, "gen 7  bush 1  1 trace\n100 B mcode");
	assert_int_equal(title_lines_fit(&p), 2);
	assert_true(p.content_w < 300);
	assert_true(p.blocks[0].y >= 24 + 2 * 18);      /* below the title */
	bush_picture_free(&p);
	world_free(w);

	w = world_new();
	add(w, 1, -1, 0, 8, "c.lua:1", DA_LINK_LOOP);
	for (uint32_t i = 2; i <= 9; i++)
		add(w, i, 0, (int32_t)(i - 2), 1, "c.lua:2", DA_LINK_ROOT);
	assert_int_equal(bush_picture_build(&p, &w->bush, 7, &no_counts), 0);
	assert_string_equal(p.title, "gen 7  bush 1  9 traces  900 B mcode");
	assert_int_equal(title_lines_fit(&p), 1);
	bush_picture_free(&p);
	world_free(w);
}

static void test_huge_bush_is_scaled_to_the_cap(void **s)
{
	(void)s;
	struct world *w = world_new();
	add(w, 1, -1, 0, 8, "d.lua:1", DA_LINK_LOOP);
	for (int i = 1; i < 300; i++)
		add(w, (uint32_t)i + 1, 0, i % 8, 1, "d.lua:2", DA_LINK_ROOT);
	struct bush_picture p;
	bush_picture_build(&p, &w->bush, 1, &no_counts);
	assert_true(p.content_w > BUSH_CANVAS_MAX);
	assert_true(p.scale < 1.0);
	assert_true(p.width <= BUSH_CANVAS_MAX && p.height <= BUSH_CANVAS_MAX);
	assert_true(p.width >= BUSH_CANVAS_MAX - 1);
	bush_picture_free(&p);
	world_free(w);
}

static cairo_surface_t *draw(const struct bush_picture *p)
{
	cairo_surface_t *sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)p->width, (int)p->height);
	cairo_t *cr = cairo_create(sf);
	bush_picture_draw(p, cr);
	assert_int_equal(cairo_status(cr), CAIRO_STATUS_SUCCESS);
	cairo_destroy(cr);
	cairo_surface_flush(sf);
	return sf;
}

static int count_colour(cairo_surface_t *sf, int r, int g, int b, int tol)
{
	int n = 0, w = cairo_image_surface_get_width(sf), h = cairo_image_surface_get_height(sf);
	int stride = cairo_image_surface_get_stride(sf);
	unsigned char *data = cairo_image_surface_get_data(sf);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			uint32_t px;
			memcpy(&px, data + y * stride + x * 4, 4);
			int pr = (px >> 16) & 255, pg = (px >> 8) & 255, pb = px & 255;
			n += abs(pr - r) <= tol && abs(pg - g) <= tol && abs(pb - b) <= tol;
		}
	return n;
}

static void test_root_drawn_in_crimson_deterministically(void **s)
{
	(void)s;
	struct world *w = world_new();
	add(w, 1, -1, 0, 3, "e.lua:1", DA_LINK_LOOP);
	add(w, 2, 0, 1, 1, "e.lua:5", DA_LINK_ROOT);
	struct bush_picture p;
	bush_picture_build(&p, &w->bush, 1, &no_counts);
	cairo_surface_t *a = draw(&p), *b = draw(&p);
	int crimson = count_colour(a, (int)(BUSH_ROOT_R * 255 + .5), (int)(BUSH_ROOT_G * 255 + .5),
	                           (int)(BUSH_ROOT_B * 255 + .5), 2);
	assert_true(crimson > 200);
	size_t bytes = (size_t)cairo_image_surface_get_stride(a) * (size_t)p.height;
	assert_memory_equal(cairo_image_surface_get_data(a), cairo_image_surface_get_data(b), bytes);
	cairo_surface_destroy(a);
	cairo_surface_destroy(b);
	bush_picture_free(&p);
	world_free(w);
}

static void test_hostile_chunk_names_draw(void **s)
{
	(void)s;
	struct world *w = world_new();
	add(w, 1, -1, 0, 1, "\"bad \xff\xfe utf8\nand a newline\x01\":3", DA_LINK_OTHER);
	struct bush_picture p;
	bush_picture_build(&p, &w->bush, 1, &no_counts);
	cairo_surface_t *sf = draw(&p);
	cairo_surface_destroy(sf);
	bush_picture_free(&p);
	world_free(w);
}

static void draw_packed(cairo_t *cr, const void *p)
{
	bush_picture_draw(p, cr);
}

/* The picture as PNG bytes in memory. */
static char *png_bytes(const struct bush_picture *p, size_t *n)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, n);
	assert_int_equal(picture_write(fp, PICTURE_PNG, p->width, p->height, draw_packed, p), 0);
	fclose(fp);
	return buf;
}

/* A picture sent to a worker draws the same bytes as the one built here:
 * location bytes past a NUL, the link's text, exit counts, parents. */
static void test_packed_picture_draws_the_same(void **s)
{
	(void)s;
	struct world *w = world_new();
	static const char loc[] = "\"odd\0name\xff\":3";
	struct da_trace *r = add(w, 1, -1, 0, 3, "x", DA_LINK_OTHER);
	r->loc = intern_get(&w->strings, loc, sizeof(loc) - 1);
	r->link = intern_get(&w->strings, "stitch", 6);
	add(w, 2, 0, 1, 2, "f.lua:5", DA_LINK_ROOT)->link_target = 1;
	add(w, 3, 1, 0, 0, "f.lua:9", DA_LINK_LOOP);
	struct bush_picture p;
	assert_int_equal(bush_picture_build(&p, &w->bush, 4, &no_counts), 0);
	p.hottest = 40;
	p.blocks[0].exits[1].count = 40;
	struct strbuf msg = STRBUF_INIT;
	bush_wire_pack(&msg, &p, "gen-4-bush-1.png");
	struct bush_wire_picture wp;
	assert_int_equal(bush_wire_unpack(&wp, msg.buf, msg.len), 0);
	assert_string_equal(wp.name, "gen-4-bush-1.png");
	assert_int_equal(wp.p.nblocks, 3);
	assert_int_equal(wp.p.blocks[0].loc_len, sizeof(loc) - 1);
	assert_memory_equal(wp.p.blocks[0].trace->loc, loc, sizeof(loc) - 1);
	assert_string_equal(wp.p.blocks[0].trace->link, "stitch");
	assert_int_equal(wp.p.blocks[2].parent_block, 1);
	assert_int_equal(wp.p.bush->root->id, 1);
	size_t na, nb;
	char *a = png_bytes(&p, &na), *b = png_bytes(&wp.p, &nb);
	assert_true(na > 100);
	assert_int_equal(na, nb);
	assert_memory_equal(a, b, na);
	free(a);
	free(b);
	bush_wire_free(&wp);
	/* every message cut short is refused, none read past its end */
	size_t cuts = 0;
	for (size_t n = 0; n < msg.len; n++, cuts++)
		assert_int_equal(bush_wire_unpack(&wp, msg.buf, n), -1);
	assert_int_equal(cuts, msg.len);
	strbuf_release(&msg);
	bush_picture_free(&p);
	world_free(w);
}

static void test_bush_file_names(void **s)
{
	(void)s;
	struct da_trace root;
	struct da_bush b;
	memset(&root, 0, sizeof(root));
	memset(&b, 0, sizeof(b));
	root.id = 12;
	b.root = &root;
	b.dup = 1;
	char buf[64];
	bush_file_name(buf, sizeof(buf), &b, "txt");
	assert_string_equal(buf, "bush-12.txt");
	b.dup = 2;
	bush_file_name(buf, sizeof(buf), &b, "png");
	assert_string_equal(buf, "bush-12.2.png");
}

static void test_files_written_with_picture_size(void **s)
{
	(void)s;
	char dir[] = "/tmp/da-pictures-XXXXXX";
	assert_non_null(mkdtemp(dir));
	struct world *w = world_new();
	add(w, 3, -1, 0, 2, "f.lua:1", DA_LINK_LOOP);
	add(w, 4, 0, 1, 1, "f.lua:5", DA_LINK_ROOT);
	struct gen_state gs;
	memset(&gs, 0, sizeof(gs));
	gs.pub.number = 2;
	gs.pub.bushes = &w->bush;
	struct outdir *out = outdir_open(dir);
	unsigned long left_out = 0;
	struct bush_queue jobs;
	memset(&jobs, 0, sizeof(jobs));
	tally_init(&gs.exits);
	/* larger than 10 px: left out, counted, no file (checked below: the
	 * files are the two drawn next, and only they are written) */
	struct bush_choice tiny = { 2, 10 }, several = { 2, 0 }, all = { 1, 0 };
	assert_int_equal(bush_draw_generation(out, 1, &jobs, &gs.pub, PICTURE_PNG, tiny, &left_out), 0);
	assert_int_equal(left_out, 1);
	assert_int_equal(outdir_files_written(out), 0);
	assert_int_equal(bush_draw_generation(out, 1, &jobs, &gs.pub, PICTURE_PNG, several, &left_out), 0);
	assert_int_equal(bush_draw_generation(out, 1, &jobs, &gs.pub, PICTURE_SVG, all, &left_out), 0);
	assert_int_equal(left_out, 1);
	assert_int_equal(bush_queue_finish(&jobs), 0);
	assert_int_equal(outdir_publish(out), 0);
	outdir_close(out);
	struct bush_picture p;
	struct exit_counts ec = { NULL, 0 };
	bush_picture_build(&p, &w->bush, 2, &ec);

	char path[128];
	snprintf(path, sizeof(path), "%s/gen-2-bush-3.png", dir);
	cairo_surface_t *png = cairo_image_surface_create_from_png(path);
	assert_int_equal(cairo_surface_status(png), CAIRO_STATUS_SUCCESS);
	assert_int_equal(cairo_image_surface_get_width(png), (int)p.width);
	assert_int_equal(cairo_image_surface_get_height(png), (int)p.height);
	cairo_surface_destroy(png);

	snprintf(path, sizeof(path), "%s/gen-2-bush-3.svg", dir);
	FILE *fp = fopen(path, "r");
	assert_non_null(fp);
	char buf[4096];
	size_t n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	char want[96];
	snprintf(want, sizeof(want), "width=\"%dpt\" height=\"%dpt\"", (int)p.width, (int)p.height);
	assert_non_null(strstr(buf, want));
	assert_non_null(strstr(buf, "<svg"));

	bush_picture_free(&p);
	tally_free(&gs.exits);
	world_free(w);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
}

/* Give back the kept pixels and the font caches, as the views do at the end. */
static int release_fonts(void **s)
{
	(void)s;
	picture_release();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocks_root_first_with_parents_and_exits),
		cmocka_unit_test(test_quiet_exit_runs_are_one_row),
		cmocka_unit_test(test_building_is_linear_in_the_traces),
		cmocka_unit_test(test_exit_counts_annotate_exits),
		cmocka_unit_test(test_canvas_grows_with_the_bush),
		cmocka_unit_test(test_title_wraps_on_narrow_bushes),
		cmocka_unit_test(test_huge_bush_is_scaled_to_the_cap),
		cmocka_unit_test(test_root_drawn_in_crimson_deterministically),
		cmocka_unit_test(test_hostile_chunk_names_draw),
		cmocka_unit_test(test_packed_picture_draws_the_same),
		cmocka_unit_test(test_bush_file_names),
		cmocka_unit_test(test_files_written_with_picture_size),
	};
	return cmocka_run_group_tests_name("bush_draw", tests, NULL, release_fonts);
}
