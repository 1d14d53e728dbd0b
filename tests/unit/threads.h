/* threads.h — how many threads this process has now, and whether one of
 * them is blocked in poll (both from /proc), for the unit tests of the
 * code that starts threads and waits on pipes.  Include after <cmocka.h>. */
#ifndef DUMPANALYZE_TEST_THREADS_H
#define DUMPANALYZE_TEST_THREADS_H

#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <sys/syscall.h>

static inline int threads_now(void)
{
	DIR *d = opendir("/proc/self/task");
	assert_non_null(d);
	int n = 0;
	for (struct dirent *e; (e = readdir(d)) != NULL;)
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* Whether a thread of this process is blocked in poll(2) or ppoll(2) now: /proc/self/task/TID/syscall starts with the
 * number of the system call a blocked thread is in. */
static inline int a_thread_is_in_poll(void)
{
	DIR *d = opendir("/proc/self/task");
	assert_non_null(d);
	int found = 0;
	for (struct dirent *e; !found && (e = readdir(d)) != NULL;) {
		if (e->d_name[0] == '.')
			continue;
		char path[300];
		snprintf(path, sizeof(path), "/proc/self/task/%s/syscall", e->d_name);
		FILE *f = fopen(path, "r");
		long nr = -1;
		if (f != NULL) {
			if (fscanf(f, "%ld", &nr) != 1)
				nr = -1;
			fclose(f);
		}
		found = nr == SYS_poll || nr == SYS_ppoll;
	}
	closedir(d);
	return found;
}

/* Waits (yielding) until a_thread_is_in_poll(): the state a test of "stops
 * even while the writer is quiet" must reach before it acts. */
static inline void wait_for_a_thread_in_poll(void)
{
	while (!a_thread_is_in_poll())
		sched_yield();
}

#endif
