/* input.c — block reads and line splitting; see input.h. */
#define _GNU_SOURCE             /* F_SETPIPE_SZ */
#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dumpanalyze/input.h"
#include "dumpanalyze/arena.h"
#include "dumpanalyze/decode.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

void input_from_fd(struct input *in, int fd)
{
#ifdef F_SETPIPE_SZ
	/* A pipe of 64 KiB costs a context switch per 64 KiB with the
	 * writer; a larger one keeps `cat dump | dumpanalyze` near the speed
	 * of reading the file.  Best effort: the limit may be lower. */
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
		(void)fcntl(fd, F_SETPIPE_SZ, (int)INPUT_BLOCK);
#endif
	memset(in, 0, sizeof(*in));
	in->fd = fd;
	in->cap = INPUT_BLOCK;
	in->buf = xrealloc(NULL, in->cap);
}

int input_open(struct input *in, const char *path)
{
	int fd = 0;
	if (strcmp(path, "-") != 0) {
		fd = open(path, O_RDONLY);
		if (fd < 0)
			return -errno;
	}
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (fd)
			close(fd);
		return -EISDIR;
	}
	input_from_fd(in, fd);
	in->owns_fd = fd != 0;
	return 0;
}

/* Move the unread tail to the front, grow when a single line fills the
 * whole buffer, and read one more block.  Returns bytes read, 0 at end of
 * input, or -errno. */
static long fill(struct input *in)
{
	if (in->pos > 0) {
		memmove(in->buf, in->buf + in->pos, in->end - in->pos);
		in->end -= in->pos;
		in->scanned -= in->pos;
		in->pos = 0;
	}
	if (in->end == in->cap) {
		in->cap *= 2;
		in->buf = xrealloc(in->buf, in->cap);
	}
	if (in->dec) {
		long r = decode_read(in->dec, (unsigned char *)in->buf + in->end, in->cap - in->end);
		if (r < 0) {
			in->error = decode_error(in->dec);
			return -EIO;
		}
		if (!in->ansi && memchr(in->buf + in->end, 0x1b, (size_t)r))
			in->ansi = 1;
		in->end += (size_t)r;
		in->bytes += (uint64_t)r;
		return r;
	}
	for (;;) {
		ssize_t r = read(in->fd, in->buf + in->end, in->cap - in->end);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			in->error = strerror(errno);
			return -errno;
		}
		if (!in->detected) {
			/* The first bytes say whether the stream is compressed; a
			 * pipe may deliver fewer than the longest magic (xz, 6
			 * bytes) in one read, so read on until there are enough. */
			while (r > 0 && (size_t)r < 6 && in->end + (size_t)r < in->cap) {
				ssize_t more = read(in->fd, in->buf + in->end + r, in->cap - in->end - (size_t)r);
				if (more < 0 && errno == EINTR)
					continue;
				if (more < 0) {
					in->error = strerror(errno);
					return -errno;
				}
				if (more == 0)
					break;
				r += more;
			}
			/* If so, these bytes become the decoder's first input. */
			in->detected = 1;
			enum compression c = decode_detect((unsigned char *)in->buf + in->end, (size_t)r);
			if (c != COMP_NONE) {
				in->dec = decode_new(c, in->fd, (unsigned char *)in->buf + in->end, (size_t)r);
				return fill(in);
			}
		}
		if (!in->ansi && memchr(in->buf + in->end, 0x1b, (size_t)r))
			in->ansi = 1;
		in->end += (size_t)r;
		in->bytes += (uint64_t)r;
		return r;
	}
}

/* ---- presentation noise ------------------------------------------------ */

/* ESC [ parameters final-byte (the SGR colours of -jdump=A), and any other
 * lone ESC. */
size_t input_strip_ansi(char *p, size_t n)
{
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		if (p[i] != 0x1b) {
			p[o++] = p[i];
			continue;
		}
		if (i + 1 < n && p[i + 1] == '[') {
			size_t k = i + 2;
			while (k < n && ((p[k] >= '0' && p[k] <= '9') || p[k] == ';' || p[k] == '?'))
				k++;
			if (k < n && p[k] >= 0x40 && p[k] <= 0x7e)
				i = k;
			else
				i = k - 1;
		}
	}
	return o;
}

static int starts(const char *p, size_t n, const char *w)
{
	size_t k = strlen(w);
	return n >= k && memcmp(p, w, k) == 0;
}

/* Tags out, entities decoded (dump.lua escapes < > & only; &quot; and
 * numeric ones are taken too). */
size_t input_strip_html(char *p, size_t n)
{
	static const struct { const char *name; char c; } ent[] = {
		{ "&lt;", '<' }, { "&gt;", '>' }, { "&amp;", '&' }, { "&quot;", '"' },
		{ "&apos;", '\'' }, { "&#39;", '\'' },
	};
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '<') {
			const char *gt = memchr(p + i, '>', n - i);
			if (gt) {
				i = (size_t)(gt - p);
				continue;
			}
		} else if (p[i] == '&') {
			size_t k;
			for (k = 0; k < sizeof(ent) / sizeof(ent[0]); k++)
				if (starts(p + i, n - i, ent[k].name))
					break;
			if (k < sizeof(ent) / sizeof(ent[0])) {
				p[o++] = ent[k].c;
				i += strlen(ent[k].name) - 1;
				continue;
			}
		}
		p[o++] = p[i];
	}
	return o;
}

