/* record_spawn.c — one run of record's workload: started in a process
 * group of its own (so that a wrapper and every LuaJIT it starts stop
 * together), standard input /dev/null, standard output and error into
 * files, and waited for without a race against the signals a run
 * catches: they are blocked from before the start, and looked at between
 * pselect()s, which also wake at the run's time limit. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cli/record.h"
#include "cli/signals.h"

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
#define NSTOP (sizeof(stop_signals) / sizeof(stop_signals[0]))

/* pselect() returns early only for a signal that has a handler. */
static void on_child(int sig)
{
	(void)sig;
}

/* Whether NAME can be run, as posix_spawnp would look for it (PATH, or
 * the name itself when it has a '/'): 0, or the errno of the search.
 * Asked first because where posix_spawnp forks rather than vforks (under
 * valgrind, say) a failed exec shows only as the child's status 127. */
static int command_runs(const char *name)
{
	if (strchr(name, '/'))
		return access(name, X_OK) == 0 ? 0 : errno;
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/bin:/usr/bin";
	int e = ENOENT;
	for (const char *p = path;; p++) {
		const char *end = strchr(p, ':');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char full[4096];
		if (snprintf(full, sizeof(full), "%.*s%s%s", (int)n, p, n ? "/" : "", name) <
		    (int)sizeof(full)) {
			if (access(full, X_OK) == 0)
				return 0;
			if (errno == EACCES)
				e = EACCES;
		}
		if (!end)
			return e;
		p = end;
	}
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The group got the caught signal; SIGKILL if it is still there after
 * the grace time.  Reaps the child. */
static void stop_group(pid_t pid, int sig, int *wstatus)
{
	kill(-pid, sig);
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	double until = now_seconds() + RECORD_STOP_GRACE;
	for (;;) {
		if (waitpid(pid, wstatus, WNOHANG) == pid)
			return;
		double left = until - now_seconds();
		if (left <= 0)
			break;
		struct timespec ts = { (time_t)left, (long)((left - (double)(time_t)left) * 1e9) };
		sigtimedwait(&chld, NULL, &ts);
	}
	kill(-pid, SIGKILL);
	while (waitpid(pid, wstatus, 0) < 0 && errno == EINTR)
		;
}

static int file_actions(posix_spawn_file_actions_t *fa, const struct record_child *c)
{
	if (posix_spawn_file_actions_init(fa) != 0)
		return -1;
	int mode = O_WRONLY | O_CREAT | O_TRUNC;
	if (posix_spawn_file_actions_addopen(fa, 0, "/dev/null", O_RDONLY, 0) != 0 ||
	    posix_spawn_file_actions_addopen(fa, 1, c->stdout_path, mode, 0644) != 0 ||
	    posix_spawn_file_actions_addopen(fa, 2, c->stderr_path, mode, 0644) != 0) {
		posix_spawn_file_actions_destroy(fa);
		return -1;
	}
	return 0;
}

int record_spawn(const struct record_child *c, int *wstatus, double *seconds, char *err,
                 size_t len)
{
	struct sigaction sa = { 0 }, old_chld;
	sa.sa_handler = on_child;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, &old_chld);
	sigset_t block, old, during;
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	for (size_t i = 0; i < NSTOP; i++)
		sigaddset(&block, stop_signals[i]);
	sigprocmask(SIG_BLOCK, &block, &old);
	during = old;
	sigdelset(&during, SIGCHLD);
	for (size_t i = 0; i < NSTOP; i++)
		sigdelset(&during, stop_signals[i]);

	/* The child: the default action for what we catch, nothing blocked. */
	posix_spawnattr_t attr;
	posix_spawn_file_actions_t fa;
	int ret = -1;
	pid_t pid = -1;
	sigset_t none, deflt;
	sigemptyset(&none);
	sigemptyset(&deflt);
	for (size_t i = 0; i < NSTOP; i++)
		sigaddset(&deflt, stop_signals[i]);
	if (file_actions(&fa, c) < 0) {
		snprintf(err, len, "cannot set up the run: %s", strerror(errno));
		goto out;
	}
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
	                                POSIX_SPAWN_SETSIGDEF);
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &deflt);
	double start = now_seconds();
	int e = signals_caught() ? EINTR : command_runs(c->argv[0]);
	if (e == 0)
		e = posix_spawnp(&pid, c->argv[0], &fa, &attr, c->argv, c->envp);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	if (e == EINTR) {
		ret = RECORD_INTERRUPTED;
		goto out;
	}
	if (e != 0) {
		snprintf(err, len, "cannot run '%s': %s", c->argv[0], strerror(e));
		goto out;
	}
	for (;;) {
		pid_t w = waitpid(pid, wstatus, WNOHANG);
		if (w == pid) {
			ret = 0;
			break;
		}
		int sig = signals_caught();
		if (sig) {
			stop_group(pid, sig, wstatus);
			ret = RECORD_INTERRUPTED;
			break;
		}
		double left = c->timeout > 0 ? start + c->timeout - now_seconds() : 0;
		if (c->timeout > 0 && left <= 0) {
			stop_group(pid, SIGTERM, wstatus);
			ret = RECORD_TIMED_OUT;
			break;
		}
		struct timespec ts = { (time_t)left, (long)((left - (double)(time_t)left) * 1e9) };
		pselect(0, NULL, NULL, NULL, c->timeout > 0 ? &ts : NULL, &during);
	}
	*seconds = now_seconds() - start;
out:
	sigprocmask(SIG_SETMASK, &old, NULL);
	sigaction(SIGCHLD, &old_chld, NULL);
	return ret;
}
