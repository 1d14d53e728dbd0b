/* bush_queue.h — the queue of bush pictures to draw, across generations:
 * each chosen bush's picture, built, is packed (bush_wire.h) and sent to
 * whichever of --jobs worker processes is free, so that every core draws
 * whatever the generations' sizes, while the dump is read on. */
#ifndef DUMPANALYZE_BUSH_QUEUE_H
#define DUMPANALYZE_BUSH_QUEUE_H

#include <stddef.h>
#include "draw/bush_blocks.h"
#include "draw/picture.h"
#include "draw/workers.h"
#include "util/strbuf.h"

struct outdir;

/* A view's queue; all zero before its first picture. */
struct bush_queue {
	struct workers w;
	int started;                /* 1: workers forked, 2: none could be */
	int send_fd, recv_fd;       /* a SOCK_SEQPACKET pair: one picture a message */
	size_t max_msg;             /* the largest message the socket takes */
	enum picture_format fmt;
	struct outdir *out;
	struct strbuf msg;
};

/* Hand picture p, to be written as out's file name, to the queue's
 * workers (forked with the first picture, jobs of them).  1 when queued
 * (the file appears when its worker is done: bush_queue_finish), 0 when
 * the caller is to draw it here (jobs <= 1, no worker to be had, a
 * message too large for the socket), -1 when the workers are gone. */
int bush_queue_put(struct bush_queue *q, struct outdir *out, unsigned jobs,
                   enum picture_format fmt, const struct bush_picture *p, const char *name);
/* No more pictures: wait for the workers to draw what is queued and
 * write it; frees the queue.  0, or -1 when a worker failed. */
int bush_queue_finish(struct bush_queue *q);

#endif
