/* dumpanalyze.h — read LuaJIT -jdump (and -jv) output as a stream of
 * records: traces, their bushes, aborted attempts, taken exits and
 * generations (the time between two flushes).
 *
 * The only public header of libdumpanalyze.  Every name in it starts with
 * da_ / DA_.  Link with `pkg-config --cflags --libs dumpanalyze`.
 *
 * Use:
 *     struct da_sink sink = { .abort = on_abort };
 *     struct da_options o = { .sink = &sink, .sink_data = &mine };
 *     int err;
 *     da_dump *d = da_open_path("dump.txt", &o, &err);
 *     if (!d) ... da_strerror(err) ...
 *     err = da_read(d);               // calls the sink as records complete
 *     da_close(d);
 *
 * Records are plain structs, valid only during the callback that gets
 * them (a generation's traces and bushes until its gen_end returns);
 * strings in them live until da_close.  Functions return 0 or a negative
 * DA_E* code; the library never exits, aborts or prints: it reports
 * problems in the input through options.diag.  See dumpanalyze(3). */
#ifndef DUMPANALYZE_H
#define DUMPANALYZE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define DA_API __attribute__((visibility("default")))
#else
#define DA_API
#endif

#define DA_ABI 1                    /* the soname's number */

/* ---- errors -------------------------------------------------------- */

enum da_error {
	DA_OK = 0,
	DA_EIO = -1,                /* reading the dump failed (errno kept:
	                               da_dump_error says what) */
	DA_ENOMEM = -2,             /* out of memory: only da_close is left */
	DA_ESTRICT = -3,            /* a warning under DA_STRICT */
	DA_ESTOPPED = -4,           /* a sink callback returned non-zero */
	DA_EINVAL = -5,             /* a bad argument, or a call out of order */
	DA_EOPEN = -6,              /* the dump could not be opened */
	DA_EINTR = -7               /* da_interrupt was called */
};

/* The words for an error code ("out of memory"). */
DA_API const char *da_strerror(int err);
/* "0.2.0": the library's version. */
DA_API const char *da_version(void);

/* ---- records ------------------------------------------------------- */

#define DA_NO_LINE (-1)             /* a location with no line (builtin:x) */
#define DA_PARENT_EXIT_NONE (-2)    /* a root trace */
#define DA_PARENT_EXIT_STITCH (-1)  /* a stitched trace ("P/stitch") */

/* How a trace ends: the word after "stop -> " in the dump. */
enum da_link {
	DA_LINK_LOOP, DA_LINK_RETURN, DA_LINK_INTERPRETER, DA_LINK_STITCH,
	DA_LINK_TAIL_RECURSION, DA_LINK_UP_RECURSION, DA_LINK_DOWN_RECURSION,
	DA_LINK_ROOT, DA_LINK_NONE,
	DA_LINK_OTHER,              /* a word this version does not know */
	DA_LINK_COUNT
};

/* The sections of a trace's text, as -jdump's flags wrote them. */
enum da_section {
	DA_SEC_BYTECODE, DA_SEC_IR, DA_SEC_SNAPSHOTS, DA_SEC_MCODE, DA_SEC_COUNT
};

/* A trace's lines, section by section: buf + off[s], len[s] bytes, each
 * line ending in '\n', byte for byte as in the dump.  Only with
 * DA_KEEP_TEXT. */
struct da_trace_text {
	const char *buf;
	size_t off[DA_SEC_COUNT], len[DA_SEC_COUNT];
	unsigned present;           /* bit (1 << section): its header was seen */
};

struct da_bush;

/* A compiled trace ("---- TRACE N start" ... "---- TRACE N stop"). */
struct da_trace {
	struct da_trace *next;          /* this generation, in stop order */
	struct da_trace *next_in_bush;  /* root first, then side traces */
	struct da_bush *bush;
	const struct da_trace *parent_trace; /* NULL: root, stitched or orphan */
	uint32_t id, gen;               /* trace number; generation (1-based) */
	uint32_t parent;                /* parent's number from the start header */
	int32_t parent_exit;            /* or DA_PARENT_EXIT_NONE / _STITCH */
	const char *loc;                /* start location as written */
	const char *file;               /* its file (chunk name) */
	int32_t line;                   /* its line, or DA_NO_LINE */
	const char *link;               /* the text after "stop -> " */
	enum da_link link_kind;
	uint32_t link_target;           /* trace linked to, 0 when none */
	uint32_t num_bc, num_ir, num_sn, size_mc;   /* bytecodes, IR, snapshots,
	                                               machine code bytes */
	int counts_known;               /* 0: from a -jv log, sizes unknown */
	uint32_t seq;                   /* 0-based stop order in the generation */
	uint32_t nexits;
	const uint16_t *exits;          /* exits its machine code jumps to */
	uint64_t start_line, stop_line; /* the headers' line numbers */
	const struct da_trace_text *text;   /* NULL unless DA_KEEP_TEXT */
};

