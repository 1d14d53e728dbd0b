/* split.c — the line splitter: a chunk's bytes into lines, newlines found
 * 64 bytes at a time, the few lines that may hold noise cleaned after. */
#include <string.h>
#include "input/input_impl.h"
#include "util/compiler.h"
#include "util/forkguard.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Bit i set when p[i] is a newline. */
static inline uint64_t newlines64(const char *p)
{
#ifdef __SSE2__
	const __m128i nl = _mm_set1_epi8('\n');
	const __m128i *v = (const __m128i *)(const void *)p;
	uint64_t m0 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v), nl));
	uint64_t m1 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v + 1), nl));
	uint64_t m2 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v + 2), nl));
	uint64_t m3 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v + 3), nl));
	return m0 | m1 << 16 | m2 << 32 | m3 << 48;
#else
	uint64_t m = 0;
	for (int i = 0; i < 64; i++)
		m |= (uint64_t)(p[i] == '\n') << i;
	return m;
#endif
}

/* More room for c's lines, which forked workers do not get: at first for
 * the chunk's bytes in lines of 16 bytes and more (pages not written
 * cost nothing).  Out of the line loop, which it slowed. */
static DA_NOINLINE void grow_lines(struct input_chunk *c)
{
	size_t cap = c->lines_cap ? c->lines_cap * 2 : c->cap / 16 > 256 ? c->cap / 16 : 256;
	struct line *lines = fork_private_alloc(cap * sizeof(*lines));
	if (c->n)
		memcpy(lines, c->lines, c->n * sizeof(*lines));
	fork_private_free(c->lines, c->lines_cap * sizeof(*lines));
	c->lines = lines;
	c->lines_cap = cap;
}

/* Whether l's first and last bytes say it may hold noise: a CR before
 * its end, or markup. */
static inline int suspect_line(const struct line *l)
{
	return l->len && (l->p[l->len - 1] == '\r' || l->p[0] == '<');
}

/* Whether l may hold noise for input_clean_line: only the first and last
 * bytes are looked at until -jdump=H or =A is seen. */
static inline int noisy_line(const struct input_reader *rd, const struct line *l)
{
	return rd->html | rd->ansi || suspect_line(l);
}

/* The line [start, stop) of c's buffer becomes c's next line. */
static inline void put_line(struct input_reader *rd, struct input_chunk *c, size_t start,
                            size_t stop, uint64_t no)
{
	if (c->n == c->lines_cap)
		grow_lines(c);
	struct line *l = &c->lines[c->n++];
	l->p = c->buf + start;
	l->len = stop - start;
	l->no = no;
	if (noisy_line(rd, l))
		input_clean_line(rd, l);
}

/* The hot loop of a run, so it calls nothing: its state lives in
 * registers only then.  It runs over as many 64-byte blocks as surely fit
 * the room for lines (a block ends 64 lines at most), and the lines that
 * need cleaning are cleaned after it, in order.  That is the same as
 * cleaning each as it is found, since cleaning changes nothing outside
 * the line, and no newline.  A function of its own (noinline, should
 * link-time optimisation see its caller). */
DA_NOINLINE void input_split(struct input_reader *rd, struct input_chunk *c, size_t *start, size_t from)
{
	const char *buf = c->buf;
	size_t pos = *start, w = from, len = c->len, n = c->n, first = n;
	uint64_t no = rd->lineno;
	int suspect = rd->html | rd->ansi;
	while (w + 64 <= len) {
		if (c->lines_cap - n < 64) {
			c->n = n;
			grow_lines(c);
		}
		struct line *lines = c->lines;
		size_t end = w + (c->lines_cap - n) / 64 * 64;
		if (end > len)
			end = len;
		for (; w + 64 <= end; w += 64)
			for (uint64_t mask = newlines64(buf + w); mask; mask &= mask - 1) {
				size_t stop = w + (unsigned)__builtin_ctzll(mask);
				struct line *l = &lines[n++];
				l->p = buf + pos;
				l->len = stop - pos;
				l->no = ++no;
				if (suspect_line(l))
					suspect = 1;
				pos = stop + 1;
			}
	}
	c->n = n;
	if (suspect)
		for (size_t i = first; i < n; i++)
			if (noisy_line(rd, &c->lines[i]))
				input_clean_line(rd, &c->lines[i]);
	const char *nl;
	while ((nl = memchr(buf + w, '\n', len - w)) != NULL) {
		size_t stop = (size_t)(nl - buf);
		put_line(rd, c, pos, stop, ++no);
		pos = w = stop + 1;
	}
	rd->lineno = no;
	*start = pos;
}

void input_split_last(struct input_reader *rd, struct input_chunk *c, size_t start)
{
	put_line(rd, c, start, c->len, ++rd->lineno);
}

const char input_overlong[1] = "";

void input_split_overlong(struct input_reader *rd, struct input_chunk *c)
{
	if (c->n == c->lines_cap)
		grow_lines(c);
	c->lines[c->n++] = (struct line){ input_overlong, 0, ++rd->lineno };
}
