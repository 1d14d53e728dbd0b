/* test_picture.c — the PNG writer: the file's chunks, their CRCs, and
 * pixels that decode (with cairo's libpng reader) to what was drawn. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <cairo.h>
#include <zlib.h>
#include "draw/picture.h"
#include "memfile.h"

struct scene { int w, h, noise, flat; };

/* Flat areas, a gradient, text, and optionally noise no compressor
 * can shrink (so the compressed rows outgrow their input). */
static void draw_scene(cairo_t *cr, const void *arg)
{
	const struct scene *sc = arg;
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	if (sc->flat) {         /* flat colours only, flat of them */
		cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
		for (int i = 1; i < sc->flat; i++) {
			cairo_set_source_rgb(cr, (i * 37 % 256) / 255.0, (i * 101 % 256) / 255.0,
			                     (i / 2) / 255.0);
			cairo_rectangle(cr, i % sc->w, (i * 7) % sc->h, 3, 2);
			cairo_fill(cr);
		}
		return;
	}
	cairo_pattern_t *g = cairo_pattern_create_linear(0, 0, sc->w, sc->h);
	cairo_pattern_add_color_stop_rgb(g, 0, 0.9, 0.2, 0.1);
	cairo_pattern_add_color_stop_rgb(g, 1, 0.1, 0.3, 0.8);
	cairo_set_source(cr, g);
	cairo_rectangle(cr, sc->w / 4.0, sc->h / 4.0, sc->w / 2.0, sc->h / 2.0);
	cairo_fill(cr);
	cairo_pattern_destroy(g);
	cairo_set_source_rgb(cr, 0, 0, 0);
	picture_text(cr, 2, sc->h / 2.0, 12, sc->w, "TRACE 1 -> loop", 15);
	if (sc->noise) {
		uint32_t x = 12345;
		for (int y = 0; y < sc->h; y += 1)
			for (int i = 0; i < sc->w; i += 2) {
				x = x * 1103515245u + 12345u;
				cairo_set_source_rgb(cr, (x >> 8 & 255) / 255.0, (x >> 16 & 255) / 255.0,
				                     (x >> 24) / 255.0);
				cairo_rectangle(cr, i, y, 1, 1);
				cairo_fill(cr);
			}
	}
}

static struct memfile write_scene(const struct scene *sc)
{
	struct memfile m = { NULL, 0 };
	FILE *fp = open_memstream(&m.buf, &m.len);
	assert_non_null(fp);
	assert_int_equal(picture_write(fp, PICTURE_PNG, sc->w, sc->h, draw_scene, sc), 0);
	assert_int_equal(fclose(fp), 0);
	return m;
}

/* Walk the chunks: signature, IHDR with our fields, IDATs, IEND last,
 * every CRC right.  Returns the number of IDAT chunks. */
static int check_chunks(const struct memfile *m, int w, int h)
{
	const unsigned char *p = (const unsigned char *)m->buf, *end = p + m->len;
	assert_true(m->len >= 8 + 25 + 12);
	assert_memory_equal(p, "\x89PNG\r\n\x1a\n", 8);
	p += 8;
	int idats = 0, n = 0, ended = 0, type = 0, depth = 0;
	while (p < end) {
		assert_false(ended);
		assert_true(end - p >= 12);
		uint32_t len = be32(p);
		assert_true((size_t)(end - p) >= 12 + (size_t)len);
		uLong crc = crc32(0L, p + 4, 4 + len);
		assert_int_equal(be32(p + 8 + len), (uint32_t)crc);
		if (n == 0) {
			assert_memory_equal(p + 4, "IHDR", 4);
			assert_int_equal(len, 13);
			assert_int_equal(be32(p + 8), (uint32_t)w);
			assert_int_equal(be32(p + 12), (uint32_t)h);
			depth = p[16];
			type = p[17];
			assert_true(type == 2 || type == 3);        /* RGB, or palette */
			/* RGB bytes; palette indices of 4 bits (16 colours at most) or 8 */
			assert_true(type == 2 ? depth == 8 : depth == 4 || depth == 8);
			assert_memory_equal(p + 18, "\x00\x00\x00", 3);
		} else if (n == 1 && type == 3) {
			/* a palette picture: PLTE right after IHDR */
			assert_memory_equal(p + 4, "PLTE", 4);
			assert_true(len >= 3 && len <= 3u << depth && len % 3 == 0);
		} else if (memcmp(p + 4, "IDAT", 4) == 0) {
			idats++;
		} else {
			assert_memory_equal(p + 4, "IEND", 4);
			assert_int_equal(len, 0);
			ended = 1;
		}
		p += 12 + len;
		n++;
	}
	assert_true(ended);
	assert_true(idats >= 1);
	return idats;
}

