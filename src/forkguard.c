/* forkguard.c — threads' work and fork() kept apart; see forkguard.h.
 * The one process-wide state outside main.c: fork is process-wide. */
#include <pthread.h>
#include <unistd.h>
#include "dumpanalyze/forkguard.h"

static pthread_mutex_t guard = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int inside, forking;

void fork_guard_enter(void)
{
	pthread_mutex_lock(&guard);
	while (forking)
		pthread_cond_wait(&changed, &guard);
	inside++;
	pthread_mutex_unlock(&guard);
}

void fork_guard_leave(void)
{
	pthread_mutex_lock(&guard);
	if (--inside == 0 && forking)
		pthread_cond_broadcast(&changed);
	pthread_mutex_unlock(&guard);
}

pid_t fork_guarded(void)
{
	pthread_mutex_lock(&guard);
	while (forking)
		pthread_cond_wait(&changed, &guard);
	forking = 1;
	while (inside)
		pthread_cond_wait(&changed, &guard);
	pthread_mutex_unlock(&guard);
	pid_t pid = fork();
	if (pid == 0) {
		/* Another thread may have been taking the mutex in the
		 * instant of the fork: the child's copy starts afresh. */
		guard = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
		changed = (pthread_cond_t)PTHREAD_COND_INITIALIZER;
		inside = forking = 0;
		return 0;
	}
	pthread_mutex_lock(&guard);
	forking = 0;
	pthread_cond_broadcast(&changed);
	pthread_mutex_unlock(&guard);
	return pid;
}
