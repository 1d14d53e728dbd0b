/* rundir.h — the output directory a run owns.  A run writes into a
 * staging directory inside OUT (OUT/.dumpanalyze-run.PID); at its end
 * the files move into OUT, the files the previous run's manifest lists
 * and this run did not write are removed (never anything else), and the
 * manifest is written last.  An interrupted run removes its staging
 * directory and leaves OUT as it was; one that was killed leaves a
 * staging directory that the next run removes. */
#ifndef DUMPANALYZE_RUNDIR_H
#define DUMPANALYZE_RUNDIR_H

#include "output/manifest.h"

#define RUNDIR_STAGE_PREFIX ".dumpanalyze-run."

struct rundir {
	char *out;                  /* OUT, as given */
	char *stage;                /* where the run writes */
};

/* Create OUT (and its parents), remove what killed runs left there, and
 * name the staging directory (created by the outdir opened on it).
 * 0, or -1 after a message. */
int rundir_open(struct rundir *r, const char *out);
/* Move the staged files into OUT, remove the previous run's files that
 * were not written again, warn about files no run of ours wrote, write
 * m (its files and dirs filled in here, plus those already in it) as the
 * manifest, remove the staging directory.  0, or -1 after a message. */
int rundir_commit(struct rundir *r, struct manifest *m);
/* Remove the staging directory and everything in it. */
void rundir_discard(struct rundir *r);
void rundir_free(struct rundir *r);

/* Remove DIR's files that its manifest lists, the manifest, and DIR if
 * it is then empty (a subdirectory the new run did not write). */
void rundir_remove_run(const char *dir);

#endif
