/* compare_impl.h — what --compare knows of one side (one dump's output
 * directory), shared by compare_read.c (reading it), compare_align.c
 * (matching its sites and bushes to the other side's) and compare.c (the
 * report and the --fail-on rules). */
#ifndef DUMPANALYZE_COMPARE_IMPL_H
#define DUMPANALYZE_COMPARE_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include "cli/csvin.h"
#include "output/manifest.h"

/* Something with a place in a source file: an abort site (group: its
 * normalised reason) or a bush (group: the kind of its root). */
struct placed {
	char *file;
	long line;                  /* 0: none */
	char *group;
	char *extra;                /* a site's SOURCE text, or NULL */
	uint64_t count;             /* aborts; a bush's traces */
};

struct placed_list {
	struct placed *v;
	size_t n, cap;
};

/* A row of abort-reasons.csv or abort-sites.csv before the reasons are
 * put in one form (which depends on both sides, see side_finish). */
struct raw_reason {
	char *file;                 /* NULL in abort-reasons.csv */
	long line;
	char *reason, *normal, *source;     /* normal, source: NULL when absent */
	uint64_t count;
};

struct raw_list {
	struct raw_reason *v;
	size_t n, cap;
};

struct profile_line { char *loc; double samples; };

/* What the views of one side say, summed over its generations (their
 * numbers are not stable across runs, so none is compared by number). */
struct side {
	const char *dir, *label;    /* label: "OLD" or "NEW" */
	struct manifest m;
	unsigned gens;
	int has_traces, has_reasons, has_sites, has_bushes, has_profile;
	int reasons_normal, sites_normal, sites_source;   /* columns present */
	uint64_t traces, aborts;
	struct raw_list raw_reasons, raw_sites;
	struct named_list reasons;  /* after side_finish */
	struct placed_list sites;   /* after side_finish, sorted */
	struct placed_list bushes;  /* sorted */
	double prof_samples, prof_interpreted;
	struct profile_line *prof;  /* by samples, descending */
	size_t nprof, prof_cap;
};

/* Read the side in dir (its manifest first).  0, 1 when dir has no
 * manifest, -1 after a message. */
int side_read(struct side *s, const char *dir, const char *label);
/* Put reasons and sites in the form both sides can give: NORMAL_REASON
 * when both files have it, else the reason normalised here; sites keyed
 * by their SOURCE text too when both have it. */
void side_finish(struct side *s, int reasons_normal, int sites_normal, int sites_source);
void side_free(struct side *s);

/* Sort by file, line, group, count. */
void placed_sort(struct placed_list *l);
/* Match a's items to b's (both sorted): to[i] is the index in b of a's
 * item i, or -1.  Only items of the same file and group match; see
 * compare_align.c for how lines that moved are followed. */
void placed_align(const struct placed_list *a, const struct placed_list *b, long *to);

#endif
