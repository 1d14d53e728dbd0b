/* push.c — a dump whose bytes the caller pushes in pieces (da_feed): the
 * lines a piece completes are split where they lie, by split.c like any
 * other input, and handed on before input_push returns; only the line the
 * piece leaves unfinished is kept, copied, and it is never scanned again,
 * so pieces of one byte cost what one piece of all of them does.
 * Compressed bytes are decompressed as they come, into the carry. */
#include <errno.h>
#include <string.h>
#include "input/input_impl.h"
#include "input/decode.h"
#include "util/alloc.h"

/* The longest magic (xz): bytes kept until they say what the stream is. */
#define MAGIC_MAX 6

/* What one input_push call hands its lines to. */
struct sink {
	struct input *in;
	input_lines_fn fn;
	void *ctx;
};

/* The cap on a line's length (INPUT_LINE_MAX, which input.c's reads keep
 * to): a line past it is handed on as the one empty line
 * input_split_overlong makes, as read input does, whether it ends within
 * a piece or grows in the carry. */
static int overlong(struct input_reader *rd, struct sink *s)
{
	struct input_chunk *c = &rd->chunk[0];
	c->n = 0;
	input_split_overlong(rd, c);
	s->in->lineno = rd->lineno;
	return s->fn(s->ctx, c->lines, c->n);
}

/* Lines a piece completes past the cap, as input_split_overlong's. */
static void cap_lines(struct input_chunk *c)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->lines[i].len > INPUT_LINE_MAX)
			c->lines[i] = (struct line){ input_overlong, 0, c->lines[i].no };
}

/* An unfinished line past the cap: dropped, and so is the rest of it. */
static void cap_carry(struct input_reader *rd)
{
	if (rd->carry_len > INPUT_LINE_MAX) {
		rd->skipping = 1;
		rd->carry_len = 0;
	}
}

/* While skipping: the bytes up to the line's end go; then the overlong
 * line.  What is left of p, n is the rest after it. */
static int skip(struct input_reader *rd, struct sink *s, const char **p, size_t *n, int last)
{
	if (!rd->skipping)
		return 0;
	const char *nl = *n ? memchr(*p, '\n', *n) : NULL;
	if (!nl && !last) {
		*p += *n;
		*n = 0;
		return 0;
	}
	rd->skipping = 0;
	size_t k = nl ? (size_t)(nl - *p) + 1 : *n;
	*p += k;
	*n -= k;
	return overlong(rd, s);
}

/* The carry as the chunk the splitter works on: its lines end in
 * [from, carry_len); the unfinished rest is moved to its front. */
static int split_carry(struct input_reader *rd, struct sink *s, size_t from, int last)
{
	struct input_chunk *c = &rd->chunk[0];
	c->buf = rd->carry;
	c->len = rd->carry_len;
	c->n = 0;
	size_t start = 0;
	input_split(rd, c, &start, from);
	if (last && start < c->len) {   /* no newline at the end */
		input_split_last(rd, c, start);
		start = c->len;
	}
	int r = 0;
	cap_lines(c);
	if (c->n) {
		s->in->lineno = rd->lineno;
		r = s->fn(s->ctx, c->lines, c->n);
	}
	c->buf = NULL;              /* the carry is not the chunk's to free */
	c->len = 0;
	if (start) {
		memmove(rd->carry, rd->carry + start, rd->carry_len - start);
		rd->carry_len -= start;
	}
	return r;
}

/* An escape byte in what was read turns on cleaning escapes, as in
 * fill_chunk. */
static void carry_append(struct input_reader *rd, const char *p, size_t n)
{
	if (!n)
		return;
	if (!rd->ansi && memchr(p, 0x1b, n))
		rd->ansi = 1;
	ALLOC_GROW(rd->carry, rd->carry_len + n, rd->carry_cap);
	memcpy(rd->carry + rd->carry_len, p, n);
	rd->carry_len += n;
}

/* Whether cleaning p's lines could write to them (input_clean_line does
 * only for -jdump=H's markup and -jdump=A's escapes): then they are
 * split in a copy, since the caller's bytes are read-only. */
static int may_write(struct input_reader *rd, const char *p, size_t n)
{
	if (!rd->ansi && memchr(p, 0x1b, n))
		rd->ansi = 1;
	return rd->html || rd->ansi || memchr(p, '<', n) != NULL;
}

