/* read.c — the dump's bytes from a descriptor or memory, cancellable, and
 * decompressed when its first bytes say it is compressed. */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>
#include "input/input_impl.h"
#include "input/decode.h"
#include "util/forkguard.h"

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
	/* While the reading thread runs, only it reads, inside the guard. */
	int guarded = rd->reading.running;
	for (;;) {
		if (atomic_load(&rd->stop))
			return -ECANCELED;
		/* Waiting for input, the thread holds nothing a fork needs. */
		if (guarded)
			fork_guard_leave();
		int k = 1, err = 0;
		ssize_t r = -1;
		if (rd->may_block && (k = poll(&(struct pollfd){ .fd = rd->fd, .events = POLLIN }, 1, 100)) < 0)
			err = errno;
		if (k > 0 && (r = read(rd->fd, buf, n)) < 0)
			err = errno;
		if (guarded)
			fork_guard_enter();
		if (k == 0 || err == EINTR)
			continue;
		if (err)
			return -err;
		rd->bytes += (uint64_t)r;
		return r;
	}
}

long input_read_some(struct input_reader *rd, char *buf, size_t n)
{
	if (rd->dec) {
		long r = decode_read(rd->dec, (unsigned char *)buf, n);
		if (r < 0) {
			rd->error = decode_error(rd->dec);
			return r == -ENOMEM ? -ENOMEM : -EIO;
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
			return input_read_some(rd, buf, n);
		}
	}
	if (r < 0)
		rd->error = strerror((int)-r);
	return r;
}
