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
	DA_EINTR = -7,              /* da_interrupt was called */
	DA_EFORMAT = -8             /* a file given to da_use_profile is not
	                               in a format read (diag says where) */
};

/* The words for an error code ("out of memory"). */
DA_API const char *da_strerror(int err);
/* "0.3.0": the library's version. */
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
	DA_NOTES = 1 << 4,          /* pass notes to diag, not only warnings */
	DA_FINDINGS = 1 << 5        /* rank what to fix first (da_findings);
	                               implies DA_ANSWERS */
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

/* ---- findings (with DA_FINDINGS, after da_read) -------------------- */

/* What else the findings may read, given before the first da_step (else
 * DA_EINVAL).  The library opens files only where these say.
 *
 * da_use_profile: a LuaJIT -jp profile of the same workload (-jp=Gvl or
 * -jp=lvrm0i1 are best; plain or compressed), read at once: 0, DA_EOPEN
 * (errno says why), DA_EIO, or DA_EFORMAT after diag (DA_ERROR, the
 * profile's path and line) said what is wrong.  Its samples become the
 * findings' cost.
 *
 * da_use_source_root: a directory whose Lua files the dump may name,
 * read to find the extents of loops and functions and the text of their
 * lines (a finding's identity): a name as written relative to it, an
 * absolute name lying inside it, and with DA_SOURCE_BY_NAME a name's base
 * name anywhere below it.  Every file is opened only when its real path
 * lies inside one of the directories (never through "..", a symbolic
 * link out of it, or anything but a regular file of 16 MiB at most).
 * Directories are tried in the order given.  0 or DA_EINVAL. */
#define DA_SOURCE_BY_NAME 1u
DA_API int da_use_profile(da_dump *d, const char *path);
DA_API int da_use_source_root(da_dump *d, const char *dir, unsigned how);

/* The VM states of a -jp profile, in -jp=v's words: Interpreted,
 * Compiled, C code, Garbage Collector, JIT Compiler. */
enum da_vm_state { DA_VM_INTERPRETED, DA_VM_COMPILED, DA_VM_C, DA_VM_GC, DA_VM_JIT,
                   DA_VM_STATES };

/* The profile's totals, or NULL without one.  Samples are counts, or
 * units of 0.01% for a profile of percentages (-jp without r: total is
 * 10000). */
struct da_profile_totals {
	const char *path;               /* as given to da_use_profile */
	uint64_t total;                 /* all samples */
	uint64_t state[DA_VM_STATES];   /* by VM state (0 without states) */
	uint64_t charged;               /* interpreted samples the findings
	                                   were charged, summed (<= state[0]) */
	int states;                     /* split by VM state (-jp=...v) */
	int stacks;                     /* folded stacks (-jp=G) */
	int percent;                    /* percentages, not counts */
};
DA_API const struct da_profile_totals *da_profile_totals(const da_dump *d);

/* What a finding is (the KIND column of findings.csv; see FINDINGS in
 * dumpanalyze(1)). */
enum da_finding_kind {
	DA_KIND_ABORTING_LOOP,          /* attempts that start at a loop abort */
	DA_KIND_ABORTING_FUNCTION,      /* ... at a function */
	DA_KIND_ABORTING_START,         /* ... at a start whose kind is unknown */
	DA_KIND_BLACKLISTED_LOOP,       /* ... and LuaJIT likely gave up on it */
	DA_KIND_BLACKLISTED_FUNCTION,
	DA_KIND_BLACKLISTED_START,
	DA_KIND_ABORTING_EXIT,          /* side traces at an exit abort */
	DA_KIND_GIVEN_UP_EXIT,          /* ... and LuaJIT likely gave up on it */
	DA_KIND_BLACKLISTED_STITCH,     /* a stitch whose trace aborted */
	DA_KIND_HOT_EXIT,               /* an exit taken often, no side trace */
	DA_KIND_FLUSH_STORM,            /* many flushes */
	DA_KIND_MCODE_FLUSHES,          /* flushes when machine code ran out */
	DA_KIND_TRACE_LIMIT,            /* flushes at the trace limit */
	DA_KIND_SIDE_EXPLOSION,         /* many side traces at one line */
	DA_KIND_LONG_CHAIN,             /* side traces of side traces, deep */
	DA_KIND_COUNT
};

