/* dumpanalyze.h — read LuaJIT -jdump (and -jv) output as a stream of
 * records: traces, their bushes, aborted attempts, taken exits and
 * generations (the time between two flushes).
 *
 * The only public header of libdumpanalyze.  Every name in it starts with
 * da_ / DA_.  Link with `pkg-config --cflags --libs dumpanalyze`.
 *
 * Use:
 *     struct da_sink sink = DA_SINK(.abort = on_abort);
 *     struct da_options o = DA_OPTIONS(.sink = &sink, .sink_data = &mine);
 *     int err;
 *     da_dump *d = da_open_path("dump.txt", &o, &err);
 *     if (!d) ... da_strerror(err) ...
 *     err = da_read(d);               // calls the sink as records complete
 *     da_close(d);
 * or, with bytes that come in pieces (a socket, a log shipper):
 *     da_dump *d = da_open_push(&o, &err);
 *     while ((n = read(fd, buf, sizeof buf)) > 0)
 *         if ((err = da_feed(d, buf, n, 0)) < 0) break;
 *     if (err == 0) err = da_feed(d, NULL, 0, 1);     // the end
 *
 * Lifetimes, one rule: every record a callback gets (struct da_gen,
 * da_trace, da_bush, da_abort, da_exit) and everything it points to (a
 * trace's text, an abort's bytecode lines, other records) stays valid
 * until its generation's gen_end callback returns.  Every string
 * (const char *) in a record or an answer, and the answers, stay until
 * da_close.  (DA_CALLBACK_ONLY trades this for less memory, below.)
 *
 * Functions return 0 or a negative DA_E* code; the library never exits,
 * aborts or prints: it reports problems through options.diag.  See
 * dumpanalyze(3).
 *
 * ABI 2 (0.4.0) is not ABI 1: struct da_options and da_sink begin with
 * their size, so that the library can check them at open and a later one
 * can grow them; the answers come one record at a time (da_abort_site(d,
 * i)), so that their structs can grow too; exits carry their places;
 * struct da_counts counts orphan traces apart from side traces. */
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

/* ---- versions -------------------------------------------------------- */

#define DA_VERSION_MAJOR 0
#define DA_VERSION_MINOR 4
#define DA_VERSION_PATCH 0
#define DA_VERSION_STRING "0.4.0"
/* 0xMMmmpp: compare numbers, not strings. */
#define DA_VERSION_NUM ((DA_VERSION_MAJOR << 16) | (DA_VERSION_MINOR << 8) | DA_VERSION_PATCH)
#define DA_AT_LEAST_VERSION(major, minor, patch) \
	(DA_VERSION_NUM >= (((major) << 16) | ((minor) << 8) | (patch)))
#define DA_ABI 2                    /* the soname's number */

/* The library's version, which may be newer than the header's: "0.4.0"
 * and DA_VERSION_NUM's form of it. */
DA_API const char *da_version(void);
DA_API unsigned long da_version_number(void);

/* How this header grows without breaking programs built against it:
 *   - structs you fill (da_options, da_sink) begin with their size; make
 *     them with DA_OPTIONS(...) and DA_SINK(...), which set it.  A library
 *     newer than your header takes the fields your struct lacks as zero;
 *     one older than your header takes your struct only if every field it
 *     does not know is zero, and else fails the open with DA_EINVAL;
 *   - structs the library hands out (records and answers) only grow at
 *     their end: read them through the pointers it gives you (a record
 *     per callback, an answer per da_abort_site(d, i)), never as an array
 *     of them, and do not copy them by your sizeof.  struct da_counts,
 *     da_line_counts and da_reason_count, which are embedded, summed or
 *     handed out as an array (a finding's reasons), never grow. */

/* ---- errors -------------------------------------------------------- */

enum da_error {
	DA_OK = 0,
	DA_EIO = -1,                /* reading or decompressing failed:
	                               da_dump_error says why */
	DA_ENOMEM = -2,             /* out of memory: only da_close is left */
	DA_ESTRICT = -3,            /* a warning under DA_STRICT */
	DA_ESTOPPED = -4,           /* a sink callback returned non-zero */
	DA_EINVAL = -5,             /* a bad argument or options, or a call
	                               out of order (see dumpanalyze(3)) */
	DA_EOPEN = -6,              /* the dump could not be opened (errno) */
	DA_EINTR = -7,              /* da_interrupt was called */
	DA_EFORMAT = -8             /* a file given to da_use_profile is not
	                               in a format read (diag says where) */
};