/* A root trace and the side traces grown from it, transitively. */
struct da_bush {
	struct da_bush *next;           /* this generation, in order of roots */
	struct da_trace *root, *last;   /* root ... next_in_bush ... last */
	uint32_t seq;                   /* 0-based */
	uint32_t dup;                   /* 1, or K for the K-th bush of the
	                                   generation with this root number */
	uint32_t ntraces;
	uint64_t mcode_bytes;
};

/* An aborted attempt ("---- TRACE N abort LOC -- REASON"). */
struct da_abort {
	uint32_t id, gen;
	uint32_t parent;                /* 0 unless a side trace's attempt */
	int32_t parent_exit;
	const char *loc;                /* where it aborted, as written */
	const char *file;
	int32_t line;
	const char *reason;             /* byte for byte, padding included */
	const char *start_file;         /* where the attempt started, or NULL */
	int32_t start_line;
	uint64_t line_no;               /* the abort header's line number */
	/* The same reason whichever LuaJIT wrote it (see "Why did it abort?"
	 * in dumpanalyze(1)): padding trimmed, "NYI: bytecode N" named after
	 * the opcode, a C function's address dropped. */
	const char *reason_normal;
	const char *error;              /* LuaJIT's name for it ("NYIBC"), or
	                                   NULL for a message it does not list */
	/* The attempt's last recorded bytecode lines (at most 4, each cut
	 * at 160 bytes), oldest first, as written, with their "(file:line)"
	 * suffix when the dump has one; the last one is the bytecode that
	 * failed.  The array and its strings are valid during the callback
	 * only (copy what you keep). */
	uint32_t nbytecode;
	const char *const *bytecode;
	uint64_t start_line_no;         /* the start header's line number, 0
	                                   when the dump did not show it */
	const struct da_trace_text *text;   /* what the attempt recorded;
	                                   NULL unless DA_KEEP_TEXT */
};

/* A taken exit ("---- TRACE N exit E", with -jdump=+x). */
struct da_exit {
	uint32_t id, exit, gen;
	const struct da_trace *trace;   /* the trace holding that number now,
	                                   or NULL (compiled before the dump) */
	uint64_t line_no;
};

/* What a generation (or the whole run) holds. */
struct da_counts {
	uint64_t traces, root, side, stitched, orphans;
	uint64_t aborts, exits, incomplete, bushes;
};

/* A generation: from the start of the dump or a flush to the next flush
 * or the end.  At gen_end every trace and bush of it is complete. */
struct da_gen {
	uint32_t number;                /* 1-based */
	struct da_trace *traces, *traces_last;  /* in stop order */
	struct da_bush *bushes, *bushes_last;   /* in order of roots */
	struct da_counts n;
	uint64_t first_line, last_line;
};

/* How often exit `exit` of trace `id` was taken in generation g (valid
 * while g is), and the side trace grown there (0 when none). */
DA_API uint64_t da_gen_exit_count(const struct da_gen *g, uint32_t id, uint32_t exit);
DA_API uint32_t da_gen_side_trace(const struct da_gen *g, const struct da_trace *t,
                                  uint32_t exit);

/* Where every input line went; the parts add up to total. */
struct da_line_counts {
	uint64_t total, header, content, exit_regs, foreign, blank;
};

/* ---- reading a dump ------------------------------------------------ */

/* Callbacks, each optional, with options.sink_data as first argument.  A
 * non-zero return stops the run: da_read then returns DA_ESTOPPED. */
struct da_sink {
	int (*gen_begin)(void *data, const struct da_gen *g);
	int (*trace)(void *data, const struct da_trace *t);     /* as it stops */
	int (*abort)(void *data, const struct da_abort *a);
	int (*exit)(void *data, const struct da_exit *x);
	int (*gen_end)(void *data, const struct da_gen *g);     /* its bushes */
};

enum da_severity {
	DA_WARNING,                 /* counted in da_warnings */
	DA_ERROR,                   /* the warning that DA_STRICT made fatal */
	DA_NOTE                     /* with DA_NOTES: a foreign line, ... */
};

/* A problem in the input: file as given in options.name, the 1-based
 * line, and a message without a trailing newline. */
typedef void (*da_diag_fn)(void *data, enum da_severity sev, const char *file,
                           uint64_t line, const char *msg);

enum da_flags {
	DA_KEEP_TEXT = 1 << 0,      /* traces carry their text */
	DA_STRICT = 1 << 1,         /* the first warning stops the run */
	DA_ANSWERS = 1 << 2,        /* keep the whole-run answers below */
	DA_NO_THREAD = 1 << 3,      /* read on the caller's thread only */
	DA_NOTES = 1 << 4           /* pass notes to diag, not only warnings */
};

