/* picture.c — PNG and SVG files from cairo drawings; see picture.h. */
#define _DEFAULT_SOURCE         /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cairo-svg.h>
#include <fontconfig/fontconfig.h>
#include <libdeflate.h>
#include <zlib.h>
#include "draw/picture.h"
#include "output/json.h"
#include "util/arena.h"

/* The length of the UTF-8 sequence at s that cairo takes, or 0: valid
 * UTF-8 (json.c's rule: no overlong form, no surrogate, nothing past
 * U+10FFFF) that is no noncharacter (U+FDD0..U+FDEF, U+xFFFE, U+xFFFF),
 * which cairo refuses too, failing the whole picture. */
static size_t cairo_utf8_len(const char *s, size_t n)
{
	size_t len = json_utf8_len(s, n);
	if (len < 3)
		return len;
	const unsigned char *u = (const unsigned char *)s;
	uint32_t cp = u[0] & (0x7f >> len);
	for (size_t k = 1; k < len; k++)
		cp = cp << 6 | (u[k] & 0x3f);
	return (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) == 0xfffe ? 0 : len;
}

/* Valid UTF-8 of at most max_chars code points, control bytes as spaces,
 * invalid bytes as '?', an ellipsis when cut: cairo wants valid UTF-8,
 * and chunk names are arbitrary bytes. */
