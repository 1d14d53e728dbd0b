/* bgthread.h — a thread of one's own, started at the first need; when none
 * can be had, the caller does the work itself, synchronously.
 * The thread is started with fork_guard_thread() (see forkguard.h): it runs
 * before bgthread_start() returns, and it ends only when joined with
 * bgthread_join(), by the thread that forks, once told to end by its
 * owner.  The input's reading thread and the output directory's writing
 * thread are such threads. */
#ifndef DUMPANALYZE_BGTHREAD_H
#define DUMPANALYZE_BGTHREAD_H

#include <pthread.h>

struct bgthread {
	pthread_t thread;
	int tried;                  /* started or forgone: no second start */
	/* 1 while the thread runs: work goes to it; 0: the caller does the
	 * work.  Written only before the thread starts and after it is
	 * joined, so the thread itself may read it too. */
	int running;
};

/* No thread, ever: every piece of work is the caller's (tests; a caller
 * that wants none).  Before the first bgthread_start(). */
void bgthread_forgo(struct bgthread *t);
/* The first call starts fn(arg) on the thread, later ones do nothing.
 * 0 while a thread runs, or -1: none (could not be started, forgone or
 * joined), the caller works synchronously. */
int bgthread_start(struct bgthread *t, void *(*fn)(void *), void *arg);
/* Wait for a running thread to end (its owner has told it to), if one
 * runs. */
void bgthread_join(struct bgthread *t);

#endif