struct da_options {
	unsigned flags;             /* enum da_flags */
	const char *name;           /* the dump's name in diagnostics */
	const struct da_sink *sink; /* may be NULL */
	void *sink_data;
	da_diag_fn diag;            /* NULL: warnings are only counted */
	void *diag_data;
	/* A LuaJIT build's jit/vmdef.lua, or NULL: its bcnames number the
	 * bytecodes in "NYI: bytecode N" exactly (the file is read, never
	 * run; da_open fails with DA_EINVAL when it holds no bcnames). */
	const char *vmdef_path;
};

typedef struct da_dump da_dump;

/* Open a dump: a file ("-" is standard input), a descriptor (not closed
 * by da_close), or bytes in memory (not copied: they must outlive the
 * handle).  Compressed dumps (gzip, xz, zstd) are recognised by their
 * first bytes, as are -jv logs.  opts may be NULL; it is copied, so
 * neither it nor its sink need outlive the call.  NULL on failure, with
 * *err set (err may be NULL; with DA_EOPEN errno says why). */
DA_API da_dump *da_open_path(const char *path, const struct da_options *opts, int *err);
DA_API da_dump *da_open_fd(int fd, const struct da_options *opts, int *err);
DA_API da_dump *da_open_memory(const void *buf, size_t len,
                               const struct da_options *opts, int *err);

/* Read a part of the dump (tens of thousands of lines) and call the sink
 * for what completed: > 0 while there is more, 0 once the whole dump was
 * read and its last generation ended, or a DA_E* code (then only da_close
 * is left to do). */
DA_API int da_step(da_dump *d);
/* Make the next (or the current, waiting) da_step return DA_EINTR soon,
 * also while the dump is a quiet pipe.  Async-signal-safe: for a signal
 * handler. */
DA_API void da_interrupt(da_dump *d);
/* da_step until the end: 0 or a DA_E* code. */
DA_API int da_read(da_dump *d);

/* Progress and accounting, at any time. */
DA_API uint64_t da_bytes_read(const da_dump *d);    /* from the file */
DA_API uint64_t da_lines_read(const da_dump *d);
DA_API const struct da_line_counts *da_line_counts(const da_dump *d);
DA_API uint64_t da_warnings(const da_dump *d);
DA_API uint32_t da_generations(const da_dump *d);   /* completed */
/* Totals of the completed generations. */
DA_API const struct da_counts *da_totals(const da_dump *d);
/* The counts of the generation being read (zero between generations). */
DA_API const struct da_counts *da_current(const da_dump *d);
/* "gzip", "xz", "zstd" or "plain"; "jv" or "dump" for the format. */
DA_API const char *da_compression(const da_dump *d);
DA_API const char *da_format(const da_dump *d);
/* After a DA_EIO: why, in words. */
DA_API const char *da_dump_error(const da_dump *d);

DA_API void da_close(da_dump *d);

/* ---- whole-run answers (with DA_ANSWERS, after da_read) ------------ */

/* Each function fills *out with a malloc'd array (free it with da_free)
 * and returns its length; the strings belong to the handle.  Sorted by
 * count, largest first; ties in order of first appearance. */

struct da_reason_count { const char *reason; uint64_t count; };
DA_API size_t da_abort_reasons(const da_dump *d, struct da_reason_count **out);

struct da_site_count {
	const char *reason, *file;
	int32_t line;
	uint64_t count;
	const char *reason_normal;      /* as in struct da_abort */
	const char *error;              /* or NULL */
	/* the last abort there: its bytecode lines (as in struct da_abort,
	 * the array valid until da_close), and the dump lines of the first
	 * and last abort there */
	uint32_t nbytecode;
	const char *const *bytecode;
	uint64_t first_line, last_line;
};
DA_API size_t da_abort_sites(const da_dump *d, struct da_site_count **out);

/* The most taken exits of the run (at most 50). */
struct da_exit_count {
	uint32_t gen, trace, exit;
	uint32_t side;              /* side trace grown there, 0 when none */
	uint64_t count;
};
DA_API size_t da_hot_exits(const da_dump *d, struct da_exit_count **out);

/* Start locations and parent exits LuaJIT most likely gave up on
 * (blacklisted): root starts (file, line) or side exits (parent, exit). */
struct da_given_up {
	uint32_t gen;
	const char *file;           /* root attempts, else NULL */
	int32_t line;
	uint32_t parent;            /* side and stitch attempts */
	int32_t exit;               /* DA_PARENT_EXIT_NONE for a root start */
	uint64_t attempts;
	const char *last_reason;
};
DA_API size_t da_given_up(const da_dump *d, struct da_given_up **out);

DA_API void da_free(void *p);

#ifdef __cplusplus
}
#endif
#endif