/* The words for an error code ("out of memory"). */
DA_API const char *da_strerror(int err);

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
 * line ending in '\n', byte for byte as in the dump (buf is never NULL).
 * At most 32 MiB of whole lines per trace (no LuaJIT trace comes near):
 * past that, lines are counted but not kept, and a warning names the
 * first line left out.  Only with DA_KEEP_TEXT. */
struct da_trace_text {
	const char *buf;
	size_t off[DA_SEC_COUNT], len[DA_SEC_COUNT];
	unsigned present;           /* bit (1 << section): its header was seen */
};

struct da_bush;

/* A compiled trace ("---- TRACE N start" ... "---- TRACE N stop").
 * Kinds: a root trace (parent_exit DA_PARENT_EXIT_NONE), a stitched one
 * (DA_PARENT_EXIT_STITCH), a side trace (parent_exit >= 0 and its parent
 * in this generation: parent_trace set, part of the parent's bush), or an
 * orphan (parent_exit >= 0, the parent not in this generation:
 * parent_trace NULL, the root of a bush of its own).  struct da_counts
 * counts each kind once. */
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

/* A root (or stitched, or orphan) trace and the side traces grown from
 * it, transitively.  It grows as its traces stop. */
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
	 * failed.  Each line is a string (until da_close). */
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
	/* Where the exit's trace starts (NULL when trace is NULL). */
	const char *trace_file;
	int32_t trace_line;
	/* Where the exit resumes, as the dump showed it before this line: the
	 * start of a side trace or an attempt from this exit in this
	 * generation, else NULL (LuaJIT logs an exit as it goes to the
	 * interpreter, mostly before anything starts there: at gen_end,
	 * da_gen_exit_resume knows the whole generation). */
	const char *resume_file;
	int32_t resume_line;
};

/* What a generation (or the whole run) holds:
 * traces = root + side + stitched + orphans, bushes = root + stitched +
 * orphans (see struct da_trace for the kinds). */
struct da_counts {
	uint64_t traces, root, side, stitched, orphans;
	uint64_t aborts, exits, incomplete, bushes;
};

/* A generation: from the start of the dump or a flush to the next flush
 * or the end.  The same struct from gen_begin to gen_end: its counts and
 * lists grow as it is read; at gen_end every trace and bush of it is
 * complete. */
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
/* Where exit `exit` of trace `id` resumes, as the generation so far shows
 * it (the first side trace or attempt started from it): its file, and
 * its line in *line (line may be NULL); NULL when none started there. */
DA_API const char *da_gen_exit_resume(const struct da_gen *g, uint32_t id, uint32_t exit,
                                      int32_t *line);

/* Where every input line went; the parts add up to total. */
struct da_line_counts {
	uint64_t total, header, content, exit_regs, foreign, blank;
};

/* ---- reading a dump ------------------------------------------------ */

/* Callbacks, each optional, with options.sink_data as first argument.  A
 * non-zero return stops the run: da_read then returns DA_ESTOPPED.  Make
 * it with DA_SINK(...), which sets size. */
struct da_sink {
	size_t size;                /* sizeof(struct da_sink) */
	int (*gen_begin)(void *data, const struct da_gen *g);
	int (*trace)(void *data, const struct da_trace *t);     /* as it stops */
	int (*abort)(void *data, const struct da_abort *a);
	int (*exit)(void *data, const struct da_exit *x);
	int (*gen_end)(void *data, const struct da_gen *g);     /* its bushes */
};
#define DA_SINK(...) { .size = sizeof(struct da_sink), __VA_ARGS__ }

enum da_severity {
	DA_WARNING,                 /* counted in da_warnings, but for those
	                               about the source directories, not the
	                               dump (at line 0, "NAME: N files of that
	                               name under the source root ROOT match
	                               it equally (...)", "NAME: not read:
	                               the path goes through a hidden ...",
	                               and after the findings "sources not
	                               found: ..."):
	                               neither counted nor fatal */
	DA_ERROR,                   /* the warning that DA_STRICT made fatal,
	                               or why an open failed with DA_EINVAL */
	DA_NOTE                     /* with DA_NOTES: a foreign line, ... */
};

/* A problem in the input: file as given in options.name, the 1-based
 * line (0: not about a line), and a message without a trailing newline. */
typedef void (*da_diag_fn)(void *data, enum da_severity sev, const char *file,
                           uint64_t line, const char *msg);

