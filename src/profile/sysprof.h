/* sysprof.h — profiles of the platform profiler of Tarantool's LuaJIT
 * fork (misc.sysprof), read to join them with a dump of the same process:
 * samples by VM state, per trace record (time per trace), per Lua function
 * (interpreted time) and as folded stacks.
 *
 * The stream (the fork's src/lj_sysprof.h and lj_symtab.h): a symbol table
 * ("ljs", version 1 to 3: Lua functions by prototype address with chunk
 * name and defining line, C symbols, live traces), then "ljp" (version 1
 * or 2) and samples, each a header byte (the VM state 0..9, or 10..12 a
 * symbol added as the program runs, 0x80 the epilogue) and its body:
 * Lua frames and host frames, host frames only, or for compiled code the
 * trace number with its start function.  Integers are ULEB128.
 *
 * Library code: nothing here prints or exits; errors come back with the
 * byte offset where the stream stopped making sense. */
#ifndef DUMPANALYZE_SYSPROF_H
#define DUMPANALYZE_SYSPROF_H

#include <stddef.h>
#include <stdint.h>
#include "util/intern.h"
#include "util/tally.h"

/* The fork's VM states, in the order of its counters (LJ_VMST_*). */
enum sp_state {
	SP_INTERP, SP_LFUNC, SP_FFUNC, SP_CFUNC, SP_GC, SP_EXIT, SP_RECORD, SP_OPT,
	SP_ASM, SP_TRACE, SP_STATES
};
/* Their names as misc.sysprof.report() spells them ("INTERP" ...). */
extern const char *const sp_state_names[SP_STATES];
/* The -jp state a sysprof state counts as, as the fork's own -jp maps
 * them (lj_profile.c): INTERP, LFUNC, FFUNC interpreted; CFUNC C; GC;
 * EXIT, RECORD, OPT, ASM the JIT compiler; TRACE compiled.  An enum
 * vm_state of profile/profile.h. */
int sp_state_jp(int state);

#define SP_MAX_FRAMES 1024
#define SP_LAST_UNKNOWN INT32_MIN   /* sp_func.last: the source was not read */          /* frames kept of one stack, innermost first */

/* A Lua function the stream names, by chunk and defining line: the
 * interpreted samples it took, for whoever charges them to code. */
struct sp_func {
	const char *file;           /* interned: its chunk as a dump names it */
	int32_t line;               /* defining line (0: a main chunk; -1: builtin) */
	const char *frame;          /* interned: its stack frame, "file:line" */
	int32_t last;               /* its last line, from the source when it was
	                               read (findings/fnextent.c; a main chunk's:
	                               the file's), else SP_LAST_UNKNOWN */
	uint64_t interpreted;       /* on top of the Lua stack in state LFUNC, or the
	                               Lua caller of the fast function of an FFUNC
	                               sample */
	uint64_t c;                 /* the Lua caller of the C function of a CFUNC sample */
	uint64_t on_stack;          /* samples with it anywhere on their Lua stack */
};

/* A trace record, in stream order: the symbol table's (traces alive when
 * profiling began) first, then one per trace compiled while it ran. */
struct sp_trace {
	uint32_t traceno;
	const char *file;           /* interned: its start function's chunk, as a
	                               dump names it; NULL when the stream never
	                               named the function */
	int32_t line;               /* the start line (a dump's "start FILE:LINE") */
	uint64_t proto;             /* the start function's prototype address */
	uint64_t offset;            /* byte offset of the record */
	int initial;                /* from the symbol table before the samples */
	uint64_t samples;           /* TRACE samples while it was the newest record
	                               of its number */
};

/* A folded stack: frames outermost first, ending at the sample. */
struct sp_stack {
	uint32_t first, nframes;    /* frames[first .. first + nframes) */
	uint8_t state;              /* enum sp_state */
	uint64_t count;
};

struct sysprof {
	const char *path;
	unsigned symtab_version, version;   /* "ljs" and "ljp" format versions */
	uint64_t bytes;             /* the stream's length */
	uint64_t samples, state[SP_STATES];
	struct sp_func *funcs;      /* every function the stream named, those with
	                               samples first (sysprof_functions' order) */
	size_t nfuncs, funcs_cap, nsampled;
	struct sp_trace *traces;
	size_t ntraces, traces_cap;
	struct sp_stack *stacks;    /* every sample but TRACE ones, folded */
	size_t nstacks, stacks_cap;
	const char **frames;        /* interned */
	size_t nframes, frames_cap;
	uint64_t protos, csyms;     /* symbols named by the stream */
	uint64_t host_frames;       /* host frames seen (mode C) */
	uint64_t trace_unknown;     /* TRACE samples of a number no record named */
	uint64_t trace_other;       /* ... whose start function is not their record's */
	uint64_t frames_unknown;    /* Lua frames of prototypes never named */
	uint64_t cut_stacks;        /* stacks deeper than SP_MAX_FRAMES */
	struct intern strings;
	struct tally host_names;    /* (interned host frame name) -> 1 */
	struct sp_index *index;     /* the symbol tables as read so far */
};

/* Why a stream could not be read: where and what. */
struct sysprof_error {
	uint64_t offset;            /* the byte the problem is at */
	char msg[256];
};

enum {
	SYSPROF_OK = 0,
	SYSPROF_EFORMAT = -1,       /* a format (version, memprof) we do not read */
	SYSPROF_EBAD = -2,          /* malformed or cut short */
	SYSPROF_EIO = -3,           /* cannot be read (errno kept) */
	SYSPROF_ENOMEM = -4
};

/* Whether the first bytes are a sysprof (or memprof) stream's symbol
 * table's: "ljs". */
int sysprof_sniff(const unsigned char *p, size_t n);
/* Whether the file at path starts so (after decompression, for
 * gzip/xz/zstd): 1, 0, or -errno when it cannot be opened. */
int sysprof_file_is(const char *path);

void sysprof_init(struct sysprof *p, const char *path);
/* Read a file (plain, or gzip/xz/zstd by magic bytes) in bounded memory:
 * SYSPROF_OK, or one of the errors with *e filled in. */
int sysprof_load(struct sysprof *p, const char *path, struct sysprof_error *e);
/* The same from bytes in memory (tests, fuzzing). */
int sysprof_load_memory(struct sysprof *p, const void *buf, size_t n, struct sysprof_error *e);
void sysprof_free(struct sysprof *p);

/* The functions with samples, most interpreted samples first (then C,
 * on-stack, file, line): where the interpreted time went, per function. */
const struct sp_func *sysprof_functions(const struct sysprof *p, size_t *n);
/* Whether an interned frame name is a host (C stack) frame. */
int sysprof_is_host_frame(const struct sysprof *p, const char *frame);
/* Samples by the -jp states of profile/profile.h (5 of them). */
void sysprof_jp_states(const struct sysprof *p, uint64_t out[5]);

#endif