/* -jdump=H: a <style> block first, each trace event in <pre>, IR types in
 * <span>s.  The mode switches on at the first of those and stays on. */
static size_t clean_html(struct input *in, char *p, size_t n)
{
	if (!in->html) {
		if (!starts(p, n, "<style type=\"text/css\">") && !starts(p, n, "<pre class=\"ljdump\">"))
			return n;
		in->html = 1;
	}
	if (in->in_style || starts(p, n, "<style")) {
		in->in_style = 1;
		for (size_t i = 0; i + 8 <= n; i++)
			if (memcmp(p + i, "</style>", 8) == 0)
				in->in_style = 0;
		in->cleaned++;
		return 0;
	}
	if (!memchr(p, '<', n) && !memchr(p, '&', n))
		return n;
	in->cleaned++;
	return input_strip_html(p, n);
}

/* ---- lines ------------------------------------------------------------ */

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


/* The line [pos, stop) with its noise removed; the next one starts at
 * next. */
static int input_take(struct input *in, struct line *out, size_t stop, size_t next)
{
	size_t len = stop - in->pos;
	if (len && in->buf[in->pos + len - 1] == '\r')
		len--;
	char *line = in->buf + in->pos;
	if (in->html || (len && line[0] == '<'))
		len = clean_html(in, line, len);
	/* Per line only once an escape was seen in what was read. */
	if (in->ansi && len && memchr(line, 0x1b, len)) {
		len = input_strip_ansi(line, len);
		in->cleaned++;
	}
	out->p = line;
	out->len = len;
	out->no = ++in->lineno;
	in->pos = next;
	return 1;
}

/* Fewer than 64 unscanned bytes are left: look for the newline in them,
 * reading more as needed, and take the line. */
static int input_next_tail(struct input *in, struct line *out)
{
	for (;;) {
		char *nl = memchr(in->buf + in->scanned, '\n', in->end - in->scanned);
		if (nl) {
			size_t stop = (size_t)(nl - in->buf);
			in->scanned = stop + 1;
			return input_take(in, out, stop, stop + 1);
		}
		if (in->eof) {
			if (in->pos == in->end)
				return 0;
			in->scanned = in->end;
			return input_take(in, out, in->end, in->end);
		}
		in->scanned = in->end;
		long r = fill(in);
		if (r < 0)
			return (int)r;
		if (r == 0)
			in->eof = 1;
	}
}

int input_next_lines(struct input *in, struct line *out, int max)
{
	/* input_next's fast path with the state in locals. */
	char *buf = in->buf;
	uint64_t mask = in->nlmask, lineno = in->lineno;
	size_t win = in->win, scanned = in->scanned, pos = in->pos, end = in->end;
	int noisy = in->html | in->ansi, n = 0;
	while (n < max) {
		while (!mask) {
			if (end - scanned < 64)
				goto tail;
			win = scanned;
			mask = input_newlines64(buf + win);
			scanned += 64;
		}
		size_t stop = win + (size_t)__builtin_ctzll(mask);
		mask &= mask - 1;
		const char *line = buf + pos;
		size_t len = stop - pos;
		if (noisy || (len && (line[len - 1] == '\r' || line[0] == '<'))) {
			in->nlmask = mask;
			in->win = win;
			in->scanned = scanned;
			in->pos = pos;
			in->lineno = lineno;
			input_take(in, &out[n++], stop, stop + 1);
			pos = in->pos;
			lineno = in->lineno;
			noisy = in->html | in->ansi;
			continue;
		}
		out[n].p = line;
		out[n].len = len;
		out[n].no = ++lineno;
		n++;
		pos = stop + 1;
	}
tail:
	in->nlmask = mask;
	in->win = win;
	in->scanned = scanned;
	in->pos = pos;
	in->lineno = lineno;
	if (n > 0)
		return n;
	return input_next_tail(in, out);
}

int input_next(struct input *in, struct line *out)
{
	return input_next_lines(in, out, 1);
}

const char *input_error(const struct input *in)
{
	return in->error ? in->error : "read error";
}

const char *input_compression(const struct input *in)
{
	return decode_name(in->dec ? decode_kind(in->dec) : COMP_NONE);
}

int input_truncated(const struct input *in)
{
	return in->dec && decode_truncated(in->dec);
}

void input_close(struct input *in)
{
	decode_free(in->dec);
	in->dec = NULL;
	if (in->owns_fd && in->fd >= 0)
		close(in->fd);
	in->fd = -1;
	free(in->buf);
	in->buf = NULL;
}
