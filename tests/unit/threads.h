/* threads.h — how many threads this process has now (from /proc), for
 * the unit tests of the code that starts them.  Include after <cmocka.h>. */
#ifndef DUMPANALYZE_TEST_THREADS_H
#define DUMPANALYZE_TEST_THREADS_H

#include <dirent.h>

static int threads_now(void)
{
	DIR *d = opendir("/proc/self/task");
	assert_non_null(d);
	int n = 0;
	for (struct dirent *e; (e = readdir(d)) != NULL;)
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

#endif
