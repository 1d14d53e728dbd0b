/* runset_impl.h — a run set's analysis: its runs read, its profiles
 * charged, its files written (the set itself: compare/runset_set.h). */
#ifndef DUMPANALYZE_RUNSET_IMPL_H
#define DUMPANALYZE_RUNSET_IMPL_H

#include "compare/runset_set.h"

/* runset_read.c: the runs' own files (findings.csv, files.csv,
 * summary.txt) in TOP/run-K: 0, or -1 after a message. */
struct runfile_dir;
int rs_read_runs(struct rs_set *s, const struct runfile_dir *top);

/* runset_cost.c: each profile read and charged to the pooled extents:
 * 0, or -1 after a message (a profile that cannot be read). */
int rs_charge_profiles(struct rs_set *s);

/* runset_write.c: the set's files into out; 0 or -1. */
struct outdir;
int rs_write(const struct rs_set *s, struct outdir *out);

/* runset_summary.c: summary.txt; the warnings, each line after prefix. */
#include <stdio.h>
int rs_write_summary(const struct rs_set *s, struct outdir *out);
void rs_warnings(const struct rs_set *s, FILE *fp, const char *prefix);

#endif
