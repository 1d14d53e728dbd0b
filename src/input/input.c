/* input.c — the chunk ring and its reading thread, a few chunks ahead of
 * the caller, and input.h's functions; see input.h.
 *
 * The reading thread fills a ring of INPUT_CHUNKS chunks: each holds the
 * bytes of one or more reads (read.c) and the lines that end in them
 * (split.c).  The line a chunk's bytes leave unfinished is carried to the
 * start of the next chunk, so every line handed out lies whole in one
 * buffer.  The caller holds one chunk at a time and gives it back when it
 * asks for the next: that is why lines stay valid until the next call. */
#define _GNU_SOURCE             /* F_SETPIPE_SZ */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "input/input_impl.h"
#include "input/decode.h"
#include "util/alloc.h"
#include "util/forkguard.h"

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

void input_from_push(struct input *in)
{
	struct input_reader *rd = reader_new(in, -1);
	bgthread_forgo(&rd->reading);
}

void input_without_thread(struct input *in)
{
	bgthread_forgo(&in->rd->reading);
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

/* Room for need bytes in a chunk's buffer, which forked workers do not
 * get, keeping its first keep bytes. */
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
	 * the usual carry does not make every chunk grow; for bytes in
	 * memory not known to be compressed, no more than what is left of
	 * them (a small dump then costs a small buffer; a compressed one
	 * grows its first chunk as it would for a long line). */
	size_t block = INPUT_BLOCK;
	if (rd->mem && !rd->dec && rd->mem_len - rd->mem_pos < block)
		block = rd->mem_len - rd->mem_pos;
	reserve_chunk(c, rd->carry_len + block + 4096, 0);
	if (rd->carry_len)
		memcpy(c->buf, rd->carry, rd->carry_len);
	c->len = rd->carry_len;
	size_t start = 0;           /* of the line not finished yet */
	while (c->n == 0) {
		/* A line past the cap is skipped: its bytes so far go, and
		 * so will the rest as it is read, up to its newline. */
		if (c->len - start > INPUT_LINE_MAX || rd->skipping) {
			rd->skipping = 1;
			c->len = start;
		}
		if (c->len == c->cap)   /* one line longer than the chunk */
			reserve_chunk(c, c->cap * 2, c->len);
		/* No more than takes the unfinished line one past the cap:
		 * then no line the read ends is longer than the cap. */
		size_t most = INPUT_LINE_MAX + 1 - (c->len - start);
		long r = input_read_some(rd, c->buf + c->len,
		                         c->cap - c->len < most ? c->cap - c->len : most);
		if (r <= 0) {
			if (rd->skipping) {     /* the input ends inside it */
				rd->skipping = 0;
				input_split_overlong(rd, c);
			} else if (r == 0 && start < c->len) {  /* no newline at the end */
				input_split_last(rd, c, start);
			}
			start = c->len;
			c->status = r == 0 ? 1 : (int)r;
			break;
		}
		size_t from = c->len;
		c->len += (size_t)r;
		if (rd->skipping) {
			const char *nl = memchr(c->buf + from, '\n', (size_t)r);
			if (!nl)
				continue;
			rd->skipping = 0;
			input_split_overlong(rd, c);
			start = from = (size_t)(nl - c->buf) + 1;
		}
		if (!rd->ansi && memchr(c->buf + from, 0x1b, c->len - from))
			rd->ansi = 1;
		input_split(rd, c, &start, from);
	}
	rd->carry_len = c->len - start;
	if (rd->carry_len) {
		ALLOC_GROW(rd->carry, rd->carry_len, rd->carry_cap);
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
	rd->quit = 1;               /* a caller waiting for a chunk waits no more */
	pthread_cond_signal(&rd->ready);
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
		if (bgthread_start(&rd->reading, reader_main, rd) == 0) {
			pthread_mutex_lock(&rd->lock);
			while (rd->made == rd->used && !rd->quit)
				pthread_cond_wait(&rd->ready, &rd->lock);
			int none = rd->made == rd->used;
			pthread_mutex_unlock(&rd->lock);
			if (none) {
				/* Stopped by input_interrupt (from a signal
				 * handler, which cannot wake us) between chunks:
				 * interrupted, not waiting for ever. */
				in->status = -ECANCELED;
				return in->status;
			}
		} else {
			/* No thread (none could be started, or none is
			 * wanted): chunks on demand. */
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

void input_interrupt(struct input *in)
{
	if (in->rd)
		atomic_store(&in->rd->stop, 1);
}

void input_close(struct input *in)
{
	struct input_reader *rd = in->rd;
	if (rd) {
		if (rd->reading.running) {
			atomic_store(&rd->stop, 1);
			pthread_mutex_lock(&rd->lock);
			pthread_cond_signal(&rd->freed);
			pthread_mutex_unlock(&rd->lock);
			bgthread_join(&rd->reading);
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