static void clean_text(char *out, size_t outsz, const char *s, size_t n, size_t max_chars)
{
	size_t o = 0, chars = 0, i = 0;
	while (i < n && o + 5 < outsz) {
		unsigned char c = (unsigned char)s[i];
		size_t len = cairo_utf8_len(s + i, n - i);
		int ok = len > 0;
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

/* PNG: cairo draws, libdeflate compresses the rows in one go (level 2:
 * on these pictures faster than zlib's fastest setting, level 1 with RLE,
 * and into half the bytes), and the file around them (signature, IHDR,
 * IDAT, IEND, each chunk with its CRC-32 from zlib) is written here.
 * cairo's own writer tries every filter on every row at zlib's default
 * level; libpng's per-byte row handling cost more than all of our row
 * packing.  ISA-L's igzip compressed 6x faster but not always to the same
 * bytes (bench/RESULTS.md); libdeflate is a pure function of its input. */
enum { PNG_IDAT = 64 * 1024, PNG_LEVEL = 2 };

static void put_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static int png_chunk(FILE *fp, const char type[4], const unsigned char *data, size_t n)
{
	unsigned char head[8], crc[4];
	put_be32(head, (uint32_t)n);
	memcpy(head + 4, type, 4);
	uLong c = crc32(0L, (const Bytef *)type, 4);
	if (n)          /* crc32 of a NULL buffer is its starting value, not c */
		c = crc32(c, data, (uInt)n);
	put_be32(crc, (uint32_t)c);
	return fwrite(head, 1, 8, fp) == 8 && (n == 0 || fwrite(data, 1, n, fp) == n) &&
	       fwrite(crc, 1, 4, fp) == 4 ? 0 : -1;
}

/* One row of CAIRO_FORMAT_RGB24 (xRGB words) as filter byte 0 (None)
 * and R G B bytes.  No filter: with shapes drawn without dots and with
 * cairo's fast antialiasing, libdeflate finds the repeats in the pixels
 * themselves, faster and into fewer bytes than after Sub, Up or Average.
 * A pixel is stored as one word whose fourth byte the next pixel
 * overwrites, so out needs 1 + 3 * w + 1 bytes. */
static void pack_row(unsigned char *out, const unsigned char *src, int w)
{
	*out++ = 0;
	for (int x = 0; x < w; x++) {
		uint32_t px;
		memcpy(&px, src + 4 * (size_t)x, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		uint32_t rgb = (px >> 16 & 0xffu) | (px & 0xff00u) | (px & 0xffu) << 16;
		memcpy(out + 3 * (size_t)x, &rgb, 4);      /* bytes R G B */
#else
		out[3 * (size_t)x] = (unsigned char)(px >> 16);
		out[3 * (size_t)x + 1] = (unsigned char)(px >> 8);
		out[3 * (size_t)x + 2] = (unsigned char)px;
#endif
	}
}

/* The pixels, the packed rows and the compressed bytes are buffers of
 * megabytes, kept from one picture to the next: a worker draws hundreds
 * of pictures, and new buffers each time cost a page fault for every
 * 4 KiB in a forked worker (a third of a run was the kernel's); huge pages
 * where the kernel gives them make it a fault per 2 MiB.  One thread per
 * process draws, one picture at a time. */
enum { KEPT_ROUND = 2 << 20 };

struct kept {
	unsigned char *p;
	size_t size;
};

static unsigned char *kept_need(struct kept *k, size_t need)
{
	if (need <= k->size)
		return k->p;
	size_t size = (need + KEPT_ROUND - 1) / KEPT_ROUND * KEPT_ROUND;
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	(void)madvise(p, size, MADV_HUGEPAGE);
#endif
	if (k->p)
		munmap(k->p, k->size);
	k->p = p;
	k->size = size;
	return k->p;
}

static void kept_free(struct kept *k)
{
	if (k->p)
		munmap(k->p, k->size);
	k->p = NULL;
	k->size = 0;
}

static struct kept canvas, rows, packed;
static struct libdeflate_compressor *compressor;

/* A picture of at most 256 colours (the bush pictures: flat fills, text
 * without antialiasing, few shades at shape edges) is written as PNG
 * colour type 3, a palette and one byte per pixel: a third of the bytes
 * to compress, the same pixels.  The palette is in order of first
 * appearance, so the same drawing gives the same bytes. */
enum { PAL_MAX = 256, PAL_SLOTS = 1024 };

struct palette {
	uint32_t rgb[PAL_MAX];
	unsigned n;
	uint32_t key[PAL_SLOTS];        /* rgb + 1, 0: empty */
	unsigned char idx[PAL_SLOTS];
};

/* The index of colour rgb (0xRRGGBB) when the palette has it, else -1. */
static int palette_index_known(const struct palette *p, uint32_t rgb)
{
	uint32_t h = (rgb * 2654435761u) >> 22;         /* 10 bits */
	for (;; h = (h + 1) & (PAL_SLOTS - 1)) {
		if (p->key[h] == rgb + 1)
			return p->idx[h];
		if (p->key[h] == 0)
			return -1;
	}
}

/* The index of colour rgb (0xRRGGBB), added when new; -1 when the
 * palette is full. */
static int palette_index(struct palette *p, uint32_t rgb)
{
	uint32_t h = (rgb * 2654435761u) >> 22;         /* 10 bits */
	for (;; h = (h + 1) & (PAL_SLOTS - 1)) {
		if (p->key[h] == rgb + 1)
			return p->idx[h];
		if (p->key[h] == 0)
			break;
	}
	if (p->n == PAL_MAX)
		return -1;
	p->key[h] = rgb + 1;
	p->idx[h] = (unsigned char)p->n;
	p->rgb[p->n] = rgb;
	return (int)p->n++;
}

/* The index of pixel px, through the last colour looked up (a row is
 * mostly runs of one colour); -1 when the palette has no room left. */
static inline int pixel_index(struct palette *p, const unsigned char *px, uint32_t *last,
                              int *li, unsigned max)
{
	uint32_t v;
	memcpy(&v, px, 4);
	uint32_t rgb = v & 0xffffffu;
	if (rgb != *last) {
		if (p->n == max && palette_index_known(p, rgb) < 0)
			return -1;
		*li = palette_index(p, rgb);
		*last = rgb;
	}
	return *li;
}

/* The rows as filter byte 0 and palette indices of depth bits (4: two a
 * byte, high first; or 8), into raw.  The row length, or 0 when the
 * picture has more than 2^depth colours.  A row the same as the one
 * above (most of a bush picture's rows: the gaps between boxes, the
 * boxes' sides) is its packed row again. */
static size_t pack_indexed(unsigned char *raw, const unsigned char *data, int w, int h,
                           int stride, struct palette *p, int depth)
{
	memset(p->key, 0, sizeof(p->key));
	p->n = 0;
	uint32_t last = 0xffffffffu;
	int li = 0;
	const unsigned max = 1u << depth;
	const size_t row = depth == 4 ? 1 + ((size_t)w + 1) / 2 : 1 + (size_t)w;
	for (int y = 0; y < h; y++) {
		const unsigned char *src = data + (size_t)y * (size_t)stride;
		unsigned char *out = raw + (size_t)y * row;
		if (y > 0 && memcmp(src, src - stride, 4 * (size_t)w) == 0) {
			memcpy(out, out - row, row);
			continue;
		}
		*out++ = 0;
		if (depth == 4) {
			/* two pixels at a time: the same pair as last time (a run)
			 * is the same byte */
			uint64_t last_pair = ~(uint64_t)0;
			unsigned char last_byte = 0;
			int x = 0;
			for (; x + 1 < w; x += 2) {
				uint64_t pair;
				memcpy(&pair, src + 4 * (size_t)x, 8);
				pair &= 0x00ffffff00ffffffull;
				if (pair == last_pair) {
					out[x / 2] = last_byte;
					continue;
				}
				int hi = pixel_index(p, src + 4 * (size_t)x, &last, &li, max);
				int lo = pixel_index(p, src + 4 * (size_t)x + 4, &last, &li, max);
				if (hi < 0 || lo < 0)
					return 0;
				out[x / 2] = last_byte = (unsigned char)(hi << 4 | lo);
				last_pair = pair;
			}
			if (x < w) {
				int hi = pixel_index(p, src + 4 * (size_t)x, &last, &li, max);
				if (hi < 0)
					return 0;
				out[x / 2] = (unsigned char)(hi << 4);
			}
		} else {
			for (int x = 0; x < w; x++) {
				int i = pixel_index(p, src + 4 * (size_t)x, &last, &li, max);
				if (i < 0)
					return 0;
				out[x] = (unsigned char)i;
			}
		}
	}
	return row;
}

static int write_png(FILE *fp, cairo_surface_t *s)
{
	int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
	int stride = cairo_image_surface_get_stride(s);
	const unsigned char *data = cairo_image_surface_get_data(s);
	size_t row = 1 + 3 * (size_t)w, n = row * (size_t)h;
	if (!compressor && !(compressor = libdeflate_alloc_compressor(PNG_LEVEL)))
		return PICTURE_ENOMEM;
	size_t bound = libdeflate_zlib_compress_bound(compressor, n);
	unsigned char *raw = kept_need(&rows, n + 1);         /* + pack_row's spill */
	unsigned char *out = kept_need(&packed, bound);
	if (!raw || !out)
		return PICTURE_ENOMEM;
	/* A palette of at most 16 colours (most bush pictures) packs two
	 * pixels a byte: half the bytes to compress.  Tried first; a picture
	 * with more is packed again by bytes. */
	static struct palette pal;
	int depth = 4;
	size_t packed_row = pack_indexed(raw, data, w, h, stride, &pal, depth);
	if (!packed_row)
		packed_row = pack_indexed(raw, data, w, h, stride, &pal, depth = 8);
	int indexed = packed_row != 0;
	if (indexed) {
		n = packed_row * (size_t)h;
	} else {
		depth = 8;
		for (int y = 0; y < h; y++)
			pack_row(raw + (size_t)y * row, data + (size_t)y * (size_t)stride, w);
	}
	size_t len = libdeflate_zlib_compress(compressor, raw, n, out, bound);
	if (len == 0)
		return -1;

	unsigned char ihdr[13] = { 0 };
	put_be32(ihdr, (uint32_t)w);
	put_be32(ihdr + 4, (uint32_t)h);
	ihdr[8] = (unsigned char)depth;         /* bits per sample (or index) */
	ihdr[9] = indexed ? 3 : 2;              /* palette or RGB; compression, filter and interlace 0 */
	int r = fwrite("\x89PNG\r\n\x1a\n", 1, 8, fp) == 8 ? png_chunk(fp, "IHDR", ihdr, 13) : -1;
	if (r == 0 && indexed) {
		unsigned char plte[3 * PAL_MAX];
		for (unsigned i = 0; i < pal.n; i++) {
			plte[3 * i] = (unsigned char)(pal.rgb[i] >> 16);
			plte[3 * i + 1] = (unsigned char)(pal.rgb[i] >> 8);
			plte[3 * i + 2] = (unsigned char)pal.rgb[i];
		}
		r = png_chunk(fp, "PLTE", plte, 3 * (size_t)pal.n);
	}
	for (size_t at = 0; r == 0 && at < len; at += PNG_IDAT)
		r = png_chunk(fp, "IDAT", out + at, len - at < PNG_IDAT ? len - at : PNG_IDAT);
	if (r == 0)
		r = png_chunk(fp, "IEND", NULL, 0);
	return r == 0 && !ferror(fp) ? 0 : -1;
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

/* Into a memory stream, which fails only for want of memory. */
static cairo_status_t write_mem(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS
	                                            : CAIRO_STATUS_NO_MEMORY;
}

/* A PNG's surface, on the kept pixels. */
static cairo_surface_t *canvas_surface(int w, int h)
{
	int stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, w);
	unsigned char *p = stride < 0 || w <= 0 || h <= 0 ? NULL
	                   : kept_need(&canvas, (size_t)stride * (size_t)h);
	if (!p)         /* cairo's own surface, or its error surface */
		return cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
	return cairo_image_surface_create_for_data(p, CAIRO_FORMAT_RGB24, w, h, stride);
}

void picture_release(void)
{
	kept_free(&canvas);
	kept_free(&rows);
	kept_free(&packed);
	if (compressor)
		libdeflate_free_compressor(compressor);
	compressor = NULL;
	cairo_debug_reset_static_data();
	FcFini();
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
			return PICTURE_ENOMEM;
		s = cairo_svg_surface_create_for_stream(write_mem, mem, width, height);
		cairo_svg_surface_restrict_to_version(s, CAIRO_SVG_VERSION_1_1);
	} else {
		s = canvas_surface((int)width, (int)height);
	}
	cairo_t *cr = cairo_create(s);
	draw(cr, arg);
	cairo_status_t st = cairo_status(cr);
	cairo_destroy(cr);
	if (st == CAIRO_STATUS_SUCCESS && fmt == PICTURE_PNG) {
		cairo_surface_flush(s);
		int w = write_png(fp, s);
		if (w < 0)
			st = w == PICTURE_ENOMEM ? CAIRO_STATUS_NO_MEMORY : CAIRO_STATUS_WRITE_ERROR;
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
	return st == CAIRO_STATUS_SUCCESS ? 0 : st == CAIRO_STATUS_NO_MEMORY ? PICTURE_ENOMEM : -1;
}
