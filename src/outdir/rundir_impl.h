/* rundir_impl.h — what rundir.c, rundir_commit.c and rundir_leftovers.c
 * share.  Private to src/outdir/. */
#ifndef DUMPANALYZE_RUNDIR_IMPL_H
#define DUMPANALYZE_RUNDIR_IMPL_H

#include "outdir/journal.h"
#include "outdir/rundir.h"

/* What rundir_apply did. */
enum applied {
	APPLIED_FAILED = -1,        /* neither way: the record stays (after a message) */
	APPLIED_FORWARD = 0,        /* OUT holds the new run */
	APPLIED_BACK = 1,           /* OUT holds the previous run (after a message) */
	APPLIED_UNSETTLED = 2,      /* the new run, its clean-up left (after a message) */
};

/* Carry out the record j of the staging directory stage (a handle; named
 * stage_name in OUT): forward, else back, then remove the record and the
 * staging directory.  who: NULL for the run itself, else what to call the
 * run that wrote it in messages ("a run that was interrupted (PID 12)"). */
enum applied rundir_apply(const struct fs *fs, int out, const char *out_path, int stage,
                          const char *stage_name, const struct journal *j, const char *who);

/* Act on what killed runs left in OUT (the handle dir): finish or undo
 * their commits (every one when locked, else only those of processes
 * that are gone), remove staging directories of processes that are gone
 * (nothing else: no other name in OUT is provably a run's).  0, or -1
 * after a message when a commit could be neither finished nor undone. */
/* What rundir_clean_leftovers found and did; with report set it also
 * says so, one message per thing removed (--recover). */
struct rundir_cleanup {
	int report;
	int commits;                /* commits acted on (they always say so) */
	int stages;                 /* staging directories of killed runs removed */
	int kept;                   /* staging directories of live runs left */
};
int rundir_clean_leftovers(const struct fs *fs, int dir, const char *out, int locked,
                           struct rundir_cleanup *c);

/* When DIR/PATH is one of the run's inputs: a message saying the run
 * would `how` ("replace") it, and -1; else 0. */
int rundir_refuse_input(const struct rundir *r, int dir, const char *path, const char *how);

/* "DIR/NAME", allocated. */
char *rundir_join(const char *dir, const char *name);

#endif
