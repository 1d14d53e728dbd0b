/* lock.h — one run at a time per output directory: OUT/.dumpanalyze.lock,
 * a file holding the run's PID, host and start time, with a kernel lock
 * on it (fs.h's lock: an open file description lock).  The kernel lock is
 * what excludes: it dies with its holder, so a lock left by a killed run
 * never blocks; the file's text only names the holder in messages. */
#ifndef DUMPANALYZE_LOCK_H
#define DUMPANALYZE_LOCK_H

#include "outdir/fs.h"

#define LOCK_NAME ".dumpanalyze.lock"

struct outlock {
	const struct fs *fs;
	int dir;                    /* OUT's handle */
	int fd;                     /* the lock file, -1 if none */
	int found;                  /* the file was there, held by nobody: a
	                               killed run's (after outlock_take) */
	long found_pid;             /* ... and the PID it names, or 0 */
};

/* Lock the directory dir (OUT, named out in messages).  wait: block until
 * the holder is done (saying so once on stderr unless quiet); otherwise
 * a lock held by another run fails at once.  0 locked; 1 not locked
 * because the file system has no locks (after a warning); -EAGAIN held
 * by another run (after a message naming its PID); -EINTR a signal came
 * while waiting; another negative errno after a message. */
int outlock_take(struct outlock *l, const struct fs *fs, int dir, const char *out, int wait,
                 int quiet);
/* Remove the lock file and let go. */
void outlock_release(struct outlock *l);

#endif
