/* findings.h — the ranked list of what to fix first: one list, made once
 * at the end of a run from what the run collected, that every output
 * renders.  findings.c collects (fed from the library's tee, like the
 * answers) and builds the list; place.c finds extents and line texts in
 * the source; cost.c charges profile samples; identity.c gives each
 * finding its stable identity; advice.c writes the advice.  kinds.def is
 * the table of kinds (and the rules of the run-level ones). */
#ifndef DUMPANALYZE_FINDINGS_H
#define DUMPANALYZE_FINDINGS_H

#include <stddef.h>
#include <stdint.h>
#include "dumpanalyze.h"
#include "analysis/answers.h"
#include "luajit/explain.h"
#include "profile/profile.h"
#include "profile/sysprof.h"
#include "source/find.h"
#include "util/intern.h"
#include "util/tally.h"

#define FINDINGS_HOT_EXIT 10        /* times taken (LuaJIT's hotexit) */
#define FINDINGS_HOLES 8            /* if blocks an exit's extent skips arms of */

/* One row of kinds.def. */
struct finding_kind {
	enum da_finding_kind kind;
	const char *word;
	struct explain_rule rule;   /* id NULL: the error's rule applies */
	const char *title;
};
const struct finding_kind *findings_kinds(size_t *n);
const struct finding_kind *findings_kind(enum da_finding_kind k);
/* The catch-all rule of an abort message LuaJIT does not list. */
const struct explain_rule *findings_unknown_rule(void);
/* The rule of an abort reason as any build writes it (its bytecode's for
 * NYIBC when the reason names one, else its error's, else the catch-all):
 * what --compare weighs a new reason by. */
const struct explain_rule *findings_reason_rule(const char *reason);

/* A start: where attempts begin (a loop, function, exit or stitch),
 * summed over the run. */
enum start_kind { START_ROOT, START_SIDE, START_STITCH };

/* Attempts of one start that ended with one reason at one place. */
struct start_reason {
	const char *reason;         /* normal form, the model's intern */
	const char *error;          /* static, or NULL */
	const char *at_file;        /* where they aborted */
	int32_t at_line;
	uint64_t count;
	uint64_t last_line_no;      /* the last one's abort header */
	const char *bytecode;       /* its failed bytecode line (our copy) */
	uint64_t first_seen;        /* for stable ties */
};

struct fstart {
	enum start_kind kind;
	const char *file;           /* the model's intern */
	int32_t line;
	uint64_t attempts, traces;  /* aborted; compiled that start here */
	size_t *reasons;            /* indices into the reasons */
	size_t nreasons, reasons_cap;
	const char *last_reason;
	uint32_t blacklisted_gens;  /* generations likely blacklisted / given up in */
	uint32_t blacklisted_last;  /* the last of them */
	uint32_t stubs;             /* exits left to an interpreter stub */
	uint32_t gen_first, gen_last;
	uint32_t parent;            /* side and stitch: the last attempt's */
	int32_t exit;
	int32_t lo, hi;             /* the lines of its file, from its start
	                               down, its failed attempts recorded
	                               (aborts, luajit2's "(file:line)") */
};

/* The findings' working state, inside the dump handle. */
struct findings {
	struct intern copies;       /* bytecode lines we keep */
	struct tally start_ix;      /* (file, kind, line) -> index + 1 */
	struct fstart *starts;
	size_t nstarts, starts_cap;
	struct tally reason_ix;     /* (reason, at_file, start<<32|at_line) -> index + 1 */
	struct start_reason *reasons;
	size_t nreasons, reasons_cap;
	struct tally side_of;       /* this generation: (NULL, parent+1, exit) -> start + 1 */
	struct tally compiled;      /* (file, kind, line) -> traces compiled */
	size_t gave_up_seen;        /* answers' gave_up rows looked at */
	unsigned recorded;          /* NYI bytecodes the dump shows recorded
	                               (bit: index of explain_bc_rules) */
	uint64_t seq;
	/* the list, after findings_build */
	struct da_finding *list;
	size_t n;
	struct da_profile_totals totals;
	int has_totals;
	struct intern text;         /* the strings of the list */
	struct da_reason_count *reason_rows;    /* every finding's reasons */
	struct fextent *failed;     /* the failed extents, in the order the
	                               cost rule took them, .finding the rank - 1 */
	size_t nfailed;
	struct baseline *baseline;  /* da_use_baseline's, or NULL */
	const struct da_baseline_entry **stale;  /* its entries no finding had */
	size_t nstale;
};

/* collect.c */
void findings_init(struct findings *f);
void findings_trace(struct findings *f, const struct da_trace *t);
void findings_abort(struct findings *f, const struct da_abort *a);
/* After the answers took the generation (its likely blacklisting). */
void findings_gen_end(struct findings *f, const struct answers *a, const struct da_gen *g);

/* The extent of a finding that failed (its loop, function, exit or
 * stitch, not usually harmless: da_finding.failed), by the base name of
 * its file: what the cost rule charges and the callee columns name. */
