/* input.h — a dump as a stream of lines, from a file or a pipe.
 * Reads large blocks, splits lines itself, never seeks, and hands out
 * lines of any length without their line end ("\n" or "\r\n").  It owns
 * the presentation noise: compression (by magic bytes), ANSI colour
 * escapes (-jdump=A) and the HTML of -jdump=H are gone from the lines it
 * returns. */
#ifndef DUMPANALYZE_INPUT_H
#define DUMPANALYZE_INPUT_H

#include <stddef.h>
#include <stdint.h>

#define INPUT_BLOCK (1u << 20)

struct decoder;

struct input {
	int fd;
	int owns_fd;
	int detected;               /* compression checked */
	struct decoder *dec;        /* NULL for plain input */
	const char *error;          /* why the last read failed */
	int html;                   /* -jdump=H seen */
	int ansi;                   /* an ESC byte was read: strip escapes */
	int in_style;               /* inside its <style> block */
	uint64_t cleaned;           /* lines that lost escapes or markup */
	char *buf;
	size_t cap, pos, end;
	/* Newlines are found 64 bytes at a time: nlmask holds the ones in
	 * [win, win + 64) not handed out yet; scanned is past every byte
	 * looked at. */
	size_t scanned, win;
	uint64_t nlmask;
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
/* 1: a line; 0: end of input; -errno: read error (input_error says
 * why).  The line stays valid until the next call. */
int input_next(struct input *in, struct line *out);
/* Up to max lines at once, the same ones input_next would give one by
 * one: fewer calls for the many short lines of a dump.  All stay valid
 * until the next call (a batch ends before the buffer is refilled).
 * Returns how many, 0 at the end of input, or -errno. */
int input_next_lines(struct input *in, struct line *out, int max);
#define INPUT_BATCH 256

const char *input_error(const struct input *in);
/* "gzip", "xz", "zstd" or "plain"; and whether a compressed stream ended
 * before its end marker (a dump cut off while it was written). */
const char *input_compression(const struct input *in);
int input_truncated(const struct input *in);
/* Remove ANSI escapes, or HTML tags and entities, in place; returns the
 * new length.  Exposed for tests. */
size_t input_strip_ansi(char *p, size_t n);
size_t input_strip_html(char *p, size_t n);
void input_close(struct input *in);

#endif
