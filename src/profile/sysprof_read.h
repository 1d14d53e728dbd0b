/* sysprof_read.h — the sysprof byte stream as events: the parser of
 * sysprof_read.c calls these as it meets symbols and samples, in stream
 * order.  Strings and frames are valid during the call only. */
#ifndef DUMPANALYZE_SYSPROF_READ_H
#define DUMPANALYZE_SYSPROF_READ_H

#include <stddef.h>
#include <stdint.h>
#include "profile/sysprof.h"

/* A string of the stream.  Longer than SP_STR_KEEP bytes, only its first
 * SP_STR_HEAD bytes and its end are kept (a chunk name that long is named
 * by its prototype's address, a path by its end). */
#define SP_STR_KEEP 4096
#define SP_STR_HEAD 64
struct sp_str {
	const char *p;              /* the bytes kept */
	size_t n;                   /* how many */
	uint64_t len;               /* the string's length */
	size_t head;                /* when cut (n < len): p[0..head) is the start,
	                               p[head..n) the end */
};

enum { SP_FRAME_LFUNC = 1, SP_FRAME_CFUNC = 2, SP_FRAME_FFUNC = 3 };

struct sp_frame {
	uint8_t type;               /* SP_FRAME_* */
	uint64_t addr;              /* prototype, C function, or the fast function's id */
	uint64_t line;              /* LFUNC: the defining line */
};

struct sp_sample {
	uint8_t state;              /* enum sp_state */
	uint64_t offset;            /* of its header byte */
	const struct sp_frame *lua; /* innermost first */
	uint32_t nlua;
	uint64_t lua_cut;           /* frames beyond SP_MAX_FRAMES, not kept */
	const uint64_t *host;       /* return addresses, innermost first */
	uint32_t nhost;
	uint64_t host_cut;
	uint64_t traceno, trace_proto, trace_line;  /* SP_TRACE */
};

struct sp_events {
	void *ctx;
	/* A Lua function's prototype (at = its record's offset). */
	void (*lfunc)(void *ctx, uint64_t addr, const struct sp_str *chunk, uint64_t line,
	              uint64_t at);
	/* A C symbol: a function's address and name. */
	void (*cfunc)(void *ctx, uint64_t addr, const struct sp_str *name);
	/* A trace: initial when in the symbol table before the samples. */
	void (*trace)(void *ctx, uint64_t traceno, uint64_t proto, uint64_t line, uint64_t at,
	              int initial);
	void (*sample)(void *ctx, const struct sp_sample *s);
	/* "ljp" read: the stream's format versions. */
	void (*versions)(void *ctx, unsigned symtab, unsigned ljp);
};

/* Where bytes come from: up to n into buf, how many, 0 at the end, or
 * -errno (as decode_source in input/decode.h). */
typedef long (*sp_source)(void *ctx, unsigned char *buf, size_t n);

/* Parse the whole stream: SYSPROF_OK, or an error with *e filled in
 * (SYSPROF_EIO keeps errno).  *bytes: how many it read. */
int sp_parse(sp_source src, void *src_ctx, const struct sp_events *ev,
             struct sysprof_error *e, uint64_t *bytes);

#endif