/* The decoded file has exactly the pixels of the same scene drawn on an
 * image surface. */
static void check_pixels(const struct memfile *m, const struct scene *sc)
{
	cairo_surface_t *got = decode_png(m);
	assert_int_equal(cairo_image_surface_get_width(got), sc->w);
	assert_int_equal(cairo_image_surface_get_height(got), sc->h);
	cairo_surface_t *want = cairo_image_surface_create(CAIRO_FORMAT_RGB24, sc->w, sc->h);
	cairo_t *cr = cairo_create(want);
	draw_scene(cr, sc);
	cairo_destroy(cr);
	cairo_surface_flush(want);
	const unsigned char *a = cairo_image_surface_get_data(got), *b = cairo_image_surface_get_data(want);
	int sa = cairo_image_surface_get_stride(got), sb = cairo_image_surface_get_stride(want);
	for (int y = 0; y < sc->h; y++)
		for (int x = 0; x < sc->w; x++) {
			uint32_t pa, pb;
			memcpy(&pa, a + (size_t)y * (size_t)sa + 4 * (size_t)x, 4);
			memcpy(&pb, b + (size_t)y * (size_t)sb + 4 * (size_t)x, 4);
			if ((pa & 0xffffff) != (pb & 0xffffff))
				fail_msg("pixel (%d,%d): %06x, drawn %06x", x, y,
				         (unsigned)(pa & 0xffffff), (unsigned)(pb & 0xffffff));
		}
	cairo_surface_destroy(want);
	cairo_surface_destroy(got);
}

static void test_small_pictures_round_trip(void **s)
{
	(void)s;
	const struct scene scenes[] = { { 1, 1, 0, 0 }, { 7, 3, 0, 0 }, { 200, 120, 0, 0 }, { 33, 5, 1, 0 } };
	for (size_t i = 0; i < sizeof(scenes) / sizeof(scenes[0]); i++) {
		struct memfile m = write_scene(&scenes[i]);
		assert_int_equal(check_chunks(&m, scenes[i].w, scenes[i].h), 1);
		check_pixels(&m, &scenes[i]);
		free(m.buf);
	}
}

/* PNG colour type: 2 RGB, 3 palette. */
static int png_type(const struct memfile *m)
{
	return ((const unsigned char *)m->buf)[25];
}

/* PNG bit depth: of a palette picture, bits an index. */
static int png_depth(const struct memfile *m)
{
	return ((const unsigned char *)m->buf)[24];
}

/* At most 256 colours: a palette of exactly the colours drawn, in order
 * of first appearance (white, the background, first), one byte a pixel
 * (half a byte for 16 colours or fewer), the same pixels.  257: RGB. */
static void test_few_colours_make_a_palette(void **s)
{
	(void)s;
	const struct scene flat = { 300, 200, 0, 256 }, more = { 300, 200, 0, 257 };
	struct memfile m = write_scene(&flat);
	check_chunks(&m, flat.w, flat.h);
	assert_int_equal(png_type(&m), 3);
	const unsigned char *plte = (const unsigned char *)m.buf + 8 + 25;
	assert_int_equal(be32(plte), 3 * 256);
	assert_memory_equal(plte + 4, "PLTE\xff\xff\xff", 7);
	assert_int_equal(png_depth(&m), 8);
	check_pixels(&m, &flat);
	free(m.buf);
	/* 16 colours: 4 bits a pixel, an odd width's last byte half used;
	 * 17: 8 bits */
	const struct scene sixteen = { 301, 20, 0, 16 }, seventeen = { 301, 20, 0, 17 };
	m = write_scene(&sixteen);
	check_chunks(&m, sixteen.w, sixteen.h);
	assert_int_equal(png_type(&m), 3);
	assert_int_equal(png_depth(&m), 4);
	assert_int_equal(be32((const unsigned char *)m.buf + 8 + 25), 3 * 16);
	check_pixels(&m, &sixteen);
	free(m.buf);
	m = write_scene(&seventeen);
	check_chunks(&m, seventeen.w, seventeen.h);
	assert_int_equal(png_depth(&m), 8);
	check_pixels(&m, &seventeen);
	free(m.buf);
	m = write_scene(&more);
	check_chunks(&m, more.w, more.h);
	assert_int_equal(png_type(&m), 2);
	check_pixels(&m, &more);
	free(m.buf);
	/* noise: RGB */
	const struct scene noisy = { 200, 40, 1, 0 };
	m = write_scene(&noisy);
	assert_int_equal(png_type(&m), 2);
	free(m.buf);
}

