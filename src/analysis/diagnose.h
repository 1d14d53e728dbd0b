/* diagnose.h — run-level diagnoses for summary.txt and the report: why
 * each flush happened (machine code exhausted, the trace limit, or an
 * explicit jit.flush()), flush storms, side-trace explosions at one source
 * line, long side-trace chains, and blacklisting that a flush explains.
 * Fed with the answers; bounded by generations and distinct lines. */
#ifndef DUMPANALYZE_DIAGNOSE_H
#define DUMPANALYZE_DIAGNOSE_H

#include <stddef.h>
#include <stdint.h>
#include "model/model.h"
#include "util/tally.h"

#define DIAG_STORM_FLUSHES 10       /* this many flushes are a storm */
#define DIAG_SIDES_AT_LINE 10       /* side traces at one line in one gen */
#define DIAG_CHAIN_DEPTH 8          /* side traces of side traces ... */
#define DIAG_TOP 10                 /* explosions and chains kept */
#define DIAG_SHOW 3                 /* and shown */
#define DIAG_MAXTRACE_REPEAT_MIN 100 /* a repeated highest number this
                                       large is taken for -Omaxtrace */

enum flush_cause { FLUSH_NONE, FLUSH_MCODE, FLUSH_MAXTRACE, FLUSH_EXPLICIT };

struct diag_gen {
	uint32_t number;
	uint32_t highest;           /* highest trace number used (traces and
	                               aborted attempts) */
	uint64_t mcode;             /* machine code bytes of its traces */
	int mcode_last;             /* its last record: an mcode abort */
	enum flush_cause cause;     /* of the flush that ended it (diagnose_end) */
};

/* Many side traces starting at one line, or one long chain of them. */
struct diag_line { uint32_t gen, trace; const char *file; int32_t line; uint64_t n; };

struct diagnose {
	struct diag_gen *gens;
	size_t ngens, gens_cap;
	struct diag_gen cur;        /* the generation being read */
	struct tally sides;         /* current gen: (file, NULL, line) -> side traces */
	uint16_t *depth;            /* current gen: trace number -> chain depth */
	size_t ndepth;
	struct diag_line bursts[DIAG_TOP];  /* most side traces at a line first */
	struct diag_line chains[DIAG_TOP];  /* deepest first; n = depth */
	uint64_t nbursts;           /* lines found in all, kept or not */
	uint64_t nchains;           /* traces at depth DIAG_CHAIN_DEPTH: the
	                               chains (subtrees) that reach it */
};

void diagnose_trace(struct diagnose *d, const struct da_trace *t);
void diagnose_abort(struct diagnose *d, const struct da_abort *a);
void diagnose_gen_end(struct diagnose *d, const struct da_gen *g);
void diagnose_free(struct diagnose *d);

/* Why the flushes happened: how many of each cause, the trace limit
 * taken for maxtrace, the most machine code a generation held, and the
 * values to try (-Omaxmcode in KB, -Omaxtrace). */
struct flush_summary {
	size_t flushes;
	size_t n[4];                /* by enum flush_cause */
	uint32_t maxtrace;
	uint64_t mcode_kb;
	uint64_t try_maxmcode, try_maxtrace;
};
/* cause (may be NULL, else d->ngens + 1 entries) gets each generation's. */
void diagnose_flushes(const struct diagnose *d, struct flush_summary *s, enum flush_cause *cause);

/* An abort reason saying machine code memory ran out. */
int diagnose_is_mcode(const char *reason);

/* The findings, each one or two lines of text ending in '\n', in a fresh
 * array of fresh strings (diagnose_lines_free); blacklisted: the likely
 * blacklisted rows, mcode_blacklisted: those whose last attempt ran out of
 * machine code. */
size_t diagnose_lines(const struct diagnose *d, uint64_t blacklisted,
                      uint64_t mcode_blacklisted, char ***out);
void diagnose_lines_free(char **lines, size_t n);

#endif
