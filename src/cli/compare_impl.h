/* compare_impl.h — what --compare knows of one side (one dump's output
 * directory), shared by compare_read.c (reading it), compare_align.c
 * (matching its sites and bushes to the other side's), compare_views.c
 * (the report's parts) and compare.c (the two directories, the --fail-on
 * rules). */
#ifndef DUMPANALYZE_COMPARE_IMPL_H
#define DUMPANALYZE_COMPARE_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>
#include "cli/csvin.h"
#include "cli/runfile.h"
#include "output/manifest.h"
#include "util/diag.h"

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
	struct runfile_dir d;
	const char *dir, *label;    /* dir: d's path for messages; label: "OLD" or "NEW" */
	struct manifest m;
	unsigned gens;
	int has_traces, has_reasons, has_sites, has_bushes, has_profile;
	int reasons_normal, sites_normal, sites_source;   /* columns every file has */
	unsigned reason_files, site_files;
	/* the COUNT columns' sums over the side, kept below 2^63 as read, so
	 * that no sum of some of them can wrap */
	uint64_t reason_total, site_total;
	uint64_t traces, aborts;
	struct raw_list raw_reasons, raw_sites;
	struct named_list reasons;  /* after side_finish */
	struct placed_list sites;   /* after side_finish, sorted */
	struct placed_list bushes;  /* sorted */
	double prof_samples, prof_interpreted;
	int prof_no_states;         /* INTERPRETED empty: a profile without VM states */
	double prof_state[5];       /* INTERPRETED, COMPILED, C, GC, JIT summed */
	struct profile_line *prof;  /* by samples, descending */
	size_t nprof, prof_cap;
};

/* Read the side in path (parent NULL), or in the subdirectory path of
 * parent (a dump of several), its manifest first; all of it checked
 * (compare_read.c).  0, 1 when the directory has no manifest, -1 after a
 * message. */
int side_read(struct side *s, const struct runfile_dir *parent, const char *path,
              const char *label);
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

/* ---- the report (compare_views.c) ---- */

/* The text goes to out, unless --json: then only the JSON object does. */
struct rep {
	FILE *out;                  /* NULL with --json */
	json_t *fail;               /* the rules crossed, as said */
	int tripped, cannot;        /* a rule crossed; a rule not evaluable */
	char **scratch;             /* cmp_text's, freed by the next cmp_say */
	size_t nscratch, scratch_cap;
};

/* Text to out (nothing with --json).  Every name read from a run's files
 * goes through cmp_text: the report is printed to terminals and CI logs. */
void cmp_say(struct rep *r, const char *fmt, ...) DA_PRINTF(2, 3);
/* s (its first n bytes) escaped for the text (termtext.h), valid until
 * the next cmp_say. */
const char *cmp_text(struct rep *r, const char *s);
const char *cmp_textn(struct rep *r, const char *s, size_t n);
/* Free what cmp_text made since the last cmp_say. */
void cmp_done(struct rep *r);
/* A JSON string, or null. */
json_t *cmp_str(const char *s);
json_t *cmp_old_new(uint64_t a, uint64_t b);
/* "  WHAT   A -> B  (+D, +P%)" */
void cmp_delta_line(struct rep *r, const char *what, uint64_t a, uint64_t b);
/* Each part adds its key(s) to the dump's object d; reasons and sites
 * return the number of new ones. */
size_t cmp_reasons(struct rep *r, json_t *d, struct side *a, struct side *b);
size_t cmp_sites(struct rep *r, json_t *d, struct side *a, struct side *b);
void cmp_bushes(struct rep *r, json_t *d, struct side *a, struct side *b);
void cmp_profiles(struct rep *r, json_t *d, struct side *a, struct side *b);

#endif
