/* bgthread.c — a thread started at the first need, or none and the work
 * done synchronously; see bgthread.h. */
#include "util/bgthread.h"
#include "util/forkguard.h"

void bgthread_forgo(struct bgthread *t)
{
	t->tried = 1;
}

int bgthread_start(struct bgthread *t, void *(*fn)(void *), void *arg)
{
	if (!t->tried) {
		t->tried = 1;
		/* Before the thread runs, so that it sees itself running. */
		t->running = 1;
		if (fork_guard_thread(&t->thread, fn, arg) != 0)
			t->running = 0;
	}
	return t->running ? 0 : -1;
}

void bgthread_join(struct bgthread *t)
{
	if (!t->running)
		return;
	pthread_join(t->thread, NULL);
	t->running = 0;
}
