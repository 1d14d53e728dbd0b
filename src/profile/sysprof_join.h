/* sysprof_join.h — time per trace: a sysprof profile's TRACE samples
 * charged to the dump's traces of the same process, in the right
 * generation, then to their bushes.
 *
 * The rule (dumpanalyze(1), "Time per trace"): a TRACE sample names a
 * trace number, and is the newest stream record of that number's.  The
 * records are put against the dump's completed traces (their "stop"
 * headers, in order, over all generations), matched by trace number and
 * start location ("start FILE:LINE"):
 *   - the symbol table's records (traces alive when profiling began) at
 *     the first point P of the dump where each of them is the newest
 *     trace of its number in the current generation, with the same start
 *     (all of them, or as many as any point allows; P is the start of the
 *     dump when there are none);
 *   - the records of traces compiled while profiling ran, in stream order,
 *     each to the first trace after P and after the previous record's
 *     trace with its number and start.
 * A record with no such trace (the dump ended early, or began late) keeps
 * its samples apart, as does a sample whose number had no record. */
#ifndef DUMPANALYZE_SYSPROF_JOIN_H
#define DUMPANALYZE_SYSPROF_JOIN_H

#include <stddef.h>
#include <stdint.h>
#include "dumpanalyze.h"
#include "profile/sysprof.h"
#include "util/intern.h"

/* A completed trace of the dump. */
struct sj_trace {
	uint32_t gen, id;
	const char *file;           /* interned: the start location's file */
	int32_t line;
	uint32_t k;                 /* the K-th trace of its number in its generation */
	uint32_t bush;              /* index in bushes */
	uint32_t record;            /* the stream record matched, or UINT32_MAX */
	uint64_t samples;
};

/* A bush of the dump: its root's kind and start name it across runs. */
struct sj_bush {
	uint32_t gen, root, dup;    /* generation, root trace, K-th with that root */
	const char *kind;           /* "root", "stitch" or "orphan" */
	const char *file;           /* the root's start (interned) */
	int32_t line;
	uint32_t ntraces;
	uint64_t mcode;             /* its traces' machine code, bytes */
	uint64_t samples;
};

struct sysprof_join {
	struct intern strings;
	struct sj_trace *traces;    /* stop order, generation after generation */
	size_t ntraces, traces_cap;
	struct sj_bush *bushes;     /* generation after generation, in order of roots */
	size_t nbushes, bushes_cap;
	/* after sj_build: */
	uint64_t records, matched;          /* stream records, of them matched */
	uint64_t initial, initial_matched;  /* the symbol table's */
	uint64_t samples;                   /* TRACE samples charged to dump traces */
	uint64_t samples_apart;             /* ... to records the dump lacks, or to
	                                       numbers without a record */
	size_t start;                       /* P: dump traces before it precede profiling */
};

void sj_init(struct sysprof_join *j);
/* A generation of the dump, at its end (its traces and bushes). */
void sj_gen(struct sysprof_join *j, const struct da_gen *g);
/* Match the profile's records (see above) and charge their samples
 * (again from scratch when called again). */
void sj_build(struct sysprof_join *j, const struct sysprof *p);
/* Indexes of the traces (bushes) with samples, most first (ties in dump
 * order); caller frees. */
size_t *sj_ranked_traces(const struct sysprof_join *j, size_t *n);
size_t *sj_ranked_bushes(const struct sysprof_join *j, size_t *n);
void sj_free(struct sysprof_join *j);
/* "12.34": v as a percentage of total, two decimals, rounded half up
 * ("0.00" for a zero total).  The length written. */
int sj_percent(char *buf, size_t n, uint64_t v, uint64_t total);
/* A location "file:line" (just the file without a line) into buf. */
void sj_loc(char *buf, size_t n, const char *file, int32_t line);

#endif