enum da_flags {
	DA_KEEP_TEXT = 1 << 0,      /* traces and aborts carry their text */
	DA_STRICT = 1 << 1,         /* the first warning stops the run */
	DA_ANSWERS = 1 << 2,        /* keep the whole-run answers below */
	DA_NO_THREAD = 1 << 3,      /* read on the caller's thread only */
	DA_NOTES = 1 << 4,          /* pass notes to diag, not only warnings */
	DA_FINDINGS = 1 << 5,       /* rank what to fix first (da_findings);
	                               implies DA_ANSWERS */
	/* Aborts, exits and all text are valid only until the callback that
	 * gets them returns (traces and bushes still until gen_end): memory
	 * then follows a generation's traces, not its exits and text.  For
	 * long streams (a server's dump read for days). */
	DA_CALLBACK_ONLY = 1 << 6
};

struct da_options {
	size_t size;                /* sizeof(struct da_options) */
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
#define DA_OPTIONS(...) { .size = sizeof(struct da_options), __VA_ARGS__ }

typedef struct da_dump da_dump;

/* Open a dump: a file ("-" is standard input), a descriptor (not closed
 * by da_close), or bytes in memory (not copied: they must outlive the
 * handle; NULL with len 0 is an empty dump).  Compressed dumps (gzip, xz,
 * zstd) are recognised by their first bytes, as are -jv logs.  opts may
 * be NULL; it is copied, so neither it nor its sink need outlive the
 * call.  NULL on failure, with *err set (err may be NULL; with DA_EOPEN
 * errno says why; with DA_EINVAL options.diag, when set, got why). */
DA_API da_dump *da_open_path(const char *path, const struct da_options *opts, int *err);
DA_API da_dump *da_open_fd(int fd, const struct da_options *opts, int *err);
DA_API da_dump *da_open_memory(const void *buf, size_t len,
                               const struct da_options *opts, int *err);
/* A dump whose bytes the caller hands over with da_feed, as they come. */
DA_API da_dump *da_open_push(const struct da_options *opts, int *err);

/* Read a part of the dump (tens of thousands of lines) and call the sink
 * for what completed: > 0 while there is more, 0 once the whole dump was
 * read and its last generation ended, or a DA_E* code (then only da_close
 * is left to do).  Not for a push handle (DA_EINVAL). */
DA_API int da_step(da_dump *d);
/* da_step until the end: 0 or a DA_E* code. */
DA_API int da_read(da_dump *d);
/* The next len bytes of a push handle's dump (buf may be NULL when len is
 * 0), in pieces of any size: the sink is called for every record they
 * complete before it returns.  last != 0 says the dump ends with them:
 * its last generation ends.  0, or a DA_E* code, which later calls
 * return again.  Only the line a piece leaves unfinished is copied.
 * DA_EINVAL (the handle unchanged) on a handle not opened with
 * da_open_push, after a call with last set, and from inside a callback. */
DA_API int da_feed(da_dump *d, const void *buf, size_t len, int last);
/* Make the next (or the current, waiting) da_step or da_feed return
 * DA_EINTR soon, also while the dump is a quiet pipe.  Async-signal-safe:
 * for a signal handler. */
DA_API void da_interrupt(da_dump *d);

/* After an error (any DA_E* but DA_EINVAL from a call out of order),
 * reading is over: da_step, da_read and da_feed return that code again,
 * the sink hears nothing more (no gen_end for the generation it stopped
 * in), and the functions below say what was read up to the stop. */

/* Progress and accounting, at any time. */
DA_API uint64_t da_bytes_read(const da_dump *d);    /* from the file or fed */
DA_API uint64_t da_lines_read(const da_dump *d);    /* split so far */
/* The lines the parser took (up to the one that stopped a run). */
DA_API const struct da_line_counts *da_line_counts(const da_dump *d);
DA_API uint64_t da_warnings(const da_dump *d);
DA_API uint32_t da_generations(const da_dump *d);   /* completed */
/* Totals of the completed generations (those whose gen_end returned). */
DA_API const struct da_counts *da_totals(const da_dump *d);
/* The counts of the generation being read: from its gen_begin to its
 * gen_end; zero between generations and after the end; after an error in
 * the middle of a generation, its counts up to there. */
DA_API const struct da_counts *da_current(const da_dump *d);
/* "gzip", "xz", "zstd" or "plain"; "jv" or "dump" for the format. */
DA_API const char *da_compression(const da_dump *d);
DA_API const char *da_format(const da_dump *d);
/* After an error: why, in words (da_strerror's, or more). */
DA_API const char *da_dump_error(const da_dump *d);

DA_API void da_close(da_dump *d);

/* ---- whole-run answers (with DA_ANSWERS, once reading is over) ---- */

/* Each answer is a count and an accessor: da_abort_reasons(d) of them,
 * da_abort_reason(d, i) the i-th (0-based; NULL past the end), sorted by
 * count, largest first, ties in order of first appearance.  They exist
 * once reading is over (da_read returned, da_feed with last returned, or
 * an error stopped it: then they cover what was read, the interrupted
 * generation's part included); before that, and without DA_ANSWERS, the
 * counts are 0.  The records and their strings stay until da_close. */

struct da_reason_count {
	const char *reason;
	uint64_t count;
};
DA_API size_t da_abort_reasons(const da_dump *d);
DA_API const struct da_reason_count *da_abort_reason(const da_dump *d, size_t i);

/* An abort site: (reason, file, line). */
struct da_site_count {
	const char *reason, *file;
	int32_t line;
	uint64_t count;
	const char *reason_normal;      /* as in struct da_abort */
	const char *error;              /* or NULL */
	/* the last abort there: its bytecode lines (as in struct da_abort),
	 * and the dump lines of the first and last abort there */
	uint32_t nbytecode;
	const char *const *bytecode;
	uint64_t first_line, last_line;
};
DA_API size_t da_abort_sites(const da_dump *d);
DA_API const struct da_site_count *da_abort_site(const da_dump *d, size_t i);

/* The most taken exits of the run (at most 50), with their places as in
 * struct da_exit, the resume place from the whole generation. */
struct da_exit_count {
	uint32_t gen, trace, exit;
	uint32_t side;              /* side trace grown there, 0 when none */
	uint64_t count;
	const char *trace_file;     /* where the exit's trace starts, or NULL */
	int32_t trace_line;
	const char *resume_file;    /* where the exit resumes, or NULL */
	int32_t resume_line;
};
DA_API size_t da_hot_exits(const da_dump *d);
DA_API const struct da_exit_count *da_hot_exit(const da_dump *d, size_t i);

/* Start locations and parent exits LuaJIT most likely gave up on
 * (blacklisted): a root start (exit DA_PARENT_EXIT_NONE) or a parent's
 * side exit or stitch (parent, exit). */
struct da_given_up {
	uint32_t gen;
	const char *file;           /* where the attempts started: the root
	                               start, or where the exit resumes; NULL
	                               when the dump did not show it */
	int32_t line;
	uint32_t parent;            /* side and stitch attempts */
	int32_t exit;               /* DA_PARENT_EXIT_NONE for a root start */
	uint64_t attempts;
	const char *last_reason;
	const char *trace_file;     /* side and stitch: where the parent trace
	                               starts, NULL when unknown */
	int32_t trace_line;
};
DA_API size_t da_given_ups(const da_dump *d);
DA_API const struct da_given_up *da_given_up(const da_dump *d, size_t i);

/* ---- findings (with DA_FINDINGS, after a complete read) ------------ */

/* What else the findings may read, given before the first da_step or
 * da_feed (else DA_EINVAL).  The library opens files only where these say.
 *
 * da_use_profile: a LuaJIT -jp profile of the same workload (-jp=Gvl or
 * -jp=lvrm0i1 are best; plain or compressed), or a profile of Tarantool
 * LuaJIT's platform profiler (misc.sysprof) of the dump's own process,
 * each recognised by its bytes and read at once; one of each kind may be
 * given (a second of a kind: DA_EINVAL).  0, DA_EOPEN (errno says why),
 * DA_EIO (unreadable; a sysprof stream malformed or cut short), or
 * DA_EFORMAT (not a format read: an unknown sysprof version, a memprof
 * stream), each after diag (DA_ERROR, the profile's path and line, or 0
 * and the byte offset in the message) said what is wrong.  Its samples
 * become the findings' cost: the -jp profile's when both are given (it
 * knows lines), else the sysprof one's, whose interpreted samples are
 * known per Lua function (basis DA_BASIS_FUNCTION).
 *
 * da_use_source_root: a directory whose Lua files the dump may name,
 * read to find the extents of loops and functions and the text of their
 * lines (a finding's identity): a name as written relative to it, an
 * absolute name lying inside it, and with DA_SOURCE_BY_NAME a name's base
 * name anywhere below it: of several such files the one whose path ends
 * in the most of the name's components, and when several tie, none (no
 * later directory either: diag hears it once per name, DA_WARNING at
 * line 0; the findings there get no text from the source rather than
 * another file's).  Every file is opened only when its real path
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
	const char *path;               /* the profile charging the findings,
	                                   as given to da_use_profile */
	uint64_t total;                 /* all samples */
	uint64_t state[DA_VM_STATES];   /* by VM state (0 without states) */
	uint64_t charged;               /* interpreted samples the findings
	                                   were charged, summed (<= state[0]) */
	int states;                     /* split by VM state (-jp=...v) */
	int stacks;                     /* folded stacks (-jp=G) */
	int percent;                    /* percentages, not counts */
	int functions;                  /* a sysprof profile: interpreted
	                                   samples known per Lua function */
	uint64_t unsplit;               /* ... of them, those charged to no
	                                   finding in a function that holds a
	                                   failed loop of its own (which of its
	                                   lines ran, it cannot say) */
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
	DA_BASIS_FUNCTION               /* cost from a profile by function
	                                   (sysprof): the samples of functions
	                                   whose code the extent holds */
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
	int32_t end_line;               /* the extent's last line: a loop's or
	                                   function's end; an exit's or
	                                   stitch's runs from its line (where
	                                   the interpreter resumes) to the end
	                                   of the loop or function around it */
	enum da_basis basis;            /* how it was costed: its extent's
	                                   basis, or DA_BASIS_FUNCTION when a
	                                   sysprof profile charged it */
	const char *basis_word;         /* "source", "trace", "line",
	                                   "function", "none" */
	const char *at_file;            /* the line that failed: the abort
	                                   site of the main reason (most of
	                                   its attempts) */
	int32_t at_line;
	const char *cause_file;         /* the code the dump names as the
	                                   cause: a closure's line (FNEW ;
	                                   file:line), or a built-in's name */
	int32_t cause_line;
	const char *reason;             /* the main reason, in its normal
	                                   form: of its reasons the one whose
	                                   rule is the most severe, of equals
	                                   the one most attempts ended with;
	                                   rule, level and advice are its */
	const char *error;              /* its LuaJIT name ("NYIBC") or NULL */
	uint64_t reason_attempts;       /* attempts that ended with it */
	const struct da_reason_count *reasons;  /* every reason: the main one
	                                   first, then most attempts first */
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
	const char *baseline_reason;    /* NULL unless a baseline accepted it:
	                                   the reason line written there ("" when
	                                   the entry gives none) */
	enum da_basis extent_basis;     /* where the extent comes from (never
	                                   DA_BASIS_FUNCTION) */
	const char *extent_word;
	const char *profile;            /* the profile its samples come from
	                                   (da_profile_totals' path), or NULL */
	int failed;                     /* its loop, function, exit or stitch
	                                   failed in a way that is not usually
	                                   harmless (level): the cost rule
	                                   charges its extent, the tool's callee
	                                   columns name it; 0 for the other
	                                   kinds */
	const char *scope_file;         /* the loop or function the advice
	                                   names: a start's own place; for an
	                                   exit or stitch the innermost loop or
	                                   function around the line its side
	                                   traces failed at (from the source);
	                                   NULL: not known */
	int32_t scope_line;             /* its first line, or DA_NO_LINE */
	const char *scope_word;         /* its kind: "loop", "function", or
	                                   "loop or function" (not known) */
};

