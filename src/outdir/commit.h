/* commit.h — carrying out a commit's intent record (journal.h): the run
 * that wrote it, or whoever finds it after that run was killed, moves the
 * files into OUT; or, when that cannot be done (a full disk, a file gone),
 * puts OUT back as it was.
 *
 * Every step is a rename (or a mkdir, rmdir or unlink) whose having been
 * done is seen in the directories themselves, so each is skipped when it
 * was done already and any attempt may be killed and started again, in
 * either direction:
 *
 *   1. each file of OUT the new run replaces or removes is set aside as
 *      STAGE/.old/P (a file of OUT it does not name stays where it is);
 *   2. the new subdirectories are made;
 *   3. each new file is moved from STAGE/P to OUT/P;
 *   4. STAGE/manifest.json is moved to OUT/manifest.json: the commit
 *      point.  Before it the previous run's manifest is OUT's; after it
 *      the new one's, and only going forward is left;
 *   5. OUT is made durable, the previous run's directories that the new
 *      one has not are removed (if empty), then the record, then STAGE.
 *
 * Going back (before 4 only): 3, 2 and 1 undone, last first. */
#ifndef DUMPANALYZE_COMMIT_H
#define DUMPANALYZE_COMMIT_H

#include "outdir/fs.h"
#include "outdir/journal.h"

struct commit {
	const struct fs *fs;
	int out, stage;             /* handles of OUT and of the staging directory */
	const struct journal *j;
	const char **moves_sorted;  /* j->moves by name, for lookups (made here) */
	char what[512];             /* the step that failed, for a message */
};

/* Steps 1-4: 0 once OUT holds the new run, or a negative errno (what
 * says where) with OUT not committed. */
int commit_forward(struct commit *c);
/* Undo 3, 2, 1: 0 once OUT holds the previous run again (the record and
 * STAGE are then the caller's to remove), or a negative errno. */
int commit_back(struct commit *c);
/* Step 5 up to the record: 0, or a negative errno (the commit stands; the
 * record stays for a later attempt). */
int commit_settle(struct commit *c);
/* Whether step 4 was done: 1, 0, or -EBADMSG when OUT's manifest is
 * neither the new one nor next to a staged one. */
int commit_done(struct commit *c);
/* Whether the staged manifest is the one the record names: 1 or 0. */
int commit_staged_ok(struct commit *c);
void commit_free(struct commit *c);

#endif
