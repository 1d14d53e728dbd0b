/* outdir_writer.c — the output directory's queue of operations and the
 * thread that does them in order: creating, writing, closing, renaming
 * and removing files.  Without a thread (none to be had) each operation
 * is done when it is queued.  The first failure is printed here; from
 * then on nothing is renamed. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include "outdir/outdir_impl.h"
#include "output/message.h"
#include "util/alloc.h"
#include "util/forkguard.h"

/* What an operation counts in the queue: its block, and the operation
 * itself (thousands of files' creates and commits, without bytes, must
 * wake the writing thread too). */
static size_t op_size(const struct op *op)
{
	return sizeof(*op) + (op->block ? OUTDIR_BLOCK : 0);
}

static void op_free(struct outdir *d, struct op *op)
{
	if (op->block)
		outdir_block_give(d, op->block);
	free(op);
}

/* ---- the writing thread -------------------------------------------------- */

static void free_file(struct outfile *f)
{
	free(f->name);
	free(f->tmp);
	free(f);
}

/* The first failure is the one printed: the rest follow from it (a full
 * disk fails every file after the first). */
static void fail(struct outfile *f, int err)
{
	if (atomic_exchange(&f->d->failed, 1) == 0)
		msg_error("%s/%s: %s", f->d->shown, f->name, strerror(err));
}

static void close_fd(struct outfile *f)
{
	if (f->fd < 0)
		return;
	int r = FS_CALL(f->d->fs, close, f->fd);
	if (r < 0)
		fail(f, -r);
	f->fd = -1;
}

static void open_fd(struct outfile *f, int flags)
{
	f->fd = FS_CALL(f->d->fs, open, f->d->fd, f->tmp, flags | O_WRONLY | O_NOFOLLOW, 0666);
	if (f->fd < 0) {
		fail(f, -f->fd);
		f->fd = -1;
	}
}

static void write_all(struct outfile *f, const char *p, size_t n)
{
	if (f->fd < 0)
		return;
	int r = fs_write_all(f->d->fs, f->fd, p, n);
	if (r < 0) {
		fail(f, -r);
		close_fd(f);
	}
}

static void remove_file(struct outfile *f)
{
	close_fd(f);
	FS_CALL(f->d->fs, unlink, f->d->fd, f->tmp);
	free_file(f);
}

static void run_op(struct outdir *d, struct op *op)
{
	struct outfile *f = op->f;
	/* After a failure only clearing up is done. */
	int failed = atomic_load(&d->failed);
	switch (op->kind) {
	case OP_CREATE:
		if (!failed)
			open_fd(f, O_CREAT | O_TRUNC);
		break;
	case OP_REOPEN:
		if (!failed)
			open_fd(f, O_APPEND);
		break;
	case OP_WRITE:
		if (!failed)
			write_all(f, op->block, op->len);
		break;
	case OP_SUSPEND:
		close_fd(f);
		break;
	case OP_COMMIT:
		close_fd(f);
		if (atomic_load(&d->failed)) {
			remove_file(f);
			break;
		}
		f->complete_next = NULL;
		if (d->complete_tail)
			d->complete_tail->complete_next = f;
		else
			d->complete_head = f;
		d->complete_tail = f;
		break;
	case OP_DISCARD:
		remove_file(f);
		break;
	case OP_PUBLISH:
		while (!failed && d->complete_head) {
			struct outfile *c = d->complete_head;
			int r = FS_CALL(d->fs, rename, d->fd, c->tmp, d->fd, c->name);
			if (r < 0) {
				fail(c, -r);
				break;
			}
			d->written++;
			d->complete_head = c->complete_next;
			free_file(c);
		}
		if (!d->complete_head)
			d->complete_tail = NULL;
		break;
	case OP_DROP_COMPLETE:
		while (d->complete_head) {
			struct outfile *c = d->complete_head;
			d->complete_head = c->complete_next;
			remove_file(c);
		}
		d->complete_tail = NULL;
		break;
	}
}

