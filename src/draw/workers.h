/* workers.h — a few forked workers for work that can leave the main
 * pass: drawing the bush pictures while the parser reads on.  A child
 * gets the run's memory as it is (copy on write). */
#ifndef DUMPANALYZE_WORKERS_H
#define DUMPANALYZE_WORKERS_H

#include <stddef.h>
#include <sys/types.h>

struct workers {
	unsigned max;               /* at most this many at once; 0: no limit */
	pid_t *pids;
	size_t n, cap;
	int failed;                 /* a worker exited non-zero */
};

/* Start fn(arg) in a new worker, waiting first when max (> 0) are busy;
 * never runs it here.  0, WORKERS_NONE when no process could be forked,
 * or -1 when a finished worker had failed. */
int workers_start(struct workers *w, int (*fn)(void *arg), void *arg);
#define WORKERS_NONE (-2)
/* Wait for all; 0, or -1 when any failed. */
int workers_wait_all(struct workers *w);
void workers_free(struct workers *w);

#endif
