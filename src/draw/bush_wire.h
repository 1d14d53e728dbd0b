/* bush_wire.h — a built bush picture as one message of bytes and back, so
 * that a picture worker can draw it after its generation's records are
 * gone: the blocks, their exits and the few fields of each trace the
 * drawing reads, copied. */
#ifndef DUMPANALYZE_BUSH_WIRE_H
#define DUMPANALYZE_BUSH_WIRE_H

#include <stddef.h>
#include "draw/bush_blocks.h"
#include "util/strbuf.h"

/* A picture read back from a message: p draws as the original did; its
 * traces, bush and strings are this struct's own (and the message's). */
struct bush_wire_picture {
	struct bush_picture p;
	struct da_trace *traces;
	struct da_bush bush;
	char name[96];              /* the file's name in its directory */
};

/* Append p and the file name to sb (emptied first). */
void bush_wire_pack(struct strbuf *sb, const struct bush_picture *p, const char *name);
/* Read the message msg[0..n) into w, whose pointers lead into msg (keep it
 * until bush_wire_free).  0, or -1 when the message is not one pack
 * made (cut short, counts past its end). */
int bush_wire_unpack(struct bush_wire_picture *w, const char *msg, size_t n);
void bush_wire_free(struct bush_wire_picture *w);

#endif
