/* test_flamegraph.c — flame graphs: the merged tree, independence from
 * input order, picture sizes, marked frames, empty and very deep input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <cairo.h>
#include "draw/flamegraph.h"
#include "draw/picture.h"
#include "capture.h"
#include "memfile.h"

/* Frames of the stacks below, one array per stack. */
static const char *const f_ab[] = { "a", "b" };
static const char *const f_ac[] = { "a", "c" };
static const char *const f_abd[] = { "a", "b", "d" };
static const char *const f_e[] = { "e" };
static const char *const f_ab2[] = { "a", "b" };    /* same names, other strings */

/* all 11: a 7 (b 5 (d 1), c 2), e 4 */
static const struct flame_stack sample[] = {
	{ f_e, 1, 4 }, { f_ab, 2, 3 }, { f_abd, 3, 1 }, { f_ac, 2, 2 }, { f_ab2, 2, 1 },
};
#define NSAMPLE (sizeof(sample) / sizeof(sample[0]))

/* flamegraph_write into memory; asserts it succeeded. */
static struct memfile render(enum picture_format fmt, const struct flame_stack *st, size_t n,
                             flame_mark_fn mark, void *ctx)
{
	struct memfile m = { NULL, 0 };
	FILE *fp = open_memstream(&m.buf, &m.len);
	assert_non_null(fp);
	assert_int_equal(flamegraph_write(fp, fmt, "test profile", st, n, mark, ctx), 0);
	assert_int_equal(fclose(fp), 0);
	return m;
}

/* A PNG's size from its IHDR, after checking the signature. */
static void png_size(const struct memfile *m, uint32_t *w, uint32_t *h)
{
	assert_true(m->len > 24);
	assert_memory_equal(m->buf, "\x89PNG\r\n\x1a\n", 8);
	assert_memory_equal(m->buf + 12, "IHDR", 4);
	*w = be32(m->buf + 16);
	*h = be32(m->buf + 20);
}

static int is_colour(cairo_surface_t *sf, int x, int y, double r, double g, double b)
{
	uint32_t px;
	memcpy(&px, cairo_image_surface_get_data(sf) + y * cairo_image_surface_get_stride(sf) + x * 4, 4);
	int pr = (px >> 16) & 255, pg = (px >> 8) & 255, pb = px & 255;
	return abs(pr - (int)(r * 255)) <= 1 && abs(pg - (int)(g * 255)) <= 1 &&
	       abs(pb - (int)(b * 255)) <= 1;
}

static int marked_in_column(cairo_surface_t *sf, int x)
{
	int n = 0;
	for (int y = 0; y < cairo_image_surface_get_height(sf); y++)
		n += is_colour(sf, x, y, FLAMEGRAPH_MARK_R, FLAMEGRAPH_MARK_G, FLAMEGRAPH_MARK_B);
	return n;
}

static size_t count_str(const struct memfile *m, const char *s)
{
	size_t n = 0, k = strlen(s);
	for (size_t i = 0; i + k <= m->len; i++)
		n += memcmp(m->buf + i, s, k) == 0;
	return n;
}

static void test_tree_merges_counts_sorted_depth_first(void **s)
{
	(void)s;
	struct flame_node *t;
	size_t n = flamegraph_tree(sample, NSAMPLE, &t);
	assert_int_equal(n, 6);
	static const char *const names[] = { "all", "a", "b", "d", "c", "e" };
	static const uint64_t counts[] = { 11, 7, 5, 1, 2, 4 };
	static const uint32_t depths[] = { 0, 1, 2, 3, 2, 1 };
	static const uint32_t first[] = { 1, 2, 3, UINT32_MAX, UINT32_MAX, UINT32_MAX };
	static const uint32_t next[] = { UINT32_MAX, 5, 4, UINT32_MAX, UINT32_MAX, UINT32_MAX };
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(t[i].name, names[i]);
		assert_int_equal(t[i].count, counts[i]);
		assert_int_equal(t[i].depth, depths[i]);
		assert_int_equal(t[i].first_child, first[i]);
		assert_int_equal(t[i].next_sibling, next[i]);
	}
	free(t);
}

