/* source_model.h — the JIT's story per source line and per file, for the source
 * view's text and pages, the files roll-up and the report's links: traces
 * that start at a line (compiled, and aborted attempts with their
 * reasons), traces that link to a trace starting there or end there,
 * aborts at the line (reason, count, first and last dump line), likely
 * blacklisting, coverage by compiled traces (luajit2's "(file:line)"
 * suffixes), and with a profile samples per VM state and the interpreted
 * samples of callees that failed to compile.  Bounded by the number of
 * distinct source lines, not by the dump's size. */
#ifndef DUMPANALYZE_SOURCE_MODEL_H
#define DUMPANALYZE_SOURCE_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "dumpanalyze.h"
#include "util/tally.h"
#include "util/intern.h"
#include "analysis/attempts.h"
#include "profile/profile.h"
#include "source/find.h"

#define SRC_REFS 8                  /* traces kept per line for links */

/* A trace or an aborted attempt, for links: gen-G-bushes.html#trace-T,
 * gen-G-bushes.html#abort-L (L: the abort header's dump line). */
struct src_ref { uint32_t gen, id; uint64_t line_no; };

/* Aborts of one reason (at a line, or of attempts started there). */
struct src_reason {
	const char *reason;
	uint64_t count;
	struct src_ref first, last;
	const char *at_file;        /* attempts: where the last one aborted */
	int32_t at_line;
};

struct src_line {
	const char *file;           /* the dump's name, in the model's intern */
	int32_t line;
	uint64_t traces, side, stitched, orphans;  /* compiled traces started
	                               here (kinds as in struct da_trace) */
	struct src_ref trace_refs[SRC_REFS];
	uint64_t attempts;          /* aborted attempts started here */
	struct src_reason *started; /* ... by reason */
	uint32_t nstarted, started_cap;
	uint64_t aborts;            /* aborts located here */
	struct src_reason *aborted;
	uint32_t naborted, aborted_cap;
	uint64_t links_in;          /* traces ending in a link to a trace here */
	struct src_ref link_ref;    /* the first of them */
	uint64_t stops;             /* luajit2: traces whose last bytecode is here */
	uint64_t blacklisted;       /* root starts LuaJIT likely gave up on */
	const char *blacklist_reason;   /* the last attempt's */
	const char *blacklist_main;     /* most attempts' */
	uint64_t blacklist_main_n, blacklist_attempts;
	/* side exits and stitches of the traces starting here that LuaJIT
	 * likely gave up on (attempts.h): the first of them */
	uint64_t exits_given_up;
	struct src_ref exit_ref;    /* gen, parent trace */
	int32_t exit_no;            /* or PARENT_EXIT_STITCH */
	uint64_t exit_attempts;
	const char *exit_reason;    /* its last attempt's, in the normal form */
	int exit_stub;              /* an interpreter stub compiled there */
	uint64_t covered;           /* luajit2: compiled traces with bytecode here */
	struct src_ref cover_refs[SRC_REFS];
	uint64_t samples, state[VM_STATES];
	uint64_t callee_samples;    /* in callees at lines that failed to compile */
	const char *callee_file, *callee_reason;   /* in the model's intern */
	int32_t callee_line;
};

struct src_file {
	const char *name;           /* interned, as the dump writes it */
	enum chunk_kind kind;
	size_t *lines;              /* indices into the model's lines, by line */
	size_t nlines, lines_cap;
	uint64_t traces, attempts, aborts, blacklisted, covered_lines;
	uint64_t samples, interpreted, callee_samples;
	char *text, *shown;         /* after src_model_read */
	size_t len, ambiguous;
	unsigned page;              /* K of source-K.html, 0: none */
	size_t family;              /* index in the model's families */
	int has_line;               /* a record names a line in it */
};

/* Chunks of one family (source/family.h) summed; a name without a
 * counter is a family of one. */
struct src_family {
	char *name;
	size_t len;
	size_t members;
	size_t first;               /* rank index of its first member */
	size_t id;                  /* (while sorting) */
	uint64_t traces, attempts, aborts, blacklisted, samples, interpreted, callee_samples;
};

struct src_model {
	struct intern names;        /* every name, once */
	struct tally by_ptr;        /* a record's name -> ours (as count) */
	struct tally line_ix;       /* (file, NULL, line) -> index + 1 */
	struct src_line *lines;
	size_t nlines, lines_cap;
	struct tally file_ix;       /* (file, NULL, 0) -> index + 1 */
	struct src_file *files;
	size_t nfiles, files_cap;
	size_t *loc_of_id;          /* this generation: trace id -> line + 1 */
	size_t nloc;
	struct attempts attempts;   /* this generation */
	int want_cover;             /* read trace text for coverage */
	int want_lines;             /* the story per line, not only per file */
	int annotated;              /* bytecode lines end in (file:line) */
	int has_bytecode;           /* trace text with bytecode was seen */
	int profiled, states, stacks, percent;
	struct src_file **ranked;   /* after src_model_rank */
	struct src_family *families;    /* ... ranked by their sums like files */
	size_t nfamilies;
};

void src_model_init(struct src_model *m);
void src_model_gen_begin(struct src_model *m);
void src_model_trace(struct src_model *m, const struct da_trace *t);
void src_model_abort(struct src_model *m, const struct da_abort *a);
void src_model_gen_end(struct src_model *m, const struct da_gen *g);
/* After the last record: the profile's lines (matched by name, else by
 * name without directories) and callee time from its stacks. */
struct callees;
void src_model_profile(struct src_model *m, const struct profile *p, const struct callees *c);
/* Files ranked by aborts, then samples, then traces, then name bytes;
 * every name classified and given its family (no disk access). */
void src_model_rank(struct src_model *m);
/* Read the ranked files that are files (find.h), numbering their pages
 * 1, 2, ... in rank order. */
void src_model_read(struct src_model *m, struct source_finder *f);
void src_model_free(struct src_model *m);

/* A file by its name's bytes, or NULL. */
const struct src_file *src_model_file(struct src_model *m, const char *file, size_t n);
/* Whether a line has a story worth showing. */
int src_line_notable(const struct src_line *l);


#endif
