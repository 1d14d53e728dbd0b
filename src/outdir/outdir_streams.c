/* outdir_streams.c — the stdio streams views write to: at most
 * OUTDIR_MAX_OPEN open, the least recently used closed (the file
 * suspended) and reopened on demand; each empties into its file's block,
 * which goes to the queue when full. */
#define _GNU_SOURCE             /* fopencookie */
#include <errno.h>
#include <stdio.h>
#include <stdio_ext.h>           /* __fpending */
#include <stdlib.h>
#include <string.h>
#include "outdir/outdir_impl.h"

static void lru_unlink(struct outfile *f)
{
	struct outdir *d = f->d;
	if (f->lru_prev)
		f->lru_prev->lru_next = f->lru_next;
	else
		d->lru_head = f->lru_next;
	if (f->lru_next)
		f->lru_next->lru_prev = f->lru_prev;
	else
		d->lru_tail = f->lru_prev;
	f->lru_prev = f->lru_next = NULL;
}

static void lru_push(struct outfile *f)
{
	struct outdir *d = f->d;
	f->lru_prev = NULL;
	f->lru_next = d->lru_head;
	if (d->lru_head)
		d->lru_head->lru_prev = f;
	d->lru_head = f;
	if (!d->lru_tail)
		d->lru_tail = f;
}

/* The bytes filled so far, on their way to the writing thread. */
static void queue_fill(struct outfile *f)
{
	if (f->fill_len)
		outdir_submit(f->d, OP_WRITE, f, f->fill, f->fill_len);
	else if (f->fill)
		outdir_block_give(f->d, f->fill);
	f->fill = NULL;
	f->fill_len = 0;
}

static void fill(struct outfile *f, const char *p, size_t n)
{
	while (n > 0) {
		if (!f->fill)
			f->fill = outdir_block_take(f->d);
		size_t k = OUTDIR_BLOCK - f->fill_len;
		if (k > n)
			k = n;
		memcpy(f->fill + f->fill_len, p, k);
		f->fill_len += k;
		p += k;
		n -= k;
		if (f->fill_len == OUTDIR_BLOCK)
			queue_fill(f);
	}
}

/* The stream's full buffer. */
static ssize_t cookie_write(void *cookie, const char *buf, size_t n)
{
	struct outfile *f = cookie;
	if (atomic_load(&f->d->failed)) {
		errno = EIO;
		return -1;
	}
	fill(f, buf, n);
	return (ssize_t)n;
}

int outdir_close_stream(struct outfile *f)
{
	if (!f->fp)
		return 0;
	int r = fclose(f->fp);
	f->fp = NULL;
	queue_fill(f);
	lru_unlink(f);
	f->d->nopen--;
	return r == 0 && !atomic_load(&f->d->failed) ? 0 : -1;
}

void outdir_open_stream(struct outfile *f, enum op_kind how)
{
	struct outdir *d = f->d;
	while (d->nopen >= OUTDIR_MAX_OPEN && d->lru_tail) {
		struct outfile *victim = d->lru_tail;
		outdir_close_stream(victim);
		outdir_submit(d, OP_SUSPEND, victim, NULL, 0);
	}
	outdir_submit(d, how, f, NULL, 0);
	static const cookie_io_functions_t io = { .write = cookie_write };
	/* stdio's own buffer (BUFSIZ): emptied into the block by a copy */
	f->fp = fopencookie(f, "w", io);
	if (!f->fp)
		out_of_memory();
	d->nopen++;
	lru_push(f);
}

FILE *outfile_fp(struct outfile *f)
{
	if (atomic_load(&f->d->failed))
		return NULL;
	if (f->fp) {
		if (f->d->lru_head != f) {
			lru_unlink(f);
			lru_push(f);
		}
		return f->fp;
	}
	outdir_open_stream(f, OP_REOPEN);
	return f->fp;
}

int outfile_write(struct outfile *f, const void *p, size_t n)
{
	FILE *fp = outfile_fp(f);
	if (!fp)
		return -1;
	/* after what went through the stream */
	if (__fpending(fp) && fflush(fp) != 0)
		return -1;
	fill(f, p, n);
	return 0;
}

