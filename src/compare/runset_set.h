/* runset_set.h — a run set in memory: runs, profiles and the findings
 * matched across runs by IDENTITY, with their presence and cost per run;
 * the statistics its rules use.  The run set's analysis (cli/runset_*.c)
 * fills it from the runs; --compare (compare_runset_read.c) from the
 * directory that analysis wrote. */
#ifndef DUMPANALYZE_RUNSET_SET_H
#define DUMPANALYZE_RUNSET_SET_H
#include <stddef.h>
#include <stdint.h>

/* Below this many samples a profile is too small to rank by (measured:
 * bench/RESULTS.md, "Run sets"). */
#define RUNSET_MIN_SAMPLES 500
/* A finding whose median share of NEW's profiles is below this (percent),
 * and whose highest share is below twice it, costs too little to fail a
 * gate as new. */
#define RUNSET_NEGLIGIBLE_SHARE 1.0
/* The two-sided p-value below which a difference is outside the noise. */
#define RUNSET_ALPHA 0.05

/* One place a run found the finding: the extent its samples are charged
 * to (the base name of FILE, LINE..END_LINE). */
struct rs_extent {
	char *base;
	int32_t first, last;
};

struct rs_finding {
	char *identity, *kind, *file, *reason, *severity, *rule, *id, *advice, *path, *at_file;
	int32_t line, end_line;     /* in the first run that has it */
	int32_t at_line;            /* the failing line (AT_FILE:AT_LINE) */
	int failed;                 /* severity not usually harmless: charged */
	uint64_t attempts;          /* over all dump runs */
	unsigned seen;              /* dump runs that have it */
	unsigned char *in_run;      /* [ndumps]: 1 when run K has it */
	uint64_t *samples;          /* [nprofiles]: charged by profile K */
	struct rs_extent *ext;
	size_t next;
	double share_med, share_low, share_high;    /* percent, -1 without */
	uint64_t samples_total;
	/* Several dumps (cli/merge_findings.c): the SAMPLES each run's own
	 * profile charged to it, summed; own_profiled when any had some. */
	double own_samples;
	int own_profiled;
};

struct rs_profile {
	char *path;
	int ok;                     /* read, and counts (not percentages) */
	int states;                 /* split by VM state */
	uint64_t total, interpreted, charged;
	int foreign;                /* names none of the dumps' files */
};

struct rs_dump {
	char *path, *dir;
	int status;                 /* the run's exit code */
	int cut_short;              /* its dump ends inside a trace */
	int foreign;                /* shares no source file with run 1 */
	uint64_t incomplete;
};

struct rs_set {
	struct rs_dump *dumps;
	size_t ndumps;
	struct rs_profile *profiles;
	size_t nprofiles;
	struct rs_finding *f;
	size_t nf, fcap;
	size_t *hash;               /* open addressing over f, index + 1 */
	size_t hcap;
	char **files;               /* source files the dump runs name (base) */
	size_t nfiles;
	/* Several dumps (cli/merge_findings.c), not a run set: a dump cut short
	 * counts too, and one may lack findings.csv (--views without it). */
	int several;
	size_t findings_read;       /* runs whose findings.csv was read */
};

/* compare_runset_read.c: a findings.csv row's description of a finding */
struct csvin;
void rs_finding_describe(struct rs_finding *f, const struct csvin *c);

/* runset_set.c */
char *rs_strdup(const char *s);
struct rs_finding *rs_find(struct rs_set *s, const char *identity, int add);
void rs_add_file(struct rs_set *s, const char *name);
int rs_has_file(const struct rs_set *s, const char *base, size_t n);
void rs_free(struct rs_set *s);
/* The findings' order: pooled samples, then pooled attempts, then the
 * runs that saw it, then identity. */
void rs_rank(struct rs_set *s);
/* Median, lowest and highest of n values (sorted in place). */
void rs_median(double *v, size_t n, double *med, double *low, double *high);
/* Whether a finding seen in k of n runs is stable: in most of them. */
static inline int rs_stable(unsigned k, size_t n) { return 2 * (size_t)k > n; }

/* The runs and profiles that count (not failed, cut short, of another
 * program, or percentages), and their words for runs.csv's STATUS. */
size_t rs_usable_runs(const struct rs_set *s);
size_t rs_usable_profiles(const struct rs_set *s);
const char *rs_dump_status(const struct rs_dump *d);
const char *rs_profile_status(const struct rs_profile *p);

/* Mann-Whitney U: the two-sided p-value of a and b (normal
 * approximation with ties corrected; 1 when either is empty). */
double rs_mann_whitney(const double *a, size_t na, const double *b, size_t nb);

#endif
