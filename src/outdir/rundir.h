/* rundir.h — the output directory a run owns, and its atomic commit.
 *
 * A run locks OUT (lock.h) from start to end, finishes or undoes the
 * commit of a run that was killed (commit.h), writes into a staging
 * directory inside OUT (OUT/.dumpanalyze-run.PID), and at its end commits:
 * every staged file made durable, an intent record written (journal.h),
 * then the moves, the manifest last.  Whatever instant the run is killed
 * or the disk fills, OUT holds the whole previous run or the whole new one
 * once the record has been acted on (by this run, the next, or
 * --recover), and its manifest lists exactly the files there.  Files the
 * previous manifest does not list are never removed; they are named in a
 * warning.
 *
 * Several dumps: each dump's process writes into STAGE/NAME (a nested
 * rundir: no lock, no commit of its own, only its manifest), and the top
 * run commits them all at once, with one record. */
#ifndef DUMPANALYZE_RUNDIR_H
#define DUMPANALYZE_RUNDIR_H

#include <stddef.h>
#include <stdint.h>
#include "outdir/lock.h"
#include "outdir/manifest.h"

#define RUNDIR_STAGE_PREFIX ".dumpanalyze-run."
#define RUNDIR_INTERRUPTED (-2)         /* a signal came while waiting */
/* OUT/runs: the run set `dumpanalyze record` keeps (the inputs of a run
 * set's analysis, not its output): never in a manifest, never set aside,
 * not named as another's file beside a run set's runs.csv. */
#define RUNDIR_RUN_SET "runs"

/* A file the run reads, which it must never write over. */
struct rundir_input {
	const char *what;           /* "dump", "profile" */
	const char *path;
	uint64_t dev, ino;
};

struct rundir_options {
	const struct fs *fs;
	int wait;                   /* for the lock */
	int quiet;
	const struct rundir_input *inputs;
	size_t ninputs;
};

struct rundir {
	const struct fs *fs;
	char *out;                  /* OUT, as given (nested: OUT/NAME), for
	                               messages */
	char *stage;                /* the staging directory's path, for outdir_open */
	char *stage_name;           /* its name in OUT; NULL when nested */
	int out_fd, stage_fd;       /* handles, -1 when not open */
	struct outlock lock;
	const struct rundir_input *inputs;
	size_t ninputs;
};

/* Create OUT (and its parents), lock it, act on what killed runs left
 * there, refuse when an input is a file of the previous run, and make the
 * staging directory.  0; -1 after a message; RUNDIR_INTERRUPTED. */
int rundir_open(struct rundir *r, const struct rundir_options *o, const char *out);
/* One dump of several: its files go to dir, inside the top run's staging
 * directory, and its commit only writes its manifest there; messages name
 * it as shown, where the top run's commit moves it (OUT/NAME). */
void rundir_open_nested(struct rundir *r, const struct fs *fs, const char *dir, const char *shown);

struct rundir_result {
	char **dropped;             /* views the previous run rendered, this one not */
	size_t ndropped;
	char **kept;                /* the views this run rendered (sorted) */
	size_t nkept;
};

/* Commit: m's files (and, with several dumps, its dirs: those whose
 * manifest is staged) are the staged ones; m becomes OUT's manifest.
 * Names the files of others in one warning.  0; -1 after a message (OUT
 * holds the previous run, or for -1 with *committed set, the new one with
 * its clean-up left to --recover). */
int rundir_commit(struct rundir *r, struct manifest *m, struct rundir_result *res,
                  int *committed);
void rundir_result_free(struct rundir_result *res);
/* Remove the staging directory and everything in it. */
void rundir_discard(struct rundir *r);
/* Let go of OUT (the lock) and free r. */
void rundir_close(struct rundir *r);

/* --recover OUT: lock it and act on what killed runs left: 0 (after a
 * line saying what was done), -1 after a message, RUNDIR_INTERRUPTED. */
int rundir_recover(const struct rundir_options *o, const char *out);
/* Whether OUT holds the record of a commit that was interrupted. */
int rundir_pending(const char *out);

#endif