/* Plain bytes.  The carry holds no newline between calls. */
static int plain(struct input_reader *rd, struct sink *s, const char *p, size_t n, int last)
{
	int r = skip(rd, s, &p, &n, last);
	if (r < 0)
		return r;
	const char *nl = n ? memchr(p, '\n', n) : NULL;
	if (!nl) {
		carry_append(rd, p, n);
		cap_carry(rd);
		if (last && rd->skipping)
			return skip(rd, s, &p, &n, 1);
		return last && rd->carry_len ? split_carry(rd, s, rd->carry_len, 1) : 0;
	}
	if (rd->carry_len) {        /* the unfinished line ends here */
		size_t k = (size_t)(nl - p) + 1, from = rd->carry_len;
		carry_append(rd, p, k);
		if ((r = split_carry(rd, s, from, 0)) < 0)
			return r;
		p += k;
		n -= k;
	}
	const char *end = p, *q;
	for (q = p + n; q > p; q--)     /* after the last newline */
		if (q[-1] == '\n') {
			end = q;
			break;
		}
	size_t whole = (size_t)(end - p);
	if (whole && may_write(rd, p, whole)) {
		carry_append(rd, p, whole);
		if ((r = split_carry(rd, s, 0, 0)) < 0)
			return r;
	} else if (whole) {
		/* In place: the splitter only reads these bytes. */
		struct input_chunk *c = &rd->chunk[1];
		c->buf = (char *)(uintptr_t)p;
		c->len = whole;
		c->n = 0;
		size_t start = 0;
		input_split(rd, c, &start, 0);
		cap_lines(c);
		c->buf = NULL;
		c->len = 0;
		s->in->lineno = rd->lineno;
		if (c->n && (r = s->fn(s->ctx, c->lines, c->n)) < 0)
			return r;
	}
	carry_append(rd, end, n - whole);
	cap_carry(rd);
	if (last && rd->skipping)
		return skip(rd, s, &p, &n, 1);
	return last && rd->carry_len ? split_carry(rd, s, rd->carry_len, 1) : 0;
}

/* The decoder's source: the piece being pushed, then "none yet" until
 * the last one. */
static long pushed_bytes(void *ctx, unsigned char *buf, size_t n)
{
	struct input_reader *rd = ctx;
	size_t k = rd->push_len - rd->push_pos;
	if (k == 0)
		return rd->push_last ? 0 : -EAGAIN;
	if (k > n)
		k = n;
	memcpy(buf, rd->push + rd->push_pos, k);
	rd->push_pos += k;
	return (long)k;
}

/* Compressed bytes: decompressed into the carry's free room, a block at
 * a time, and split there, until the decoder wants more. */
static int compressed(struct input_reader *rd, struct sink *s, const void *p, size_t n, int last)
{
	rd->push = p;
	rd->push_len = n;
	rd->push_pos = 0;
	rd->push_last = last;
	int r = 0;
	for (;;) {
		ALLOC_GROW(rd->carry, rd->carry_len + INPUT_BLOCK, rd->carry_cap);
		long k = decode_read(rd->dec, (unsigned char *)rd->carry + rd->carry_len,
		                     rd->carry_cap - rd->carry_len);
		if (k == DECODE_AGAIN)
			break;
		if (k < 0) {            /* -ENOMEM where the decoder says so */
			rd->error = s->in->error = decode_error(rd->dec);
			r = k == -ENOMEM ? -ENOMEM : -EIO;
			break;
		}
		const char *got = rd->carry + rd->carry_len;
		size_t ngot = (size_t)k;
		if (k == 0 || rd->skipping) {
			/* the end, or the rest of a line past the cap */
			if ((r = skip(rd, s, &got, &ngot, k == 0)) < 0)
				break;
			memmove(rd->carry + rd->carry_len, got, ngot);
		}
		if (k == 0) {
			r = rd->carry_len ? split_carry(rd, s, rd->carry_len, 1) : 0;
			s->in->truncated = decode_truncated(rd->dec);
			break;
		}
		if (!rd->ansi && memchr(rd->carry + rd->carry_len, 0x1b, ngot))
			rd->ansi = 1;
		size_t from = rd->carry_len;
		rd->carry_len += ngot;
		if ((r = split_carry(rd, s, from, 0)) < 0)
			break;
		cap_carry(rd);
	}
	rd->push = NULL;
	rd->push_len = rd->push_pos = 0;
	return r;
}

int input_push(struct input *in, const void *buf, size_t len, int last,
               input_lines_fn fn, void *ctx)
{
	struct input_reader *rd = in->rd;
	struct sink s = { in, fn, ctx };
	const char *p = len ? buf : "";     /* no bytes may come as NULL */
	rd->bytes += len;
	in->bytes = rd->bytes;
	if (!rd->detected) {
		size_t k = MAGIC_MAX - rd->nhead < len ? MAGIC_MAX - rd->nhead : len;
		memcpy(rd->head + rd->nhead, p, k);
		rd->nhead += k;
		p += k;
		len -= k;
		if (rd->nhead < MAGIC_MAX && !last)
			return 0;
		rd->detected = 1;
		enum compression c = decode_detect(rd->head, rd->nhead);
		if (c != COMP_NONE) {
			rd->dec = decode_new(c, pushed_bytes, rd, rd->head, rd->nhead);
		} else {
			/* The first bytes are the dump's own: taken as a piece
			 * of their own, before the rest. */
			int r = plain(rd, &s, (const char *)rd->head, rd->nhead, last && !len);
			if (r < 0 || (!len && !last))
				return r;
		}
	}
	int r = rd->dec ? compressed(rd, &s, p, len, last) : plain(rd, &s, p, len, last);
	if (r == 0 && last)
		in->status = 1;
	return r;
}