struct fextent {
	const char *base;
	size_t len;
	int32_t first, last;
	uint32_t finding;           /* the list's index (a draft's, while made) */
	int part;                   /* a part of a function (a loop, an exit),
	                               not a whole function (or unknown) */
	uint32_t nholes;            /* lines of first .. last it cannot reach */
	int32_t holes[FINDINGS_HOLES][2];
};
/* cost.c: of the extents v, the innermost that holds the lines from .. to
 * of the file named (as a profile writes it, matched by base name), none
 * of them in its holes: the one that starts last (nested code starts
 * below what holds it), then the shortest, then the first in v; or NULL. */
const struct fextent *fextent_holder(const struct fextent *v, size_t n, const char *file,
                                     size_t len, int32_t from, int32_t to);

/* What building needs besides the collected state. */
struct text_files;
struct findings_input {
	const struct answers *answers;
	const struct profile *profile;      /* -jp, or NULL: it charges the cost */
	const struct sysprof *sysprof;      /* or NULL: it charges when alone */
	struct text_files *texts;           /* the Lua files, read at need */
	enum explain_flavour flavour;
};
/* findings.c */
void findings_build(struct findings *f, const struct findings_input *in);
void findings_free(struct findings *f);

/* ---- shared by the files of findings/ ---------------------------------- */

/* A finding while the list is made, before it is copied out. */
struct draft {
	struct da_finding pub;
	const struct fstart *start;         /* start kinds */
	const struct start_reason *main;    /* its main reason */
	const struct explain_rule *rule;
	int bc_rule_index;                  /* an NYI bytecode's rule: its index
	                                       in explain_bc_rules, else -1 */
	int failed;                         /* charges samples (cost.c) */
	int32_t ext_first;                  /* the extent: ext_first .. pub.end_line */
	uint32_t nholes;                    /* less the arms an exit cannot reach */
	int32_t holes[FINDINGS_HOLES][2];
	int32_t fn_first, fn_last;          /* a function's start: the function */
	uint32_t start_index, at_index;     /* among equal texts of the file */
	uint64_t units;                     /* for the score */
	size_t index;                       /* its index before the ranking */
	uint64_t try_value;                 /* {try} of a run-level advice */
	const char *scope;                  /* "loop", "function", or "loop or
	                                       function" (not known) */
	const char *scope_file;             /* that loop or function: a start's
	                                       own place; for an exit or stitch
	                                       the innermost around the line its
	                                       side traces failed at (place.c);
	                                       NULL: not known */
	int32_t scope_line;                 /* its first line */
	const char *start_scope;            /* a root start's own: "loop" or
	                                       "function" (its kind), or NULL */
	const char *scope_name;             /* a function's name in the source
	                                       ("encode_string", "M.dump"), or NULL */
	const char *ctx_word;               /* the start's loop or function when
	                                       the failing code is in a function it
	                                       calls (place.c), or NULL */
	int32_t ctx_line;                   /* its first line (scope_file's) */
	const char *ctx_name;               /* its name when a named function */
	int32_t call_line;                  /* a factory's: the line of that loop
	                                       or function that calls it, or
	                                       DA_NO_LINE */
	int factory;                        /* the closure is its function's
	                                       return value */
	const char *group;                  /* of the identity: "start", "exit", ... */
};

/* place.c: extents (and basis), and the normalised texts of the start's
 * and the failing line with their index among equal texts, from the
 * files (lines.h). */
void place_drafts(struct draft *d, size_t n, struct text_files *texts, struct intern *text);

/* identity.c: identity, id and order of every draft. */
void identity_drafts(struct draft *d, size_t n, struct intern *text);
/* Whitespace runs as one space, none at either end, into out (cap
 * bytes at least n + 1): the length. */
size_t identity_normalise(const char *s, size_t n, char *out);
/* FNV-1a 64 of the bytes, as 12 lower-case hex digits and a NUL. */
void identity_hash(const char *s, size_t n, char out[13]);

/* cost.c: the failed extents of the drafts (failed, with an extent and a
 * file), each naming its draft, into *out (malloc'd): how many. */
size_t cost_extents(const struct draft *d, size_t n, struct fextent **out);
/* The samples of the profile charged to the drafts of those extents, each
 * sample to one at most; the run's totals.  The -jp profile p when there
 * is one, else the sysprof profile sp (basis "function"); the Lua files
 * texts say which function holds a frame (a recursive call's). */
void cost_drafts(struct draft *d, size_t n, const struct fextent *v, size_t nv,
                 const struct profile *p, const struct sysprof *sp, struct text_files *texts,
                 struct da_profile_totals *totals);

/* advice.c: the advice of a draft, from its rule, the build and the
 * places, into the intern. */
const char *advice_of(const struct draft *d, enum explain_flavour fl, unsigned recorded,
                      struct intern *text);

#endif
