/* forkguard.c — threads' work and fork() kept apart; see forkguard.h.
 * Process-wide state outside main.c (as picture.c's kept buffers): fork is
 * process-wide. */
#define _DEFAULT_SOURCE         /* MAP_ANONYMOUS, MADV_DONTFORK */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "util/forkguard.h"
#include "util/alloc.h"

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

struct start {
	void *(*fn)(void *);
	void *arg;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int running;
};

static void *started(void *p)
{
	struct start *st = p;
	void *(*fn)(void *) = st->fn;
	void *arg = st->arg;
	pthread_mutex_lock(&st->lock);
	st->running = 1;
	pthread_cond_signal(&st->cond);
	pthread_mutex_unlock(&st->lock);      /* st is gone after this */
	return fn(arg);
}

int fork_guard_thread(pthread_t *t, void *(*fn)(void *), void *arg)
{
	struct start st = { fn, arg, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };
	int e = pthread_create(t, NULL, started, &st);
	if (e == 0) {
		pthread_mutex_lock(&st.lock);
		while (!st.running)
			pthread_cond_wait(&st.cond, &st.lock);
		pthread_mutex_unlock(&st.lock);
	}
	pthread_mutex_destroy(&st.lock);
	pthread_cond_destroy(&st.cond);
	return e;
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

/* Under AddressSanitizer (make check-asan, make fuzz) these buffers come
 * from the heap: ASan then checks every byte of them, where a mapping
 * hides an overrun that stays inside its last page, and a fuzz target
 * maps, faults in and unmaps no pages for each input (a fifth of its
 * time: bench/RESULTS.md).  Children then get copies, which they leave
 * alone as ever. */
void *fork_private_alloc(size_t size)
{
#ifdef FORK_PRIVATE_HEAP
	return xrealloc(NULL, size);
#else
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		out_of_memory();
#ifdef MADV_DONTFORK
	(void)madvise(p, size, MADV_DONTFORK);
#endif
	return p;
#endif
}

void fork_private_free(void *p, size_t size)
{
#ifdef FORK_PRIVATE_HEAP
	(void)size;
	free(p);
#else
	if (p)
		munmap(p, size);
#endif
}
