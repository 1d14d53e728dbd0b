/* bush_queue.c — bush pictures drawn by worker processes fed through one
 * socket; see bush_queue.h.  A SOCK_SEQPACKET socket keeps each picture
 * one message, and several readers on one end each take whole ones: a
 * free worker takes the next picture, whoever drew the one before.  The
 * socket's buffer is the queue (a few MiB of kernel memory: hundreds of
 * pictures), so the parser runs ahead of the drawing until it is full. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "draw/bush_queue.h"
#include "draw/bush_wire.h"
#include "draw/bush_write.h"
#include "outdir/outdir.h"
#include "output/message.h"
#include "util/alloc.h"

enum { QUEUE_BYTES = 4 << 20 };

/* In a worker: draw the pictures it receives until the parent says there
 * are no more, into a directory handle of its own, which renames only its
 * own files, all of them once they are complete. */
static int queue_worker(void *arg)
{
	struct bush_queue *q = arg;
	close(q->send_fd);
	struct outdir *own = outdir_open_fs(outdir_fs(q->out), outdir_path(q->out),
	                                    outdir_shown(q->out));
	if (!own)
		return -1;
	char *buf = xrealloc(NULL, q->max_msg);
	int r = 0;
	for (;;) {
		ssize_t n = recv(q->recv_fd, buf, q->max_msg, MSG_TRUNC);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			break;                  /* the parent shut the queue */
		struct bush_wire_picture wp;
		if (n < 0 || (size_t)n > q->max_msg || bush_wire_unpack(&wp, buf, (size_t)n) < 0) {
			msg_error("drawing the pictures: a broken message from the run");
			r = -1;
			break;
		}
		if (r == 0)                 /* after a failure, only drain */
			r = bush_file_write(own, &wp.p, q->fmt, wp.name);
		bush_wire_free(&wp);
	}
	free(buf);
	if (r == 0)
		r = outdir_publish(own);
	if (r == 0)
		r = outdir_sync(own);
	outdir_close(own);
	/* The worker ends here: give back its pixels and font caches, so
	 * leak checkers following it see only our own memory. */
	picture_release();
	return r;
}

static int start(struct bush_queue *q, struct outdir *out, unsigned jobs, enum picture_format fmt)
{
	int sv[2];
	q->started = 2;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return 0;
	int want = QUEUE_BYTES, have = 0;
	socklen_t len = sizeof(have);
	(void)setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &want, sizeof(want));
	if (getsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &have, &len) < 0 || have < 4096) {
		close(sv[0]);
		close(sv[1]);
		return 0;
	}
	/* the kernel keeps some of it for its own bookkeeping */
	q->max_msg = (size_t)have / 2;
	q->send_fd = sv[0];
	q->recv_fd = sv[1];
	q->out = out;
	q->fmt = fmt;
	q->w.max = 0;                   /* all of them at once */
	unsigned n = 0;
	while (n < jobs && workers_start(&q->w, queue_worker, q) == 0)
		n++;
	/* Only the workers read: with none left, sending fails rather than
	 * waits. */
	close(sv[1]);
	q->recv_fd = -1;
	if (n == 0) {
		close(sv[0]);
		return 0;
	}
	q->started = 1;
	return 0;
}

int bush_queue_put(struct bush_queue *q, struct outdir *out, unsigned jobs,
                   enum picture_format fmt, const struct bush_picture *p, const char *name)
{
	if (jobs <= 1)
		return 0;
	if (!q->started)
		start(q, out, jobs, fmt);
	if (q->started != 1)
		return 0;
	bush_wire_pack(&q->msg, p, name);
	if (q->msg.len > q->max_msg)
		return 0;                       /* a huge bush: drawn here */
	ssize_t n;
	do
		n = send(q->send_fd, q->msg.buf, q->msg.len, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0 && errno == EMSGSIZE)
		return 0;
	if (n < 0) {
		msg_error("drawing the pictures: the workers are gone");
		return -1;
	}
	outdir_add_written(out, 1);         /* by a worker */
	return 1;
}

int bush_queue_finish(struct bush_queue *q)
{
	if (q->started == 1) {
		/* The end of the queue for the workers, though later forks
		 * (another view's workers) hold this end too. */
		shutdown(q->send_fd, SHUT_WR);
		close(q->send_fd);
	}
	int r = workers_wait_all(&q->w);
	workers_free(&q->w);
	strbuf_release(&q->msg);
	memset(q, 0, sizeof(*q));
	return r;
}