/* How many findings, and the i-th (0-based, rank i + 1), or NULL.  0 and
 * NULL before reading ended without an error (da_read, or da_feed with
 * last, returned 0) or without DA_FINDINGS. */
DA_API size_t da_findings(const da_dump *d);
DA_API const struct da_finding *da_finding(const da_dump *d, size_t i);

/* A baseline: findings accepted on purpose, in the file --write-baseline
 * writes (its format in dumpanalyze(1), BASELINE).  da_use_baseline reads
 * it before the first da_step (else DA_EINVAL; also without DA_FINDINGS):
 * 0, DA_EOPEN (errno says why), DA_EIO, or DA_EFORMAT after diag
 * (DA_ERROR, the file's path and line) said what is wrong.  After da_read
 * each finding whose identity it lists has baseline_reason set. */
DA_API int da_use_baseline(da_dump *d, const char *path);

/* An entry of the baseline as written (strings NULL when the entry lacks
 * the line, until da_close). */
struct da_baseline_entry {
	const char *identity;           /* what decides a match */
	const char *kind, *severity, *reason, *place;   /* for the reader */
	const char *accepted;           /* why it is accepted ("" when not said) */
	uint64_t line;                  /* its "finding" line in the file */
};
/* The entries no finding matched (stale: the code changed or the finding
 * is gone), after da_read, in the file's order: how many, and the i-th
 * (0-based) or NULL. */
DA_API size_t da_baseline_stale(const da_dump *d);
DA_API const struct da_baseline_entry *da_baseline_stale_entry(const da_dump *d, size_t i);

#ifdef __cplusplus
}
#endif
#endif