static void test_tree_zero_counts_and_empty_stacks(void **s)
{
	(void)s;
	static const char *const fz[] = { "z" };
	static const struct flame_stack st[] = {
		{ fz, 1, 0 },           /* no samples: no node */
		{ NULL, 0, 3 },         /* no frames: samples of the root alone */
		{ f_e, 1, 2 },
	};
	struct flame_node *t;
	size_t n = flamegraph_tree(st, 3, &t);
	assert_int_equal(n, 2);
	assert_int_equal(t[0].count, 5);
	assert_string_equal(t[1].name, "e");
	assert_int_equal(t[1].count, 2);
	free(t);
	n = flamegraph_tree(NULL, 0, &t);
	assert_int_equal(n, 1);
	assert_string_equal(t[0].name, "all");
	assert_int_equal(t[0].count, 0);
	assert_int_equal(t[0].first_child, UINT32_MAX);
	free(t);
}

static void test_input_order_does_not_matter(void **s)
{
	(void)s;
	struct flame_node *want;
	size_t nwant = flamegraph_tree(sample, NSAMPLE, &want);
	struct memfile svg = render(PICTURE_SVG, sample, NSAMPLE, NULL, NULL);
	struct flame_stack st[NSAMPLE];
	for (size_t rot = 0; rot < 2 * NSAMPLE; rot++) {
		/* every rotation, forwards and backwards */
		for (size_t i = 0; i < NSAMPLE; i++)
			st[i] = sample[rot < NSAMPLE ? (i + rot) % NSAMPLE
			                             : (NSAMPLE - 1 - i + rot) % NSAMPLE];
		struct flame_node *t;
		size_t n = flamegraph_tree(st, NSAMPLE, &t);
		assert_int_equal(n, nwant);
		for (size_t i = 0; i < n; i++) {
			assert_string_equal(t[i].name, want[i].name);
			assert_int_equal(t[i].count, want[i].count);
			assert_int_equal(t[i].depth, want[i].depth);
			assert_int_equal(t[i].first_child, want[i].first_child);
			assert_int_equal(t[i].next_sibling, want[i].next_sibling);
		}
		free(t);
		struct memfile again = render(PICTURE_SVG, st, NSAMPLE, NULL, NULL);
		assert_int_equal(again.len, svg.len);
		assert_memory_equal(again.buf, svg.buf, svg.len);
		free(again.buf);
	}
	free(svg.buf);
	free(want);
}

static void test_png_is_1200_wide_height_from_depth(void **s)
{
	(void)s;
	struct memfile m = render(PICTURE_PNG, sample, NSAMPLE, NULL, NULL);
	uint32_t w, h;
	png_size(&m, &w, &h);
	assert_int_equal(w, 1200);
	/* 4 rows (all, a, b, d) of 16 px; margins 2 x 10, title 28, legend 24 */
	assert_int_equal(h, 72 + 4 * 16);
	free(m.buf);
	/* a stack too narrow to draw (1180 px / 100001 samples) adds no rows */
	static const struct flame_stack rare[] = { { f_e, 1, 100000 }, { f_abd, 3, 1 } };
	m = render(PICTURE_PNG, rare, 2, NULL, NULL);
	png_size(&m, &w, &h);
	assert_int_equal(h, 72 + 2 * 16);
	free(m.buf);
}

static void test_svg_same_bytes_every_time(void **s)
{
	(void)s;
	struct memfile a = render(PICTURE_SVG, sample, NSAMPLE, NULL, NULL);
	struct memfile b = render(PICTURE_SVG, sample, NSAMPLE, NULL, NULL);
	assert_non_null(strstr(a.buf, "<svg"));
	assert_non_null(strstr(a.buf, "width=\"1200pt\" height=\"136pt\""));
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.buf, b.buf, a.len);
	free(a.buf);
	free(b.buf);
}

struct mark_ctx { const char *name; int calls, saw_root; };

static int mark_named(const char *frame, void *ctx)
{
	struct mark_ctx *c = ctx;
	c->calls++;
	c->saw_root |= strcmp(frame, "all") == 0;
	return strcmp(frame, c->name) == 0;
}