/* The writing thread takes the whole queue at a time and gives back its
 * blocks at once: a lock and a wake-up per operation made the two threads
 * trade 100,000 futex calls over a dump's 40,000 operations. */
static void *writer_main(void *arg)
{
	struct outdir *d = arg;
	pthread_mutex_lock(&d->lock);
	for (;;) {
		while (!d->head && !d->stopping) {
			d->asleep = 1;
			do
				pthread_cond_wait(&d->work, &d->lock);
			while (d->asleep);
		}
		if (!d->head)
			break;
		pthread_mutex_unlock(&d->lock);
		/* The operations are taken inside the guard: a fork must not
		 * find them in neither the queue nor a thread it copies. */
		fork_guard_enter();
		pthread_mutex_lock(&d->lock);
		struct op *op = d->head;        /* only this thread takes */
		d->head = d->tail = NULL;
		d->busy = 1;
		pthread_mutex_unlock(&d->lock);
		size_t done = 0;
		struct block *freed = NULL, *freed_last = NULL;
		while (op) {
			struct op *next = op->next;
			run_op(d, op);
			done += op_size(op);
			if (op->block) {
				struct block *b = (struct block *)(void *)op->block;
				b->next = freed;
				freed = b;
				if (!freed_last)
					freed_last = b;
			}
			free(op);
			op = next;
		}
		pthread_mutex_lock(&d->lock);
		if (freed)
			outdir_blocks_give_locked(d, freed, freed_last);
		d->queued -= done;
		d->busy = 0;
		pthread_cond_signal(&d->room);
		if (!d->head)
			pthread_cond_broadcast(&d->idle);
		pthread_mutex_unlock(&d->lock);
		fork_guard_leave();
		pthread_mutex_lock(&d->lock);
	}
	pthread_mutex_unlock(&d->lock);
	return NULL;
}

/* Wake the writing thread (the lock held). */
static void wake(struct outdir *d)
{
	if (d->asleep) {
		d->asleep = 0;
		pthread_cond_signal(&d->work);
	}
}

/* ---- the caller's side ------------------------------------------------------ */

void outdir_submit(struct outdir *d, enum op_kind kind, struct outfile *f,
                   char *block, size_t len)
{
	struct op *op = xrealloc(NULL, sizeof(*op));
	op->kind = kind;
	op->f = f;
	op->block = block;
	op->len = len;
	op->next = NULL;
	if (!d->writer.running) {
		run_op(d, op);
		op_free(d, op);
		return;
	}
	pthread_mutex_lock(&d->lock);
	while (d->queued > OUTDIR_QUEUE_BYTES) {
		wake(d);
		pthread_cond_wait(&d->room, &d->lock);
	}
	if (d->tail)
		d->tail->next = op;
	else
		d->head = op;
	d->tail = op;
	d->queued += op_size(op);
	if (d->queued >= OUTDIR_WAKE_BYTES)
		wake(d);
	pthread_mutex_unlock(&d->lock);
}

int outdir_sync(struct outdir *d)
{
	if (d->writer.running) {
		pthread_mutex_lock(&d->lock);
		if (d->head)
			wake(d);
		while (d->head || d->busy)
			pthread_cond_wait(&d->idle, &d->lock);
		pthread_mutex_unlock(&d->lock);
	}
	return atomic_load(&d->failed) ? -1 : 0;
}

void outdir_writer_start(struct outdir *d)
{
	bgthread_start(&d->writer, writer_main, d);
}

void outdir_writer_stop(struct outdir *d)
{
	if (!d->writer.running)
		return;
	pthread_mutex_lock(&d->lock);
	d->stopping = 1;
	d->asleep = 0;
	pthread_cond_signal(&d->work);
	pthread_mutex_unlock(&d->lock);
	bgthread_join(&d->writer);
}