/* Rows wider than a strip, and more compressed bytes than one IDAT holds:
 * several strips and several IDAT chunks in one stream. */
static void test_big_noisy_picture_round_trips(void **s)
{
	(void)s;
	const struct scene sc = { 30000, 40, 1, 0 };
	struct memfile m = write_scene(&sc);
	assert_true(check_chunks(&m, sc.w, sc.h) >= 4);
	check_pixels(&m, &sc);
	free(m.buf);
}

static void test_same_picture_same_bytes(void **s)
{
	(void)s;
	const struct scene sc = { 300, 200, 0, 0 };
	struct memfile a = write_scene(&sc), b = write_scene(&sc);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.buf, b.buf, a.len);
	free(a.buf);
	free(b.buf);
}

/* The pixels and zlib's state are kept from one picture to the next: what
 * a bigger, noisier picture left behind shows in neither the pixels nor
 * the bytes of the next. */
static void test_picture_after_another_same_bytes(void **s)
{
	(void)s;
	const struct scene small = { 200, 120, 0, 0 }, big = { 900, 700, 1, 0 };
	picture_release();
	struct memfile fresh = write_scene(&small);
	struct memfile before = write_scene(&big);
	struct memfile after = write_scene(&small);
	assert_int_equal(after.len, fresh.len);
	assert_memory_equal(after.buf, fresh.buf, fresh.len);
	check_pixels(&after, &small);
	free(fresh.buf);
	free(before.buf);
	free(after.buf);
}

/* Text that is not UTF-8 cairo takes is drawn with '?' in its place:
 * cairo refuses an overlong form, a surrogate, a code point past
 * U+10FFFF or a noncharacter by failing the whole picture, and chunk
 * names and a profile's frames are arbitrary bytes (fuzz_profile found
 * the overlong E0 8F 8D in a frame of a flame graph). */
static void draw_bad_text(cairo_t *cr, const void *arg)
{
	(void)arg;
	static const char *const bad[] = {
		"\xe0\x8f\x8d.lua:1",            /* overlong U+03CD */
		"\xc0\xaf",                      /* overlong '/' */
		"\xed\xa0\x80",                  /* surrogate U+D800 */
		"\xf4\x90\x80\x80",              /* U+110000 */
		"\xf5\x80\x80\x80",              /* no such lead byte */
		"\xef\xbf\xbe",                  /* noncharacter U+FFFE */
		"\xef\xb7\x90",                  /* noncharacter U+FDD0 */
		"\xe2\x80",                      /* cut short */
		"ok \xc3\xa9\xe2\x80\xa6 \xf0\x9f\x98\x80",   /* valid: kept */
	};
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_set_source_rgb(cr, 0, 0, 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		picture_text(cr, 2, 12.0 * (double)(i + 1), 10, 300, bad[i], strlen(bad[i]));
		assert_int_equal(cairo_status(cr), CAIRO_STATUS_SUCCESS);
	}
}

static void test_text_not_utf8_still_draws(void **s)
{
	(void)s;
	for (int fmt = 0; fmt < 2; fmt++) {
		FILE *fp = fopen("/dev/null", "w");
		assert_non_null(fp);
		assert_int_equal(picture_write(fp, fmt ? PICTURE_SVG : PICTURE_PNG, 320, 120,
		                               draw_bad_text, NULL), 0);
		fclose(fp);
	}
}

static void test_write_failure_is_reported(void **s)
{
	(void)s;
	FILE *fp = fopen("/dev/full", "w");
	assert_non_null(fp);
	const struct scene sc = { 300, 200, 0, 0 };
	int r = picture_write(fp, PICTURE_PNG, sc.w, sc.h, draw_scene, &sc);
	r |= fflush(fp);
	assert_int_equal(r, -1);
	fclose(fp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_pictures_round_trip),
		cmocka_unit_test(test_big_noisy_picture_round_trips),
		cmocka_unit_test(test_few_colours_make_a_palette),
		cmocka_unit_test(test_same_picture_same_bytes),
		cmocka_unit_test(test_picture_after_another_same_bytes),
		cmocka_unit_test(test_write_failure_is_reported),
		cmocka_unit_test(test_text_not_utf8_still_draws),
	};
	int r = cmocka_run_group_tests_name("picture", tests, NULL, NULL);
	/* Give back cairo's and fontconfig's caches, as the views do at the
	 * end, so valgrind sees only our own memory. */
	picture_release();
	return r;
}
