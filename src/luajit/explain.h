/* explain.h — what each trace abort means: the catalogue of LuaJIT's abort
 * messages (traceerr.def) and bytecodes (bytecodes.def), matching a raw
 * reason to its entry, one normal form for the reason whichever LuaJIT
 * wrote it, and a guess of which numbering a dump's bytecodes use.
 * Pure functions over constant tables: no I/O, no allocation; text goes
 * into the caller's buffers.
 *
 * The normal form of an abort reason (explain_normalise):
 *   - blanks around it are dropped (2.1 pads bytecode names to six);
 *   - "NYI: bytecode N" and "NYI: bytecode NAME" both become
 *     "NYI: bytecode NAME", NAME unpadded.  A number N is read, in order:
 *       1. as the opcode of the attempt's last recorded bytecode line (the
 *          caller's OPCODE, see explain_bcline), when that opcode's number
 *          is N in 2.0's or in 2.1's numbering;
 *       2. in the numbering of the given flavour;
 *       3. with neither, as the name both numberings give N (0..15);
 *     otherwise it stays a number: "NYI: bytecode 51".  A NAME the reason
 *     itself gives always wins over OPCODE;
 *   - "NYI: C function C:55e706e13ba0" (2.0) becomes "NYI: C function":
 *     the address changes from run to run;
 *   - everything else is kept as LuaJIT wrote it, such as
 *     "NYI: FastFunc string.find" with its function name, or a Lua error
 *     message that aborted the recording. */
#ifndef DUMPANALYZE_EXPLAIN_H
#define DUMPANALYZE_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>

/* The builds that have a trace error (traceerr.def). */
#define EXPLAIN_LJ20    0x1u    /* LuaJIT 2.0 */
#define EXPLAIN_LJ21B   0x2u    /* 2.1 before 2024: 2.1.0-beta3 and its snapshots (Debian luajit, Tarantool) */
#define EXPLAIN_LJ2     0x4u    /* OpenResty luajit2 */
#define EXPLAIN_LJ21    0x8u    /* 2.1 since 2024 (NYI bytecodes by name) */
#define EXPLAIN_LJ21ALL (EXPLAIN_LJ21B | EXPLAIN_LJ2 | EXPLAIN_LJ21)
#define EXPLAIN_ALL     (EXPLAIN_LJ20 | EXPLAIN_LJ21ALL)

/* Which recorders may abort on a bytecode with "NYI: bytecode". */
#define EXPLAIN_NYI20   0x1u
#define EXPLAIN_NYI21   0x2u

/* A bytecode numbering.  OpenResty's luajit2 and every 2.1 share 2.1's. */
enum explain_flavour {
	EXPLAIN_FLAVOUR_UNKNOWN,
	EXPLAIN_FLAVOUR_20,
	EXPLAIN_FLAVOUR_21,
};

/* How much a finding of a rule matters (traceerr.def says each). */
enum explain_severity {
	EXPLAIN_COSTLY,             /* costly and fixable */
	EXPLAIN_LOOK,               /* worth a look */
	EXPLAIN_HARMLESS,           /* usually harmless */
	EXPLAIN_SEVERITIES
};

/* A findings rule: a trace error's or an NYI bytecode's (traceerr.def,
 * bytecodes.def), or a run-level kind's (findings/kinds.def). */
struct explain_rule {
	const char *id;             /* "DA203": stable, never reused */
	const char *name;           /* "closure-in-loop" */
	enum explain_severity severity;
	unsigned weight;            /* 0..100 */
	const char *why;            /* why that severity */
	/* what to do, with {start} {scope} {at} {cause} to fill: for 2.0, for
	 * 2.1 and luajit2 (NULL: that build never has it), and for a build
	 * the dump shows recording the bytecode (NULL: as for its build) */
	const char *advice20, *advice21, *advice_seen;
};

/* A trace error: one TRACEERR row. */
struct explain_err {
	const char *name;           /* "NYIBC" */
	const char *pattern;        /* "NYI: bytecode %d" */
	unsigned builds;            /* EXPLAIN_LJ* bits */
	const char *meaning;
	const char *fix;
	struct explain_rule rule;
};

/* A bytecode: one BC row. */
struct explain_bc {
	const char *name;           /* "FNEW" */
	int n20, n21;               /* its numbers; -1 when not in 2.0 */
	unsigned nyi;               /* EXPLAIN_NYI* bits */
	const char *meaning;        /* NULL unless NYI aborts name it */
};

/* What a reason or a query matched. */
struct explain_match {
	const struct explain_err *err;  /* NULL: unknown */
	const struct explain_bc *bc;    /* NYIBC: the bytecode, once decided */
	const struct explain_bc *bc20;  /* NYIBC by number: its 2.0 reading */
	const struct explain_bc *bc21;  /* ... and its 2.1 reading */
	const char *arg;                /* the placeholder's text in the reason */
	size_t arg_len;
};

/* Evidence of the numbering, collected while reading one dump.  Stitching
 * (a start "N/stitch" or a "stop -> stitch") is the caller's to count;
 * explain_note_reason and explain_note_bcline fill the rest. */
struct explain_evidence {
	uint32_t stitch;            /* stitched traces: only 2.1 stitches */
	uint32_t nyi_ffunc;         /* "NYI: FastFunc X": 2.0 only */
	uint32_t nyi_cfunc;         /* "NYI: C function C:ADDR": 2.0 only */
	uint32_t err21;             /* "trace too short", "retry recording": 2.1 only */
	uint32_t nyi_name;          /* "NYI: bytecode NAME": 2.1 since 2024 */
	uint32_t bc21;              /* bytecode lines of ISTYPE, ISNUM, TGETR, TSETR */
	uint32_t pair20, pair21;    /* "NYI: bytecode N" whose last recorded
	                             * opcode is N in 2.0's / 2.1's numbering only */
	uint32_t fits20, fits21;    /* a number N that names an opcode only 2.0's
	                             * / 2.1's recorder rejects (bytecodes.def) */
};

