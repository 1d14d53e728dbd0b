/* input_impl.h — what input's parts share: the reader and its chunks
 * (input.c), raw reads and compression (read.c), cleaning (clean.c) and
 * the line splitter (split.c).  Private to src/input/. */
#ifndef DUMPANALYZE_INPUT_IMPL_H
#define DUMPANALYZE_INPUT_IMPL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "input/input.h"
#include "util/bgthread.h"

struct decoder;

struct input_chunk {
	char *buf;
	size_t cap, len;
	struct line *lines;         /* into buf */
	size_t n, lines_cap;
	int status;                 /* 0: more follows; 1: the input ends after
	                               these lines; -errno: it failed after them */
	uint64_t bytes;             /* read from the fd up to this chunk's end */
};

struct input_reader {
	int fd;                     /* -1 for bytes in memory: */
	const unsigned char *mem;
	size_t mem_len, mem_pos;
	int may_block;              /* not a regular file: a read may wait */
	struct input_chunk chunk[INPUT_CHUNKS];
	/* chunk[made % N] is the next to fill, chunk[used % N] the caller's
	 * while used < made. */
	unsigned made, used;
	/* The reading thread left its loop: no chunk comes after made (it may
	 * stop on input_interrupt without making one). */
	int quit;
	pthread_mutex_t lock;
	pthread_cond_t ready, freed;
	/* The reading thread; while it runs, it alone fills chunks, inside
	 * the fork guard. */
	struct bgthread reading;
	atomic_int stop;
	/* The rest belongs to whoever fills chunks. */
	int detected;               /* compression checked */
	struct decoder *dec;        /* NULL for plain input */
	const char *error;          /* why reading failed */
	int html;                   /* -jdump=H seen */
	int ansi;                   /* an ESC byte was read: strip escapes */
	int in_style;               /* inside -jdump=H's <style> block */
	char *carry;                /* the unfinished line of the last chunk */
	size_t carry_len, carry_cap;
	int skipping;               /* in a line past INPUT_LINE_MAX: its
	                               bytes go as they come, to its end */
	uint64_t lineno, bytes;
	/* Bytes pushed by the caller (push.c): the piece being taken, and
	 * the first bytes kept until they say whether it is compressed. */
	const unsigned char *push;
	size_t push_len, push_pos;
	int push_last;
	unsigned char head[8];
	size_t nhead;
};

/* read.c: up to n bytes of the dump, decompressed: how many, 0 at the
 * end, or -errno (rd->error says why). */
long input_read_some(struct input_reader *rd, char *buf, size_t n);

/* clean.c: a line's noise removed in place: the CR of a CRLF end,
 * -jdump=H's markup, -jdump=A's escapes. */
void input_clean_line(struct input_reader *rd, struct line *l);

/* split.c: the lines that end in c's bytes [from, len); the first began
 * at *start, which is left at the start of the line still unfinished. */
void input_split(struct input_reader *rd, struct input_chunk *c, size_t *start, size_t from);
/* The bytes of c from start on, the end of the input without a newline,
 * as its last line. */
void input_split_last(struct input_reader *rd, struct input_chunk *c, size_t start);
/* A line longer than INPUT_LINE_MAX, skipped, as c's next line. */
void input_split_overlong(struct input_reader *rd, struct input_chunk *c);

#endif
