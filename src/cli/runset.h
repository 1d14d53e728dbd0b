/* runset.h — a run set: N dump runs and M profile runs of one workload
 * (--repeats, --run-set DIR), the list of its files and its analysis. */
#ifndef DUMPANALYZE_RUNSET_H
#define DUMPANALYZE_RUNSET_H
#include <stddef.h>

struct run;

/* The files of a run set, in run order (dump K is dumps[K-1]). */
struct runset_list {
	char **dumps;
	size_t ndumps;
	char **profiles;
	size_t nprofiles;
};

/* The run set recorded in DIR: DIR/runs/dump-K[.gz|.xz|.zst] and
 * DIR/runs/prof-K[...], K from 1 without a gap, one file per K; other
 * names in DIR/runs are left alone.  0, or -1 with the reason in err
 * (no runs directory, no dump, a gap, two files for one K). */
int runset_from_dir(const char *dir, struct runset_list *rs, char *err, size_t errlen);
void runset_list_free(struct runset_list *rs);

/* runset.c: analyse run->dumps (N repeats) and run->profiles (M profile
 * runs) as one run set into OUT: each dump into OUT/run-K, then the
 * findings over all of them at the top.  The exit code. */
int run_runset(struct run *run);

/* runset_sum.c: after the runs (run K analysed into TOP/names[K-1] with
 * exit status status[K-1]), the run set's files at the top of out:
 * 0, or -1 after a message; *rc raised when the set cannot be trusted. */
struct outdir;
int runset_aggregate(struct run *run, struct outdir *out, const char *top,
                     const char *top_shown, const char *const *names, const int *status,
                     int *rc);

#endif
