/* picture.c — PNG and SVG files from cairo drawings; see picture.h. */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cairo-svg.h>
#include <png.h>
#include <zlib.h>
#include "dumpanalyze/picture.h"
#include "dumpanalyze/arena.h"

/* Valid UTF-8 of at most max_chars code points, control bytes as spaces,
 * invalid bytes as '?', an ellipsis when cut: cairo wants valid UTF-8,
 * and chunk names are arbitrary bytes. */
static void clean_text(char *out, size_t outsz, const char *s, size_t n, size_t max_chars)
{
	size_t o = 0, chars = 0, i = 0;
	while (i < n && o + 5 < outsz) {
		unsigned char c = (unsigned char)s[i];
		size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
		           : (c & 0xf8) == 0xf0 ? 4 : 0;
		int ok = len && i + len <= n && !(len == 2 && c < 0xc2);
		for (size_t k = 1; ok && k < len; k++)
			ok = ((unsigned char)s[i + k] & 0xc0) == 0x80;
		if (chars + 1 == max_chars && i + (ok ? len : 1) < n) {
			memcpy(out + o, "\xe2\x80\xa6", 3);     /* … */
			o += 3;
			break;
		}
		if (!ok) {
			out[o++] = '?';
			i++;
		} else if (len == 1) {
			out[o++] = (c < 0x20 || c == 0x7f) ? ' ' : (char)c;
			i++;
		} else {
			memcpy(out + o, s + i, len);
			o += len;
			i += len;
		}
		chars++;
	}
	out[o] = '\0';
}

void picture_text(cairo_t *cr, double x, double y, double size, double width,
                  const char *s, size_t n)
{
	char buf[512];
	size_t max_chars = (size_t)(width / (size * PICTURE_CHAR_W));
	clean_text(buf, sizeof(buf), s, n, max_chars ? max_chars : 1);
	cairo_set_font_size(cr, size);
	cairo_move_to(cr, x, y);
	cairo_show_text(cr, buf);
}


void picture_textf(cairo_t *cr, double x, double y, double size, double width,
                   const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	picture_text(cr, x, y, size, width, buf,
	             n < 0 ? 0 : (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

/* PNG through libpng with fast settings: one filter (Sub) and light
 * compression.  cairo's own writer tries every filter on every row at the
 * default level, which made encoding most of a big bush's drawing time. */
static int write_png(FILE *fp, cairo_surface_t *s)
{
	int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
	int stride = cairo_image_surface_get_stride(s);
	const unsigned char *data = cairo_image_surface_get_data(s);
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	unsigned char *volatile row = NULL;
	if (!info) {
		png_destroy_write_struct(&png, NULL);
		return -1;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		free(row);
		return -1;
	}
	row = xrealloc(NULL, (size_t)w * 3);
	png_init_io(png, fp);
	png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB,
	             PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
	png_set_compression_level(png, 1);
	png_set_compression_strategy(png, Z_RLE);
	png_write_info(png, info);
	for (int y = 0; y < h; y++) {
		const unsigned char *src = data + (size_t)y * (size_t)stride;
		for (int x = 0; x < w; x++) {
			uint32_t px;
			memcpy(&px, src + 4 * x, 4);        /* CAIRO_FORMAT_RGB24: xRGB */
			row[3 * x] = (unsigned char)(px >> 16);
			row[3 * x + 1] = (unsigned char)(px >> 8);
			row[3 * x + 2] = (unsigned char)px;
		}
		png_write_row(png, row);
	}
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	free(row);
	return ferror(fp) ? -1 : 0;
}

/* cairo numbers SVG surfaces ("surface123") with a counter for the whole
 * process, so the same picture would differ with what was drawn before it
 * (another view, another worker).  Renumber them from 1 in each file. */
static int write_svg_renumbered(FILE *fp, const char *svg, size_t n)
{
	static const char key[] = "surface";
	const size_t klen = sizeof(key) - 1;
	unsigned long first = 0;
	int have_first = 0;
	for (const char *q = svg; (q = memchr(q, 's', (size_t)(svg + n - q))) != NULL; q++)
		if ((size_t)(svg + n - q) > klen && memcmp(q, key, klen) == 0 &&
		    q[klen] >= '0' && q[klen] <= '9') {
			unsigned long v = strtoul(q + klen, NULL, 10);
			if (!have_first || v < first)
				first = v;
			have_first = 1;
		}
	const char *q = svg, *end = svg + n;
	while (q < end) {
		const char *hit = NULL;
		for (const char *k = q; (k = memchr(k, 's', (size_t)(end - k))) != NULL; k++)
			if ((size_t)(end - k) > klen && memcmp(k, key, klen) == 0 &&
			    k[klen] >= '0' && k[klen] <= '9') {
				hit = k;
				break;
			}
		if (!hit) {
			fwrite(q, 1, (size_t)(end - q), fp);
			break;
		}
		fwrite(q, 1, (size_t)(hit - q) + klen, fp);
		char *after;
		unsigned long v = strtoul(hit + klen, &after, 10);
		fprintf(fp, "%lu", v - first + 1);
		q = after;
	}
	return ferror(fp) ? -1 : 0;
}

static cairo_status_t write_mem(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS
	                                            : CAIRO_STATUS_WRITE_ERROR;
}

int picture_write(FILE *fp, enum picture_format fmt, double width, double height,
                  void (*draw)(cairo_t *cr, const void *arg), const void *arg)
{
	cairo_surface_t *s;
	char *svg = NULL;
	size_t svg_len = 0;
	FILE *mem = NULL;
	if (fmt == PICTURE_SVG) {
		mem = open_memstream(&svg, &svg_len);
		if (!mem)
			return -1;
		s = cairo_svg_surface_create_for_stream(write_mem, mem, width, height);
		cairo_svg_surface_restrict_to_version(s, CAIRO_SVG_VERSION_1_1);
	} else {
		s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)width, (int)height);
	}
	cairo_t *cr = cairo_create(s);
	draw(cr, arg);
	cairo_status_t st = cairo_status(cr);
	cairo_destroy(cr);
	if (st == CAIRO_STATUS_SUCCESS && fmt == PICTURE_PNG) {
		cairo_surface_flush(s);
		if (write_png(fp, s) < 0)
			st = CAIRO_STATUS_WRITE_ERROR;
	}
	cairo_surface_finish(s);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(s);
	cairo_surface_destroy(s);
	if (mem) {
		fclose(mem);
		if (st == CAIRO_STATUS_SUCCESS && write_svg_renumbered(fp, svg, svg_len) < 0)
			st = CAIRO_STATUS_WRITE_ERROR;
		free(svg);
	}
	return st == CAIRO_STATUS_SUCCESS ? 0 : -1;
}
