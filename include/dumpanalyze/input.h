/* input.h — a dump as a stream of lines, from a file or a pipe.
 * Reads large blocks, splits lines itself, never seeks, and hands out
 * lines of any length without their line end ("\n" or "\r\n"). */
#ifndef DUMPANALYZE_INPUT_H
#define DUMPANALYZE_INPUT_H

#include <stddef.h>
#include <stdint.h>

#define INPUT_BLOCK (1u << 20)

struct input {
	int fd;
	int owns_fd;
	char *buf;
	size_t cap, pos, end, scanned;
	int eof;
	uint64_t lineno;
	uint64_t bytes;             /* bytes read so far */
};

struct line {
	const char *p;              /* not NUL-terminated */
	size_t len;
	uint64_t no;                /* 1-based */
};

/* path "-" is standard input.  Returns 0 or -errno (a directory gives
 * -EISDIR). */
int input_open(struct input *in, const char *path);
/* Also for tests: read from an already open descriptor. */
void input_from_fd(struct input *in, int fd);
/* 1: a line; 0: end of input; -errno: read error.  The line stays valid
 * until the next call. */
int input_next(struct input *in, struct line *out);
void input_close(struct input *in);

#endif
