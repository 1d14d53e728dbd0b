/* input.h — a dump as a stream of lines, from a file or a pipe.
 * Reads large blocks, splits lines itself, never seeks, and hands out
 * lines of any length without their line end ("\n" or "\r\n").  It owns
 * the presentation noise: compression (by magic bytes), ANSI colour
 * escapes (-jdump=A) and the HTML of -jdump=H are gone from the lines it
 * returns.
 *
 * Reading, decompressing and splitting run on a thread of their own, a
 * few chunks ahead of the caller: on two cores the parser then has a core
 * to itself.  The caller sees the same lines in the same order either way
 * (without a thread, when one cannot be started, chunks are made on
 * demand). */
#ifndef DUMPANALYZE_INPUT_H
#define DUMPANALYZE_INPUT_H

#include <stddef.h>
#include <stdint.h>

#define INPUT_BLOCK (256u << 10)    /* bytes read into a chunk at once */
#define INPUT_CHUNKS 4              /* chunks read ahead, at most */
#define INPUT_PIPE (1u << 20)       /* what a pipe on stdin is enlarged to */
/* The longest line read: dump.lua writes lines of a few KB at most (see
 * ARCHITECTURE.md); a longer one is skipped as it is read, never held,
 * and handed out as an empty line at input_overlong (input_line_overlong
 * says so), so that its number is still counted and can be named. */
#define INPUT_LINE_MAX (1u << 20)
extern const char input_overlong[];

struct input_reader;
struct input_chunk;

struct input {
	int fd;
	int owns_fd;
	struct input_reader *rd;    /* the reading side (input_impl.h) */
	/* The caller's side: */
	struct input_chunk *cur;    /* whose lines are being handed out */
	size_t next;                /* cur's first line not handed out */
	int status;                 /* 0 reading, 1 ended, -errno failed */
	const char *error;          /* why it failed */
	int truncated;              /* a compressed stream ended early */
	uint64_t lineno;            /* the last line handed out */
	uint64_t bytes;             /* bytes read from fd (compressed ones
	                               for compressed input), so far */
};

struct line {
	const char *p;              /* not NUL-terminated */
	size_t len;
	uint64_t no;                /* 1-based */
};

/* Whether l stands for a line longer than INPUT_LINE_MAX, skipped. */
static inline int input_line_overlong(const struct line *l)
{
	return l->p == input_overlong;
}

/* path "-" is standard input.  Returns 0 or -errno (a directory gives
 * -EISDIR). */
int input_open(struct input *in, const char *path);
/* Also for tests: read from an already open descriptor. */
void input_from_fd(struct input *in, int fd);
/* Bytes in memory (not copied: they must outlive the input). */
void input_from_memory(struct input *in, const void *buf, size_t len);
/* Bytes the caller pushes with input_push (no thread, no descriptor). */
void input_from_push(struct input *in);
/* Lines handed to input_push's caller, in batches: 0 to go on, or a
 * negative value that stops input_push, which returns it. */
typedef int (*input_lines_fn)(void *ctx, const struct line *lines, size_t n);
/* The next len bytes of a pushed dump (last: the dump ends with them):
 * every line they complete goes to fn before it returns, valid during
 * that call.  Only the line they leave unfinished is copied (and lines
 * that need cleaning); compressed bytes go through the decoder.  Returns
 * 0, fn's negative value, or -errno (input_error says why). */
int input_push(struct input *in, const void *buf, size_t len, int last,
               input_lines_fn fn, void *ctx);
/* For tests, before the first line: make chunks on demand, as when no
 * thread can be started. */
void input_without_thread(struct input *in);
/* The next lines, as many as are ready (one chunk's worth, up to tens of
 * thousands), in *lines: how many, 0 at the end of input, or -errno (a
 * read error; input_error says why).  They stay valid until the next
 * call of any input_next* function. */
int input_next_chunk(struct input *in, const struct line **lines);
/* The same lines copied out, up to max at once. */
int input_next_lines(struct input *in, struct line *out, int max);
#define INPUT_BATCH 256
/* One line: 1, 0 at the end, or -errno. */
int input_next(struct input *in, struct line *out);

const char *input_error(const struct input *in);
/* "gzip", "xz", "zstd" or "plain" (known once a line was read); and
 * whether a compressed stream ended before its end marker (a dump cut off
 * while it was written; known at the end). */
const char *input_compression(const struct input *in);
int input_truncated(const struct input *in);
/* Remove ANSI escapes, or HTML tags and entities, in place; returns the
 * new length.  Exposed for tests. */
size_t input_strip_ansi(char *p, size_t n);
size_t input_strip_html(char *p, size_t n);
/* Make reading stop soon: a read that waits ends with -ECANCELED.  Only
 * an atomic store: safe in a signal handler. */
void input_interrupt(struct input *in);
/* Stops the reading thread, even one waiting on a pipe, and frees all. */
void input_close(struct input *in);

#endif
