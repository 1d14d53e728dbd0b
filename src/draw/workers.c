/* workers.c — forked workers; see workers.h. */
#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "draw/workers.h"
#include "output/message.h"
#include "util/arena.h"
#include "util/diag.h"
#include "util/forkguard.h"

struct job {
	int (*fn)(void *);
	void *arg;
	int r;
};

static void run_job(void *arg)
{
	struct job *j = arg;
	j->r = j->fn(j->arg);
}

static int reap_one(struct workers *w)
{
	int st;
	pid_t pid;
	do
		pid = wait(&st);
	while (pid < 0 && errno == EINTR);
	if (pid < 0)
		return -1;
	for (size_t i = 0; i < w->n; i++)
		if (w->pids[i] == pid) {
			w->pids[i] = w->pids[--w->n];
			break;
		}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		w->failed = 1;
	return 0;
}

int workers_start(struct workers *w, int (*fn)(void *), void *arg)
{
	while (w->max && w->n >= w->max)
		if (reap_one(w) < 0)
			break;
	ALLOC_GROW(w->pids, w->n + 1, w->cap);
	fflush(NULL);       /* nothing buffered twice */
	pid_t parent = getpid();
	pid_t pid = fork_guarded();
	if (pid < 0)
		return WORKERS_NONE;
	if (pid == 0) {
		/* A run killed outright takes its workers along: none draws on
		 * into a staging directory nobody will commit. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
#ifdef M_MMAP_THRESHOLD
		/* A worker draws hundreds of pictures, and cairo's and zlib's
		 * allocations of a few hundred KiB each would be new mappings,
		 * new pages, every time; kept in the heap they are reused. */
		mallopt(M_MMAP_THRESHOLD, 32 << 20);
		mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
		/* A worker dies at once of the signals the run catches: the
		 * parent removes what it leaves when it cleans up. */
		for (int sig = 1; sig < 32; sig++) {
			struct sigaction sa;
			if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler != SIG_DFL &&
			    sa.sa_handler != SIG_IGN)
				signal(sig, SIG_DFL);
		}
		/* A catch of its own: the one it inherits is in the parent's
		 * stack, whose cleanup is not the worker's to run. */
		struct job j = { fn, arg, 0 };
		if (oom_call(run_job, &j) < 0) {
			msg_error("drawing the pictures: out of memory");
			j.r = -1;
		}
		_exit(j.r < 0 ? 1 : 0);         /* _exit: no stdio of the parent flushed */
	}
	w->pids[w->n++] = pid;
	return w->failed ? -1 : 0;
}

int workers_wait_all(struct workers *w)
{
	while (w->n > 0)
		if (reap_one(w) < 0)
			break;
	return w->failed ? -1 : 0;
}

void workers_free(struct workers *w)
{
	workers_wait_all(w);
	free(w->pids);
	memset(w, 0, sizeof(*w));
}
