/* outdir.c — atomic output files, written by a thread of their own; see
 * outdir.h.
 *
 * The caller's side keeps what views see: a stdio stream per open file
 * (an LRU of at most OUTDIR_MAX_OPEN), and the list of files not committed
 * yet.  Everything that touches the file system is an operation queued to
 * the writing thread, which does them in order: creating a file can cost
 * the kernel half a millisecond, and a dump makes thousands.  An open
 * file's bytes fill a block, which is queued, not copied, when full: the
 * stream's buffer empties into it through fopencookie(), and
 * outfile_write() copies bytes into it without stdio.
 * The first failure is printed by the writing thread; from then on it
 * renames nothing, and the caller learns of it at its next call. */
#define _GNU_SOURCE             /* fopencookie */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio_ext.h>           /* __fpending */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "output/message.h"
#include "output/outdir.h"
#include "util/arena.h"
#include "util/diag.h"
#include "util/forkguard.h"

/* Bytes queued but not written yet, at most: then the caller waits. */
#define OUTDIR_QUEUE_BYTES (8u << 20)
/* Bytes queued that wake the writing thread: it writes in batches. */
#define OUTDIR_WAKE_BYTES (1u << 20)

enum op_kind {
	OP_CREATE,                  /* open the temporary file, emptied */
	OP_REOPEN,                  /* open it again to append */
	OP_WRITE,
	OP_SUSPEND,                 /* close it for now */
	OP_COMMIT,                  /* close it: complete, renamed at the next publish */
	OP_DISCARD,                 /* close and remove it */
	OP_PUBLISH,                 /* rename the complete files into place */
	OP_DROP_COMPLETE,           /* remove the complete files not renamed */
};

struct op {
	enum op_kind kind;
	struct outfile *f;
	char *block;                /* OP_WRITE's bytes: a block (below) */
	size_t len;
	struct op *next;
};

/* An open file's bytes fill a block, which then goes to the queue; blocks
 * are kept for reuse, the last freed first (so that few pages are
 * touched), in memory that forked workers do not get: the caller rewrites
 * them while workers draw, and a page shared with a worker is copied at
 * the first write after each fork.  Blocks hold bytes only, never a
 * pointer to the heap: what a worker inherits stays reachable in it. */
#define OUTDIR_BLOCK (64u << 10)

struct block {
	struct block *next;
};

struct outfile {
	struct outdir *d;
	char *name, *tmp;
	/* The caller's: */
	FILE *fp;                   /* NULL while suspended */
	char *fill;                 /* a block, or NULL; only while fp is open */
	size_t fill_len;
	struct outfile *prev, *next;            /* files not committed */
	struct outfile *lru_prev, *lru_next;    /* open ones, newest first */
	/* The writing thread's, once the file is committed or discarded: */
	int fd;                     /* -1 while closed */
	struct outfile *complete_next;          /* complete, oldest first */
};

struct outdir {
	char *path;
	int fd;
	/* The caller's: */
	struct outfile *pending;
	struct outfile *lru_head, *lru_tail;
	unsigned nopen;
	unsigned long by_workers;
	/* The queue: */
	pthread_mutex_t lock;
	pthread_cond_t work, room, idle;
	struct op *head, *tail;
	size_t queued;              /* op_size()s */
	struct block *spare;
	int busy, stopping;
	int asleep;                 /* the writing thread waits for wake() */
	pthread_t thread;
	int started, threaded;
	long pid;                   /* in temporary names: the process that started */
	atomic_int failed;
	/* The writing thread's: */
	struct outfile *complete_head, *complete_tail;
	unsigned long written;
};

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}

