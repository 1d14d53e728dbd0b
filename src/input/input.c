/* input.c — reading, decompressing and splitting lines, a few chunks
 * ahead of the caller on a thread of its own; see input.h.
 *
 * The reading thread fills a ring of INPUT_CHUNKS chunks: each holds the
 * bytes of one or more reads and the lines that end in them.  The line a
 * chunk's bytes leave unfinished is carried to the start of the next
 * chunk, so every line handed out lies whole in one buffer.  The caller
 * holds one chunk at a time and gives it back when it asks for the next:
 * that is why lines stay valid until the next call. */
#define _GNU_SOURCE             /* F_SETPIPE_SZ */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "input/input.h"
#include "util/arena.h"
#include "input/decode.h"
#include "util/forkguard.h"
#include "util/compiler.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

struct input_chunk {
	char *buf;
	size_t cap, len;
	struct line *lines;         /* into buf */
	size_t n, lines_cap;
	int status;                 /* 0: more follows; 1: the input ends after
	                               these lines; -errno: it failed after them */
	uint64_t bytes;             /* read from the fd up to this chunk's end */
};

struct input_reader {
	int fd;                     /* -1 for bytes in memory: */
	const unsigned char *mem;
	size_t mem_len, mem_pos;
	int may_block;              /* not a regular file: a read may wait */
	struct input_chunk chunk[INPUT_CHUNKS];
	/* chunk[made % N] is the next to fill, chunk[used % N] the caller's
	 * while used < made. */
	unsigned made, used;
	pthread_mutex_t lock;
	pthread_cond_t ready, freed;
	pthread_t thread;
	int started, threaded;
	int guarded;                /* fill on the thread, inside the fork guard */
	atomic_int stop;
	/* The rest belongs to whoever fills chunks. */
	int detected;               /* compression checked */
	struct decoder *dec;        /* NULL for plain input */
	const char *error;          /* why reading failed */
	int html;                   /* -jdump=H seen */
	int ansi;                   /* an ESC byte was read: strip escapes */
	int in_style;               /* inside -jdump=H's <style> block */
	char *carry;                /* the unfinished line of the last chunk */
	size_t carry_len, carry_cap;
	uint64_t lineno, bytes;
};

/* The caller's side and a reader of fd (-1: none), not started. */
static struct input_reader *reader_new(struct input *in, int fd)
{
	memset(in, 0, sizeof(*in));
	in->fd = fd;
	struct input_reader *rd = xrealloc(NULL, sizeof(*rd));
	memset(rd, 0, sizeof(*rd));
	rd->fd = fd;
	pthread_mutex_init(&rd->lock, NULL);
	pthread_cond_init(&rd->ready, NULL);
	pthread_cond_init(&rd->freed, NULL);
	atomic_init(&rd->stop, 0);
	in->rd = rd;
	return rd;
}

void input_from_fd(struct input *in, int fd)
{
	struct input_reader *rd = reader_new(in, fd);
	struct stat st;
	rd->may_block = !(fstat(fd, &st) == 0 && S_ISREG(st.st_mode));
#ifdef F_SETPIPE_SZ
	/* A pipe of 64 KiB costs a context switch per 64 KiB with the
	 * writer; a larger one keeps `cat dump | dumpanalyze` near the speed
	 * of reading the file.  Best effort: the limit may be lower. */
	if (rd->may_block && S_ISFIFO(st.st_mode))
		(void)fcntl(fd, F_SETPIPE_SZ, (int)INPUT_PIPE);
#endif
}

void input_from_memory(struct input *in, const void *buf, size_t len)
{
	struct input_reader *rd = reader_new(in, -1);
	rd->mem = buf;
	rd->mem_len = len;
}

