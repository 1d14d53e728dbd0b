/* outdir_impl.h — what the output directory's parts share: the directory
 * and its files (outdir.c), the open streams (outdir_streams.c), the
 * block pool (outdir_blocks.c) and the queue with its writing thread
 * (outdir_writer.c).  Private to src/outdir/. */
#ifndef DUMPANALYZE_OUTDIR_IMPL_H
#define DUMPANALYZE_OUTDIR_IMPL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include "outdir/fs.h"
#include "outdir/outdir.h"
#include "util/alloc.h"
#include "util/bgthread.h"

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
	int fd;                     /* a handle of d->fs, -1 while closed */
	struct outfile *complete_next;          /* complete, oldest first */
};

struct outdir {
	const struct fs *fs;
	char *path;
	char *shown;                /* what messages name: where the files end
	                               up (OUT, not its staging directory) */
	int fd;                     /* the directory, a handle of fs */
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
	struct bgthread writer;
	long pid;                   /* in temporary names: the process that made
	                               the first file (0: none yet) */
	atomic_int failed;
	/* The writing thread's: */
	struct outfile *complete_head, *complete_tail;
	unsigned long written;
};

/* outdir_blocks.c: a block to fill, and one given back (d->lock not
 * held); blocks the writing thread gives back at once, first to last
 * linked (d->lock held); all of them freed, at the end. */
void *outdir_block_take(struct outdir *d);
void outdir_block_give(struct outdir *d, void *p);
void outdir_blocks_give_locked(struct outdir *d, struct block *first, struct block *last);
void outdir_blocks_free(struct outdir *d);

/* outdir_writer.c: queue an operation, with the block it now owns for
 * OP_WRITE (done here and now without a thread); start the writing
 * thread (once, at the first file); end it (at the close). */
void outdir_submit(struct outdir *d, enum op_kind kind, struct outfile *f,
                   char *block, size_t len);
void outdir_writer_start(struct outdir *d);
void outdir_writer_stop(struct outdir *d);

/* outdir_streams.c: give a file a stdio stream, closing the least
 * recently used ones beyond OUTDIR_MAX_OPEN (how: OP_CREATE or
 * OP_REOPEN); flush and close it (not the file): 0, or -1 after a
 * failure. */
void outdir_open_stream(struct outfile *f, enum op_kind how);
int outdir_close_stream(struct outfile *f);

#endif