/* How much it matters (the rule's severity). */
enum da_level { DA_LEVEL_COSTLY, DA_LEVEL_LOOK, DA_LEVEL_HARMLESS };

/* Where a finding's extent (line .. end_line) comes from. */
enum da_basis {
	DA_BASIS_NONE,                  /* no extent: nothing charged by place */
	DA_BASIS_SOURCE,                /* the Lua source's block structure */
	DA_BASIS_TRACE,                 /* the lines the failed attempts recorded */
	DA_BASIS_LINE,                  /* the start's line alone */
	DA_BASIS_FUNCTION               /* (reserved: profiles by function) */
};

/* One finding.  Strings are NUL-terminated and, like the record, valid
 * until da_close; NULL when unknown.  Lines are DA_NO_LINE when unknown.
 * The struct only grows at its end. */
struct da_finding {
	uint32_t rank;                  /* 1-based: the list's order */
	enum da_finding_kind kind;
	const char *kind_word;          /* "aborting-loop", ... */
	enum da_level level;
	const char *level_word;         /* "costly", "worth-a-look", "harmless" */
	const char *rule;               /* "DA203": the catalogue's stable id */
	const char *rule_name;          /* "closure-in-loop" */
	const char *file;               /* where: the loop, function or exit's
	                                   start, or the line; NULL run-level */
	int32_t line;
	int32_t end_line;               /* the extent's last line */
	enum da_basis basis;
	const char *basis_word;         /* "source", "trace", "line", "none" */
	const char *at_file;            /* the line that failed: the abort
	                                   site of the main reason */
	int32_t at_line;
	const char *cause_file;         /* the code the dump names as the
	                                   cause: a closure's line (FNEW ;
	                                   file:line), or a built-in's name */
	int32_t cause_line;
	const char *reason;             /* the main reason (most attempts), in
	                                   its normal form */
	const char *error;              /* its LuaJIT name ("NYIBC") or NULL */
	uint64_t reason_attempts;       /* attempts that ended with it */
	const struct da_reason_count *reasons;  /* every reason, most first */
	uint32_t nreasons;
	const char *last_reason;        /* of the last attempt */
	uint64_t attempts;              /* aborted attempts, all reasons */
	uint64_t count;                 /* the kind's count: attempts, times
	                                   taken, flushes, side traces, depth */
	uint64_t traces;                /* compiled traces that start there */
	uint32_t blacklisted_gens;      /* generations it was likely
	                                   blacklisted (given up) in */
	uint32_t gen_first, gen_last;   /* generations it shows in */
	const char *bytecode;           /* the failed bytecode line, as written */
	uint64_t dump_line;             /* the dump line of that abort */
	int costed;                     /* a profile was given */
	uint64_t samples;               /* interpreted samples charged */
	uint64_t state_samples[DA_VM_STATES];   /* each state's samples by the
	                                   same rule, shown beside the cost */
	double share;                   /* samples, percent of all samples */
	uint64_t score;                 /* weight x count, the rank without a
	                                   profile */
	const char *title;              /* one line on the kind */
	const char *why;                /* why this severity */
	const char *advice;             /* what to do, naming the places */
	const char *identity;           /* a stable string that survives edits
	                                   elsewhere in the file */
	const char *id;                 /* a short hash of it (12 hex digits) */
	const char *start_text;         /* the start's line, whitespace
	                                   normalised, when the source was read */
	const char *at_text;            /* the failing line's, likewise */
	uint32_t order;                 /* among the file's findings of its
	                                   group and error, by line (0-based) */
	uint32_t trace;                 /* exits: the trace (its number in
	                                   gen_last) and the exit, or ... */
	int32_t exit;                   /* ... DA_PARENT_EXIT_STITCH, or
	                                   DA_PARENT_EXIT_NONE */
	uint32_t same_cause;            /* the rank of the first finding with
	                                   the same rule and cause (or failing
	                                   line): fixing that fixes this; 0 */
};

/* How many findings, and the i-th (0-based, rank i + 1), or NULL.  0 and
 * NULL before da_read ended or without DA_FINDINGS. */
DA_API size_t da_findings(const da_dump *d);
DA_API const struct da_finding *da_finding(const da_dump *d, size_t i);

#ifdef __cplusplus
}
#endif
#endif