void input_without_thread(struct input *in)
{
	in->rd->started = 1;
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

/* ---- reading ------------------------------------------------------------ */

/* Bytes from the descriptor, for us or for the decoder.  On anything but
 * a regular file it waits in poll(), a tenth of a second at a time, so
 * that input_close can stop a thread whose writer went quiet. */
static long raw_read(void *ctx, unsigned char *buf, size_t n)
{
	struct input_reader *rd = ctx;
	if (rd->mem) {
		size_t k = rd->mem_len - rd->mem_pos < n ? rd->mem_len - rd->mem_pos : n;
		memcpy(buf, rd->mem + rd->mem_pos, k);
		rd->mem_pos += k;
		rd->bytes += k;
		return (long)k;
	}
	for (;;) {
		if (atomic_load(&rd->stop))
			return -ECANCELED;
		/* Waiting for input, the thread holds nothing a fork needs. */
		if (rd->guarded)
			fork_guard_leave();
		int k = 1, err = 0;
		ssize_t r = -1;
		if (rd->may_block && (k = poll(&(struct pollfd){ .fd = rd->fd, .events = POLLIN }, 1, 100)) < 0)
			err = errno;
		if (k > 0 && (r = read(rd->fd, buf, n)) < 0)
			err = errno;
		if (rd->guarded)
			fork_guard_enter();
		if (k == 0 || err == EINTR)
			continue;
		if (err)
			return -err;
		rd->bytes += (uint64_t)r;
		return r;
	}
}

/* Up to n bytes of the dump, decompressed: how many, 0 at the end, or
 * -errno (rd->error says why). */
static long read_some(struct input_reader *rd, char *buf, size_t n)
{
	if (rd->dec) {
		long r = decode_read(rd->dec, (unsigned char *)buf, n);
		if (r < 0) {
			rd->error = decode_error(rd->dec);
			return -EIO;
		}
		return r;
	}
	long r = raw_read(rd, (unsigned char *)buf, n);
	if (r > 0 && !rd->detected) {
		/* The first bytes say whether the stream is compressed; a pipe
		 * may deliver fewer than the longest magic (xz, 6 bytes) in one
		 * read, so read on until there are enough. */
		while (r < 6 && (size_t)r < n) {
			long more = raw_read(rd, (unsigned char *)buf + r, n - (size_t)r);
			if (more <= 0) {
				if (more < 0)
					r = more;
				break;
			}
			r += more;
		}
		rd->detected = 1;
		/* If so, these bytes become the decoder's first input. */
		enum compression c = r > 0 ? decode_detect((unsigned char *)buf, (size_t)r) : COMP_NONE;
		if (c != COMP_NONE) {
			rd->dec = decode_new(c, raw_read, rd, (unsigned char *)buf, (size_t)r);
			return read_some(rd, buf, n);
		}
	}
	if (r < 0)
		rd->error = strerror((int)-r);
	return r;
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
static size_t clean_html(struct input_reader *rd, char *p, size_t n)
{
	if (!rd->html) {
		if (!starts(p, n, "<style type=\"text/css\">") && !starts(p, n, "<pre class=\"ljdump\">"))
			return n;
		rd->html = 1;
	}
	if (rd->in_style || starts(p, n, "<style")) {
		rd->in_style = 1;
		for (size_t i = 0; i + 8 <= n; i++)
			if (memcmp(p + i, "</style>", 8) == 0)
				rd->in_style = 0;
		return 0;
	}
	if (!memchr(p, '<', n) && !memchr(p, '&', n))
		return n;
	return input_strip_html(p, n);
}

/* ---- lines ------------------------------------------------------------ */

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

/* A line's noise removed in place: the CR of a CRLF end, -jdump=H's
 * markup, -jdump=A's escapes. */
static void clean_line(struct input_reader *rd, struct line *l)
{
	char *line = (char *)l->p;
	size_t len = l->len;
	if (len && line[len - 1] == '\r')
		len--;
	if (rd->html || (len && line[0] == '<'))
		len = clean_html(rd, line, len);
	/* Per line only once an escape was seen in what was read. */
	if (rd->ansi && len && memchr(line, 0x1b, len))
		len = input_strip_ansi(line, len);
	l->len = len;
}

/* More room for c's lines, which forked workers do not get: at first for
 * the usual chunk (256 KiB in lines of 16 bytes and more; pages not
 * written cost nothing).  Out of the line loop, which it slowed. */
static DA_NOINLINE void grow_lines(struct input_chunk *c)
{
	size_t cap = c->lines_cap ? c->lines_cap * 2 : INPUT_BLOCK / 16;
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

/* Whether l may hold noise for clean_line: only the first and last bytes
 * are looked at until -jdump=H or =A is seen. */
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
		clean_line(rd, l);
}

/* The lines that end in c's bytes [from, len); the first began at
 * *start, which is left at the start of the line still unfinished.
 *
 * The hot loop of a run, so it calls nothing: its state lives in
 * registers only then.  It runs over as many 64-byte blocks as surely fit
 * the room for lines (a block ends 64 lines at most), and the lines that
 * need cleaning are cleaned after it, in order.  That is the same as
 * cleaning each as it is found, since cleaning changes nothing outside
 * the line, and no newline. */
static DA_NOINLINE void split(struct input_reader *rd, struct input_chunk *c, size_t *start, size_t from)
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
				clean_line(rd, &c->lines[i]);
	const char *nl;
	while ((nl = memchr(buf + w, '\n', len - w)) != NULL) {
		size_t stop = (size_t)(nl - buf);
		put_line(rd, c, pos, stop, ++no);
		pos = w = stop + 1;
	}
	rd->lineno = no;
	*start = pos;
}

static void reserve(char **buf, size_t *cap, size_t need)
{
	if (*cap >= need)
		return;
	*cap = *cap * 2 > need ? *cap * 2 : need;
	*buf = xrealloc(*buf, *cap);
}

/* The same for a chunk's buffer, which forked workers do not get,
 * keeping its first keep bytes. */
static void reserve_chunk(struct input_chunk *c, size_t need, size_t keep)
{
	if (c->cap >= need)
		return;
	size_t cap = c->cap * 2 > need ? c->cap * 2 : need;
	char *buf = fork_private_alloc(cap);
	if (keep)
		memcpy(buf, c->buf, keep);
	fork_private_free(c->buf, c->cap);
	c->buf = buf;
	c->cap = cap;
}

/* Fill c with at least one line, or the end of the input. */
static void fill_chunk(struct input_reader *rd, struct input_chunk *c)
{
	c->n = 0;
	c->status = 0;
	/* Room for a block after the carried line, and a little more so that
	 * the usual carry does not make every chunk grow. */
	reserve_chunk(c, rd->carry_len + INPUT_BLOCK + 4096, 0);
	if (rd->carry_len)
		memcpy(c->buf, rd->carry, rd->carry_len);
	c->len = rd->carry_len;
	size_t start = 0;           /* of the line not finished yet */
	while (c->n == 0) {
		if (c->len == c->cap)   /* one line longer than the chunk */
			reserve_chunk(c, c->cap * 2, c->len);
		long r = read_some(rd, c->buf + c->len, c->cap - c->len);
		if (r <= 0) {
			if (r == 0 && start < c->len)   /* no newline at the end */
				put_line(rd, c, start, c->len, ++rd->lineno);
			start = c->len;
			c->status = r == 0 ? 1 : (int)r;
			break;
		}
		if (!rd->ansi && memchr(c->buf + c->len, 0x1b, (size_t)r))
			rd->ansi = 1;
		size_t from = c->len;
		c->len += (size_t)r;
		split(rd, c, &start, from);
	}
	rd->carry_len = c->len - start;
	if (rd->carry_len) {
		reserve(&rd->carry, &rd->carry_cap, rd->carry_len);
		memcpy(rd->carry, c->buf + start, rd->carry_len);
	}
	c->bytes = rd->bytes;
}

/* fill_chunk, with running out of memory as the chunk's error: on the
 * reading thread nobody else could catch it. */
static void fill_chunk_caught(struct input_reader *rd, struct input_chunk *c)
{
	struct oom_catch oc;
	oom_push(&oc);
	if (setjmp(oc.env)) {
		c->status = -ENOMEM;
		rd->error = "out of memory";
		return;
	}
	fill_chunk(rd, c);
	oom_pop(&oc);
}

/* The reading thread: fills chunks while the caller has not taken
 * INPUT_CHUNKS of them, until the end of the input or input_close; at the
 * end it waits for input_close to join it (see forkguard.h). */
static void *reader_main(void *arg)
{
	struct input_reader *rd = arg;
	for (;;) {
		pthread_mutex_lock(&rd->lock);
		while (rd->made - rd->used == INPUT_CHUNKS && !atomic_load(&rd->stop))
			pthread_cond_wait(&rd->freed, &rd->lock);
		unsigned k = rd->made;
		pthread_mutex_unlock(&rd->lock);
		if (atomic_load(&rd->stop))
			break;
		struct input_chunk *c = &rd->chunk[k % INPUT_CHUNKS];
		fork_guard_enter();
		fill_chunk_caught(rd, c);
		fork_guard_leave();
		pthread_mutex_lock(&rd->lock);
		rd->made++;
		pthread_cond_signal(&rd->ready);
		pthread_mutex_unlock(&rd->lock);
		if (c->status)
			break;
	}
	pthread_mutex_lock(&rd->lock);
	while (!atomic_load(&rd->stop))
		pthread_cond_wait(&rd->freed, &rd->lock);
	pthread_mutex_unlock(&rd->lock);
	return NULL;
}

/* ---- the caller's side -------------------------------------------------- */

/* Give back the chunk whose lines were all handed out, and take the next
 * one with lines: 1, or 0 at the end, or -errno. */
static int next_chunk(struct input *in)
{
	struct input_reader *rd = in->rd;
	while (!in->cur || in->next == in->cur->n) {
		if (in->cur) {
			int status = in->cur->status;
			in->cur = NULL;
			pthread_mutex_lock(&rd->lock);
			rd->used++;
			pthread_cond_signal(&rd->freed);
			pthread_mutex_unlock(&rd->lock);
			if (status) {
				/* The reading thread is done: its state is ours. */
				in->status = status;
				in->error = rd->error;
				in->truncated = rd->dec && decode_truncated(rd->dec);
			}
		}
		if (in->status)
			return in->status > 0 ? 0 : in->status;
		if (!rd->started) {
			rd->started = 1;
			rd->guarded = 1;
			rd->threaded = fork_guard_thread(&rd->thread, reader_main, rd) == 0;
			if (!rd->threaded)
				rd->guarded = 0;
		}
		if (rd->threaded) {
			pthread_mutex_lock(&rd->lock);
			while (rd->made == rd->used)
				pthread_cond_wait(&rd->ready, &rd->lock);
			pthread_mutex_unlock(&rd->lock);
		} else {
			/* No thread (it could not be started): chunks on demand. */
			fill_chunk_caught(rd, &rd->chunk[rd->made % INPUT_CHUNKS]);
			rd->made++;
		}
		in->cur = &rd->chunk[rd->used % INPUT_CHUNKS];
		in->next = 0;
		in->bytes = in->cur->bytes;
	}
	return 1;
}

int input_next_chunk(struct input *in, const struct line **lines)
{
	int r = next_chunk(in);
	if (r <= 0)
		return r;
	size_t n = in->cur->n - in->next;
	if (n > INT32_MAX)
		n = INT32_MAX;
	*lines = in->cur->lines + in->next;
	in->next += n;
	in->lineno = (*lines)[n - 1].no;
	return (int)n;
}

int input_next_lines(struct input *in, struct line *out, int max)
{
	int r = next_chunk(in);
	if (r <= 0)
		return r;
	size_t n = in->cur->n - in->next;
	if (n > (size_t)max)
		n = (size_t)max;
	memcpy(out, in->cur->lines + in->next, n * sizeof(*out));
	in->next += n;
	in->lineno = out[n - 1].no;
	return (int)n;
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
	return decode_name(in->rd && in->rd->dec ? decode_kind(in->rd->dec) : COMP_NONE);
}

int input_truncated(const struct input *in)
{
	return in->truncated;
}

void input_close(struct input *in)
{
	struct input_reader *rd = in->rd;
	if (rd) {
		if (rd->threaded) {
			atomic_store(&rd->stop, 1);
			pthread_mutex_lock(&rd->lock);
			pthread_cond_signal(&rd->freed);
			pthread_mutex_unlock(&rd->lock);
			pthread_join(rd->thread, NULL);
		}
		decode_free(rd->dec);
		for (int i = 0; i < INPUT_CHUNKS; i++) {
			fork_private_free(rd->chunk[i].buf, rd->chunk[i].cap);
			fork_private_free(rd->chunk[i].lines,
			                  rd->chunk[i].lines_cap * sizeof(*rd->chunk[i].lines));
		}
		free(rd->carry);
		pthread_mutex_destroy(&rd->lock);
		pthread_cond_destroy(&rd->ready);
		pthread_cond_destroy(&rd->freed);
		free(rd);
		in->rd = NULL;
	}
	if (in->owns_fd && in->fd >= 0)
		close(in->fd);
	in->fd = -1;
	in->cur = NULL;
}