/* mkdir -p */
static int make_dirs(const char *path)
{
	char *p = xstrdup(path);
	int r = 0;
	for (char *s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST) {
			r = -errno;
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return r;
}

/* ---- blocks --------------------------------------------------------------- */

static void *block_take(struct outdir *d)
{
	pthread_mutex_lock(&d->lock);
	struct block *b = d->spare;
	if (b)
		d->spare = b->next;
	pthread_mutex_unlock(&d->lock);
	return b ? (void *)b : fork_private_alloc(OUTDIR_BLOCK);
}

static void block_give(struct outdir *d, void *p)
{
	struct block *b = p;
	pthread_mutex_lock(&d->lock);
	b->next = d->spare;
	d->spare = b;
	pthread_mutex_unlock(&d->lock);
}

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
		block_give(d, op->block);
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
		msg_error("%s/%s: %s", f->d->path, f->name, strerror(err));
}

static void close_fd(struct outfile *f)
{
	if (f->fd < 0)
		return;
	if (close(f->fd) != 0)
		fail(f, errno);
	f->fd = -1;
}

static void open_fd(struct outfile *f, int flags)
{
	f->fd = openat(f->d->fd, f->tmp, flags | O_WRONLY | O_CLOEXEC, 0666);
	if (f->fd < 0)
		fail(f, errno);
}

static void write_all(struct outfile *f, const char *p, size_t n)
{
	while (n > 0 && f->fd >= 0) {
		ssize_t w = write(f->fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			fail(f, errno);
			close_fd(f);
			return;
		}
		p += w;
		n -= (size_t)w;
	}
}

static void remove_file(struct outfile *f)
{
	close_fd(f);
	unlinkat(f->d->fd, f->tmp, 0);
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
			if (renameat(d->fd, c->tmp, d->fd, c->name) != 0) {
				fail(c, errno);
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
		if (freed) {
			freed_last->next = d->spare;
			d->spare = freed;
		}
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

/* Queue an operation, with the block it now owns for OP_WRITE (done here
 * and now without a thread). */
static void submit(struct outdir *d, enum op_kind kind, struct outfile *f,
                   char *block, size_t len)
{
	struct op *op = xrealloc(NULL, sizeof(*op));
	op->kind = kind;
	op->f = f;
	op->block = block;
	op->len = len;
	op->next = NULL;
	if (!d->threaded) {
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
	if (d->threaded) {
		pthread_mutex_lock(&d->lock);
		if (d->head)
			wake(d);
		while (d->head || d->busy)
			pthread_cond_wait(&d->idle, &d->lock);
		pthread_mutex_unlock(&d->lock);
	}
	return atomic_load(&d->failed) ? -1 : 0;
}

struct outdir *outdir_open(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		int r = make_dirs(path);
		if (r < 0) {
			msg_error("cannot create output directory %s: %s", path, strerror(-r));
			return NULL;
		}
	} else if (!S_ISDIR(st.st_mode)) {
		msg_error("output directory %s: %s", path, strerror(ENOTDIR));
		return NULL;
	}
	if (access(path, W_OK | X_OK) != 0) {
		msg_error("output directory %s is not writable: %s", path, strerror(errno));
		return NULL;
	}
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		msg_error("output directory %s: %s", path, strerror(errno));
		return NULL;
	}
	struct outdir *d = xrealloc(NULL, sizeof(*d));
	memset(d, 0, sizeof(*d));
	d->path = xstrdup(path);
	d->fd = fd;
	atomic_init(&d->failed, 0);
	pthread_mutex_init(&d->lock, NULL);
	pthread_cond_init(&d->work, NULL);
	pthread_cond_init(&d->room, NULL);
	pthread_cond_init(&d->idle, NULL);
	return d;
}

void outdir_without_thread(struct outdir *d)
{
	d->started = 1;
	d->pid = (long)getpid();
}

void outdir_add_written(struct outdir *d, unsigned long n)
{
	d->by_workers += n;
}

const char *outdir_path(const struct outdir *d)
{
	return d->path;
}

unsigned long outdir_files_written(struct outdir *d)
{
	outdir_sync(d);
	return d->written + d->by_workers;
}

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
		submit(f->d, OP_WRITE, f, f->fill, f->fill_len);
	else if (f->fill)
		block_give(f->d, f->fill);
	f->fill = NULL;
	f->fill_len = 0;
}

