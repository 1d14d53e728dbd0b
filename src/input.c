/* input.c — block reads and line splitting; see input.h. */
#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dumpanalyze/input.h"
#include "dumpanalyze/arena.h"

void input_from_fd(struct input *in, int fd)
{
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
	for (;;) {
		ssize_t r = read(in->fd, in->buf + in->end, in->cap - in->end);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		in->end += (size_t)r;
		in->bytes += (uint64_t)r;
		return r;
	}
}

int input_next(struct input *in, struct line *out)
{
	for (;;) {
		char *nl = memchr(in->buf + in->scanned, '\n', in->end - in->scanned);
		if (nl || (in->eof && in->pos < in->end)) {
			size_t stop = nl ? (size_t)(nl - in->buf) : in->end;
			size_t len = stop - in->pos;
			if (len && in->buf[in->pos + len - 1] == '\r')
				len--;
			out->p = in->buf + in->pos;
			out->len = len;
			out->no = ++in->lineno;
			in->pos = nl ? stop + 1 : stop;
			in->scanned = in->pos;
			return 1;
		}
		if (in->eof)
			return 0;
		in->scanned = in->end;
		long r = fill(in);
		if (r < 0)
			return (int)r;
		if (r == 0)
			in->eof = 1;
	}
}

void input_close(struct input *in)
{
	if (in->owns_fd && in->fd >= 0)
		close(in->fd);
	in->fd = -1;
	free(in->buf);
	in->buf = NULL;
}