/* An upper bound on how much longer than its reason a normal form gets
 * ("NYI: bytecode 1" -> "NYI: bytecode ISGE"). */
#define EXPLAIN_NORMAL_EXTRA 8

/* The tables, in .def order. */
const struct explain_err *explain_errs(size_t *n);
const struct explain_bc *explain_bcs(size_t *n);
/* The rule of an NYI bytecode (BC_RULE), or NULL; all of them, in order,
 * with the name of the bytecode each belongs to. */
const struct explain_rule *explain_bc_rule(const struct explain_bc *bc);
const struct explain_rule *explain_bc_rules(size_t *n, const char *const **names);
/* "costly", "worth-a-look", "harmless"; and in words, for text. */
const char *explain_severity_word(enum explain_severity s);
const char *explain_severity_text(enum explain_severity s);
/* The severity whose word is word ("costly", "worth-a-look",
 * "harmless"), or -1. */
int explain_severity_parse(const char *word);

/* Another wording of e (TRACEERR_FORM) and the builds that write it
 * (*builds may be NULL), or NULL; explain_err_builds is every build that
 * has e in one wording or the other. */
const char *explain_err_form(const struct explain_err *e, unsigned *builds);
unsigned explain_err_builds(const struct explain_err *e);

/* The entry named NAME (a TREDEF or bytecode name), case-insensitive. */
const struct explain_err *explain_err_named(const char *name, size_t len);
const struct explain_bc *explain_bc_named(const char *name, size_t len);
/* The opcode numbered N in a flavour's numbering; NULL for UNKNOWN or a
 * number outside it. */
const struct explain_bc *explain_bc_numbered(long n, enum explain_flavour fl);

/* Match a raw abort reason, bytes as in the dump ("NYI: bytecode VARG  "),
 * to its entry; NULL for an unknown message.  m (may be NULL) gets the
 * details; m->bc is set for a bytecode name, for a number that fl
 * decides, or a number both numberings read alike. */
const struct explain_err *explain_match(const char *reason, size_t len,
                                        enum explain_flavour fl, struct explain_match *m);

/* The opcode a bytecode listing line names ("0009  FNEW  11 0 ; x:100",
 * "0000  . FUNCC  ; string.find"), or NULL for any other line (IR,
 * snapshot, mcode, program output).  Pass the aborted attempt's last such
 * line to explain_normalise: LuaJIT prints the bytecode it could not
 * record as the last one, whatever its numbering. */
const struct explain_bc *explain_bcline(const char *line, size_t len);

/* Write the normal form of REASON (see the top of this file) to out,
 * NUL-terminated; *out_len (may be NULL) gets its length.  OPCODE: the
 * name of the attempt's last recorded bytecode, or NULL.  Returns 0, or
 * -1 when cap is too small (out then holds what fits); cap >= len +
 * EXPLAIN_NORMAL_EXTRA + 1 always suffices. */
int explain_normalise(const char *reason, size_t len, enum explain_flavour fl,
                      const char *opcode, char *out, size_t cap, size_t *out_len);

/* Count what a reason, and the attempt's last recorded opcode (or NULL),
 * say about the numbering; explain_note_match does it for a reason
 * already matched with EXPLAIN_FLAVOUR_UNKNOWN. */
void explain_note_reason(struct explain_evidence *ev, const char *reason, size_t len,
                         const char *opcode);
void explain_note_match(struct explain_evidence *ev, const struct explain_match *m,
                        const char *opcode);
/* Count what a bytecode listing line says about the numbering; the same
 * for the opcode explain_bcline found on one (NULL: nothing). */
void explain_note_bcline(struct explain_evidence *ev, const char *line, size_t len);
void explain_note_bc(struct explain_evidence *ev, const struct explain_bc *bc);

/* Decide the numbering from the evidence; *why (may be NULL) gets a short
 * reason.  Tiers, strongest first; the first tier with any evidence
 * decides, and evidence for both numberings in it leaves it UNKNOWN:
 *   1. pair20 / pair21: a number and the opcode printed for it;
 *   2. stitch, err21, nyi_name, bc21 (2.1) against nyi_ffunc, nyi_cfunc
 *      (2.0): things only one version does;
 *   3. fits20 / fits21: numbers only one numbering makes a rejected opcode. */
enum explain_flavour explain_flavour_guess(const struct explain_evidence *ev, const char **why);
const char *explain_flavour_name(enum explain_flavour fl);

/* For a future --explain: an error name ("NYIBC"), a bytecode name
 * ("FNEW", giving NYIBC and the bytecode) or a message in any build's
 * wording ("NYI: bytecode 51", "failed to allocate mcode memory"), case
 * and surrounding blanks ignored.  Returns the entry (and m, which may be
 * NULL), or NULL. */
const struct explain_err *explain_lookup(const char *query, size_t len,
                                         enum explain_flavour fl, struct explain_match *m);

/* Up to max entries closest to an unknown query, best first: names,
 * message texts and NYI bytecode names that contain the query (or that it
 * contains) first, then by edit distance, ties in catalogue order; an
 * entry more than half different is left out.  Returns how many. */
size_t explain_closest(const char *query, size_t len, struct explain_match *out, size_t max);

#endif