static void fill(struct outfile *f, const char *p, size_t n)
{
	while (n > 0) {
		if (!f->fill)
			f->fill = block_take(f->d);
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

/* Flush and close the stream (not the file); 0, or -1 after a failure. */
static int close_stream(struct outfile *f)
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

static void open_stream(struct outfile *f, enum op_kind how)
{
	struct outdir *d = f->d;
	while (d->nopen >= OUTDIR_MAX_OPEN && d->lru_tail) {
		struct outfile *victim = d->lru_tail;
		close_stream(victim);
		submit(d, OP_SUSPEND, victim, NULL, 0);
	}
	submit(d, how, f, NULL, 0);
	static const cookie_io_functions_t io = { .write = cookie_write };
	/* stdio's own buffer (BUFSIZ): emptied into the block by a copy */
	f->fp = fopencookie(f, "w", io);
	if (!f->fp)
		abort();                /* out of memory, as xrealloc would */
	d->nopen++;
	lru_push(f);
}

struct outfile *outfile_create(struct outdir *d, const char *name)
{
	if (atomic_load(&d->failed))
		return NULL;
	/* The thread starts with the first file: a directory that never had
	 * one (the top of several dumps' output, while they are forked off)
	 * has nothing a forked process could inherit half-done.  Without a
	 * thread (none to be had) every operation is done at once. */
	if (!d->started) {
		d->started = 1;
		d->pid = (long)getpid();
		d->threaded = fork_guard_thread(&d->thread, writer_main, d) == 0;
	}
	struct outfile *f = xrealloc(NULL, sizeof(*f));
	memset(f, 0, sizeof(*f));
	f->d = d;
	f->fd = -1;
	f->name = xstrdup(name);
	size_t n = strlen(name) + 32;
	f->tmp = xrealloc(NULL, n);
	snprintf(f->tmp, n, ".%s.tmp%ld", name, d->pid);
	f->next = d->pending;
	if (d->pending)
		d->pending->prev = f;
	d->pending = f;
	open_stream(f, OP_CREATE);
	return f;
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
	open_stream(f, OP_REOPEN);
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

/* Out of the caller's hands: the writing thread has it from now on. */
static void hand_over(struct outfile *f, enum op_kind kind)
{
	struct outdir *d = f->d;
	if (f->prev)
		f->prev->next = f->next;
	else
		d->pending = f->next;
	if (f->next)
		f->next->prev = f->prev;
	f->prev = f->next = NULL;
	submit(d, kind, f, NULL, 0);
}

int outfile_commit(struct outfile *f)
{
	int r = close_stream(f);
	hand_over(f, r == 0 ? OP_COMMIT : OP_DISCARD);
	return r;
}

int outdir_publish(struct outdir *d)
{
	submit(d, OP_PUBLISH, NULL, NULL, 0);
	return atomic_load(&d->failed) ? -1 : 0;
}

void outfile_discard(struct outfile *f)
{
	close_stream(f);
	hand_over(f, OP_DISCARD);
}

void outdir_discard_pending(struct outdir *d)
{
	while (d->pending)
		outfile_discard(d->pending);
	submit(d, OP_DROP_COMPLETE, NULL, NULL, 0);
}

void outdir_close(struct outdir *d)
{
	if (!d)
		return;
	outdir_discard_pending(d);
	if (d->threaded) {
		pthread_mutex_lock(&d->lock);
		d->stopping = 1;
		d->asleep = 0;
		pthread_cond_signal(&d->work);
		pthread_mutex_unlock(&d->lock);
		pthread_join(d->thread, NULL);
	}
	while (d->spare) {
		struct block *b = d->spare;
		d->spare = b->next;
		fork_private_free(b, OUTDIR_BLOCK);
	}
	pthread_mutex_destroy(&d->lock);
	pthread_cond_destroy(&d->work);
	pthread_cond_destroy(&d->room);
	pthread_cond_destroy(&d->idle);
	close(d->fd);
	free(d->path);
	free(d);
}
