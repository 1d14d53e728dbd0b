/* answers.h — what the whole run adds up to, for the views that answer
 * questions about it (summary.txt, the HTML report): abort reasons and
 * sites, how traces end, the largest bushes, the hottest exits, likely
 * blacklisting, and the counts of every generation.  Fed from the view
 * hooks; bounded by the number of distinct sites and generations, not by
 * the size of the dump. */
#ifndef DUMPANALYZE_ANSWERS_H
#define DUMPANALYZE_ANSWERS_H

#include <stddef.h>
#include <stdint.h>
#include "model/model.h"
#include "util/tally.h"
#include "analysis/attempts.h"
#include "analysis/diagnose.h"

#define ANSWERS_TOP 50              /* bushes and exits kept */

/* file, line: where the bush's root, the exit's trace, the given-up
 * exit's parent trace starts (file NULL when unknown); resume_file,
 * resume_line: where the exit resumes (gen_resume, model.h). */
struct top_bush { uint32_t gen, root, dup, traces; uint64_t mcode; const char *file; int32_t line; };
struct top_exit {
	uint32_t gen, trace, exit, side;
	uint64_t count;
	const char *file;
	int32_t line;
	const char *resume_file;
	int32_t resume_line;
};
/* file:line: a root start's, an exit's or stitch's parent's start (the
 * attempts' own start is st's, when st.own_start) */
struct given_up { uint32_t gen; struct start st; const char *file; int32_t line; };
struct gen_row { uint32_t number; struct da_counts n; };

/* What a site's aborts say beyond their count: the normal reason, and
 * the last of them's failed attempt (its bytecode lines, its dump line). */
struct site_extra {
	const char *reason_normal, *error;
	const char *bytecode[PENDING_BC_KEEP];
	uint32_t nbytecode;
	uint64_t first_line, last_line;
	uint32_t last_gen;          /* the generation of last_line */
};

struct answers {
	struct tally reasons;       /* (reason) -> count */
	struct tally sites;         /* (reason, file, line) -> count */
	struct site_extra *site_extra;  /* by a site's tally entry's first */
	size_t site_extra_cap;
	struct intern bytecode;     /* copies of their bytecode lines */
	struct tally starts;        /* (file, NULL, line) -> traces and aborted
	                               attempts that started there */
	uint64_t links[DA_LINK_COUNT];
	struct top_bush bushes[ANSWERS_TOP];    /* largest first */
	struct top_exit hot[ANSWERS_TOP], cold[ANSWERS_TOP];  /* cold: no side trace */
	struct attempts attempts;   /* of the current generation */
	struct given_up *gave_up;
	size_t ngave_up, gave_up_cap;
	struct gen_row *gens;
	size_t ngens, gens_cap;
	struct da_counts total;
	uint64_t nexits_all, ncold_all; /* distinct exits (per generation) */
	uint64_t nmcode_gave_up;    /* gave_up rows whose last attempt ran out
	                               of machine code: a flush side effect */
	struct diagnose diag;
};

/* The state starts zeroed (view state is). */
void answers_trace(struct answers *a, const struct da_trace *t);
void answers_abort(struct answers *a, const struct da_abort *r);
void answers_gen_end(struct answers *a, const struct da_gen *g);
void answers_free(struct answers *a);


/* How traces end, in the order reports list them. */
struct link_end { enum da_link kind; const char *what; };
extern const struct link_end answers_link_ends[];
extern const size_t answers_nlink_ends;

#endif