static void test_marked_frames_in_marked_colour(void **s)
{
	(void)s;
	/* all 2: a 2 (b 1 on the left half, c 1 on the right half) */
	static const struct flame_stack st[] = { { f_ab, 2, 1 }, { f_ac, 2, 1 } };
	struct mark_ctx c = { "b", 0, 0 };
	struct memfile m = render(PICTURE_PNG, st, 2, mark_named, &c);
	assert_int_equal(c.calls, 3);       /* a, b, c: not the root */
	assert_false(c.saw_root);
	cairo_surface_t *sf = decode_png(&m);
	assert_int_equal(marked_in_column(sf, 300), 15);    /* b's row: 16 px less 1 */
	assert_int_equal(marked_in_column(sf, 900), 0);     /* c */
	cairo_surface_destroy(sf);
	free(m.buf);

	struct mark_ctx none = { "nothing", 0, 0 };
	m = render(PICTURE_PNG, st, 2, mark_named, &none);
	sf = decode_png(&m);
	assert_int_equal(marked_in_column(sf, 300), 0);
	cairo_surface_destroy(sf);
	free(m.buf);

	/* In SVG: one fill for b, one for the legend's swatch, none without mark(). */
	c.name = "b";
	m = render(PICTURE_SVG, st, 2, mark_named, &c);
	assert_int_equal(count_str(&m, "fill:rgb(35%,55%,95%)"), 2);
	free(m.buf);
	m = render(PICTURE_SVG, st, 2, NULL, NULL);
	assert_int_equal(count_str(&m, "fill:rgb(35%,55%,95%)"), 0);
	free(m.buf);
}

static void test_no_samples_small_picture(void **s)
{
	(void)s;
	struct memfile m = render(PICTURE_PNG, NULL, 0, NULL, NULL);
	uint32_t w, h;
	png_size(&m, &w, &h);
	assert_int_equal(w, 1200);
	assert_true(h < 100);
	/* only zero counts: the same picture */
	static const struct flame_stack zero[] = { { f_ab, 2, 0 } };
	struct memfile z = render(PICTURE_PNG, zero, 1, mark_named, NULL);
	assert_int_equal(z.len, m.len);
	assert_memory_equal(z.buf, m.buf, m.len);
	free(z.buf);
	free(m.buf);
	m = render(PICTURE_SVG, NULL, 0, NULL, NULL);
	assert_non_null(strstr(m.buf, "<svg"));
	free(m.buf);
}

static void test_deep_stack_capped_under_2048(void **s)
{
	(void)s;
	enum { DEEP = 3000 };
	static char names[DEEP][16];
	static const char *frames[DEEP];
	for (int i = 0; i < DEEP; i++) {
		snprintf(names[i], sizeof(names[i]), "f%d", i);
		frames[i] = names[i];
	}
	struct flame_stack st = { frames, DEEP, 5 };
	struct memfile m = render(PICTURE_PNG, &st, 1, NULL, NULL);
	uint32_t w, h;
	png_size(&m, &w, &h);
	assert_int_equal(w, 1200);
	assert_true(h < 2048);
	assert_true(h >= 2048 - 16);    /* as many rows as fit */
	free(m.buf);
	m = render(PICTURE_SVG, &st, 1, NULL, NULL);
	assert_non_null(strstr(m.buf, "<svg"));
	free(m.buf);
}

static void test_hostile_names_draw(void **s)
{
	(void)s;
	static const char *const bad[] = { "\xff\xfe bad utf8", "new\nline\x01", "\xe2\x80" };
	static const struct flame_stack st[] = { { bad, 3, 7 } };
	struct memfile m = render(PICTURE_PNG, st, 1, NULL, NULL);
	free(m.buf);
	m = render(PICTURE_SVG, st, 1, NULL, NULL);
	free(m.buf);
}

static void test_write_failure_is_reported(void **s)
{
	(void)s;
	FILE *fp = fopen("/dev/null", "r");     /* every write fails */
	assert_non_null(fp);
	capture_begin();    /* the caller, who knows the file's name, tells */
	assert_int_equal(flamegraph_write(fp, PICTURE_PNG, "t", sample, NSAMPLE, NULL, NULL), -1);
	capture_end();
	assert_string_equal(cap.text, "");
	assert_int_equal(flamegraph_write(fp, PICTURE_SVG, "t", sample, NSAMPLE, NULL, NULL), -1);
	fclose(fp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_merges_counts_sorted_depth_first),
		cmocka_unit_test(test_tree_zero_counts_and_empty_stacks),
		cmocka_unit_test(test_input_order_does_not_matter),
		cmocka_unit_test(test_png_is_1200_wide_height_from_depth),
		cmocka_unit_test(test_svg_same_bytes_every_time),
		cmocka_unit_test(test_marked_frames_in_marked_colour),
		cmocka_unit_test(test_no_samples_small_picture),
		cmocka_unit_test(test_deep_stack_capped_under_2048),
		cmocka_unit_test(test_hostile_names_draw),
		cmocka_unit_test_teardown(test_write_failure_is_reported, restore_stderr),
	};
	int r = cmocka_run_group_tests_name("flamegraph", tests, NULL, NULL);
	/* Give back cairo's and fontconfig's caches for leak checkers. */
	picture_release();
	return r;
}
