/* input.h — a dump as a stream of lines, from a file or a pipe.
 * Reads large blocks, splits lines itself, never seeks, and hands out
 * lines of any length without their line end ("\n" or "\r\n").  It owns
 * the presentation noise: compression (by magic bytes), ANSI colour
 * escapes (-jdump=A) and the HTML of -jdump=H are gone from the lines it
 * returns. */
#ifndef DUMPANALYZE_INPUT_H
#define DUMPANALYZE_INPUT_H

#include <stddef.h>
#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define INPUT_BLOCK (1u << 20)

struct decoder;

struct input {
	int fd;
	int owns_fd;
	int detected;               /* compression checked */
	struct decoder *dec;        /* NULL for plain input */
	const char *error;          /* why the last read failed */
	int html;                   /* -jdump=H seen */
	int ansi;                   /* an ESC byte was read: strip escapes */
	int in_style;               /* inside its <style> block */
	uint64_t cleaned;           /* lines that lost escapes or markup */
	char *buf;
	size_t cap, pos, end;
	/* Newlines are found 64 bytes at a time: nlmask holds the ones in
	 * [win, win + 64) not handed out yet; scanned is past every byte
	 * looked at. */
	size_t scanned, win;
	uint64_t nlmask;
	int eof;
	uint64_t lineno;
	uint64_t bytes;             /* bytes read so far */
};

struct line {
	const char *p;              /* not NUL-terminated */
	size_t len;
	uint64_t no;                /* 1-based */
};

/* path "-" is standard input.  Returns 0 or -errno (a directory gives
 * -EISDIR). */
int input_open(struct input *in, const char *path);
/* Also for tests: read from an already open descriptor. */
void input_from_fd(struct input *in, int fd);
/* Up to max lines at once, the same ones input_next would give one by
 * one: fewer calls for the many short lines of a dump.  All stay valid
 * until the next call (a batch ends before the buffer is refilled).
 * Returns how many, 0 at the end of input, or -errno. */
int input_next_lines(struct input *in, struct line *out, int max);
#define INPUT_BATCH 256

/* The slow paths of input_next. */
int input_take(struct input *in, struct line *out, size_t stop, size_t next);
int input_next_tail(struct input *in, struct line *out);

/* Bit i set when p[i] is a newline. */
static inline uint64_t input_newlines64(const char *p)
{
#ifdef __SSE2__
	const __m128i nl = _mm_set1_epi8('\n');
	const __m128i *v = (const __m128i *)(const void *)p;
	uint64_t m0 = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v), nl));
	uint64_t m1 = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v + 1), nl));
	uint64_t m2 = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v + 2), nl));
	uint64_t m3 = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v + 3), nl));
	return m0 | m1 << 16 | m2 << 32 | m3 << 48;
#else
	uint64_t m = 0;
	for (int i = 0; i < 64; i++)
		m |= (uint64_t)(p[i] == '\n') << i;
	return m;
#endif
}

/* 1: a line; 0: end of input; -errno: read error (input_error says
 * why).  The line stays valid until the next call.  Inline because it
 * runs once per line: most lines end inside the current 64-byte window
 * and need neither cleaning nor a read. */
static inline int input_next(struct input *in, struct line *out)
{
	uint64_t mask = in->nlmask;
	size_t win = in->win;
	while (!mask) {
		if (in->end - in->scanned < 64)
			return input_next_tail(in, out);
		win = in->win = in->scanned;
		mask = input_newlines64(in->buf + win);
		in->scanned += 64;
	}
	size_t stop = win + (size_t)__builtin_ctzll(mask);
	size_t pos = in->pos;
	in->nlmask = mask & (mask - 1);
	const char *line = in->buf + pos;
	size_t len = stop - pos;
	if ((in->html | in->ansi) || (len && (line[len - 1] == '\r' || line[0] == '<')))
		return input_take(in, out, stop, stop + 1);
	in->pos = stop + 1;
	out->p = line;
	out->len = len;
	out->no = ++in->lineno;
	return 1;
}

const char *input_error(const struct input *in);
/* "gzip", "xz", "zstd" or "plain"; and whether a compressed stream ended
 * before its end marker (a dump cut off while it was written). */
const char *input_compression(const struct input *in);
int input_truncated(const struct input *in);
/* Remove ANSI escapes, or HTML tags and entities, in place; returns the
 * new length.  Exposed for tests. */
size_t input_strip_ansi(char *p, size_t n);
size_t input_strip_html(char *p, size_t n);
void input_close(struct input *in);

#endif
