/* compare_runset.h — `--compare` of run sets (runset.c's directories, or a
 * plain one-run directory as a set of one): read each side
 * (compare_runset_read.c), diff them into one result (compare_runset_diff.c),
 * render it (compare_runset_render.c).  The rules are README's "Run sets"
 * and the man page's RUN SETS. */
#ifndef DUMPANALYZE_COMPARE_RUNSET_H
#define DUMPANALYZE_COMPARE_RUNSET_H
#include <stdio.h>
#include "compare/runset_set.h"


/* The --fail-on rules a run-set comparison knows. */
/* recommended leaves costlier out: which finding a sample is charged to
 * moves with which findings a set holds as stable, and costlier raised 11
 * false alarms in 21 unchanged pairs (bench/RESULTS.md, "Run sets"). */
enum { CRS_NEW_SITES = 1, CRS_NEW_REASONS = 2, CRS_COSTLIER = 4, CRS_INTERPRETED = 8,
       CRS_RECOMMENDED = CRS_NEW_SITES | CRS_NEW_REASONS | CRS_INTERPRETED };
/* A finding costs more only past this many points of the profiles'
 * samples, and the interpreted share grew only past this many. */
#define CRS_COST_POINTS 2.0
#define CRS_INTERPRETED_POINTS 5.0

/* What happened to one finding. */
enum crs_what { CRS_NEW, CRS_GONE, CRS_MOVED, CRS_BOTH };
enum crs_verdict {
	CRS_FAILS,                  /* crosses a rule */
	CRS_NOT_NEW,                /* NEW-only but in too few of NEW's runs */
	CRS_KNOWN_PLACE,            /* NEW-only, but BASE's findings fail at its
	                               line for its reason: another start of
	                               a problem BASE has */
	CRS_NEGLIGIBLE,             /* new, but the profiles charge it too little */
	CRS_HARMLESS,               /* usually harmless: no rule counts it */
	CRS_OUTWEIGHED,             /* would fail, but the interpreted share
	                               fell beyond the noise */
	CRS_SAME,                   /* in both; cost within the noise (~) */
	CRS_INFO,                   /* gone, moved, cheaper */
	CRS_GREW                    /* costlier beyond the noise, a rule not asked */
};

struct crs_item {
	enum crs_what what;
	enum crs_verdict verdict;
	const struct rs_finding *a, *b;     /* BASE's and NEW's, either NULL */
	double p, delta;            /* cost: the test's p-value and NEW - BASE
	                               (points), p < 0 without profiles */
	/* a new finding's: NEW's findings failing where it does (the same
	 * reason at the same line), and their cost together (median share
	 * over NEW's profiles, -1 without), which decides negligible */
	unsigned place_findings;
	double place_share;
};

struct crs_reason {
	const char *reason;
	enum crs_verdict verdict;
	double share;               /* NEW's findings of it: summed median shares */
	unsigned runs;              /* NEW's runs that have it */
};

struct crs_share {              /* the interpreted share, per side */
	double med, low, high;
	uint64_t samples, total;
	size_t n;
};

struct crs_diff {
	const struct rs_set *a, *b;
	int a_plain, b_plain;
	int rules;                  /* CRS_* asked for */
	struct crs_item *items;
	size_t nitems;
	struct crs_reason *reasons;
	size_t nreasons;
	struct crs_share ia, ib;
	double interp_p, interp_delta;
	int interp_fails;
	const struct crs_item *grew_most;   /* of the findings in both */
	int improved;               /* the interpreted share fell beyond the
	                               noise: new and costlier do not fail */
	int fails;                  /* the CRS_* rules crossed */
};

/* compare_runset_read.c: whether dir is a run set's directory (has
 * runs.csv); one side read: 0, or -1 after a message. */
int crs_is_runset(const char *dir);
int crs_read_side(struct rs_set *s, const char *dir, int *plain);

/* compare_runset_diff.c */
int crs_rules_parse(const char *s, int *rules);
void crs_diff(struct crs_diff *d, const struct rs_set *a, const struct rs_set *b, int rules);
void crs_diff_free(struct crs_diff *d);

/* compare_runset_render.c: the report as text. */
void crs_render_text(const struct crs_diff *d, const char *old_dir, const char *new_dir,
                     FILE *out);
/* The warnings of a comparison (one run, too few samples), each line
 * after prefix. */
void crs_warnings(const struct crs_diff *d, FILE *fp, const char *prefix);

/* compare_runset.c: --compare when either side is a run set, with the
 * rules fail_on (NULL: none); refused names an option given that run sets
 * do not take (NULL: none): 0, 1 (a rule crossed), 2 (after a message),
 * or -1 (a bad rule list or a refused option, after a message). */
int compare_runsets(const char *old_dir, const char *new_dir, const char *fail_on,
                    const char *refused, FILE *out);

#endif
