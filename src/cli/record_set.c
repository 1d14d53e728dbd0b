/* record_set.c — the run set's place in OUT: staged in
 * OUT/.dumpanalyze-record.PID/runs while the analysis is committed, then
 * exchanged with OUT/runs in one rename (the old set then removed), so
 * that OUT/runs is always one whole run set.  A stage whose process is
 * dead (killed) is removed by the next record into OUT. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/record.h"
#include "cli/signals.h"
#include "output/message.h"
#include "util/alloc.h"

#define STAGE_PREFIX ".dumpanalyze-record."
#define RECORD_LOCK_NAME ".dumpanalyze-record.lock"

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void record_remove_tree(const char *path)
{
	nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static char *join(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *s = xrealloc(NULL, n);
	snprintf(s, n, "%s/%s", a, b);
	return s;
}

/* mkdir -p */
static int make_dirs(const char *path)
{
	char *p = join(path, "");
	int ret = 0;
	for (char *s = p + 1; *s && ret == 0; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST)
			ret = -1;
		*s = '/';
	}
	free(p);
	return ret;
}

static void remove_stale(const char *out)
{
	DIR *d = opendir(out);
	if (!d)
		return;
	struct dirent *e;
	size_t n = strlen(STAGE_PREFIX);
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, STAGE_PREFIX, n) != 0)
			continue;
		char *end;
		long pid = strtol(e->d_name + n, &end, 10);
		if (*end || pid <= 0 || pid == (long)getpid())
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		char *path = join(out, e->d_name);
		record_remove_tree(path);
		free(path);
	}
	closedir(d);
}

char *record_stage_open(const char *out)
{
	if (make_dirs(out) < 0) {
		msg_error("%s: cannot create it: %s", out, strerror(errno));
		return NULL;
	}
	remove_stale(out);
	char name[64];
	snprintf(name, sizeof(name), STAGE_PREFIX "%ld", (long)getpid());
	char *stage = join(out, name);
	record_remove_tree(stage);
	char *runs = join(stage, RECORD_RUNS);
	if (mkdir(stage, 0777) != 0 || mkdir(runs, 0777) != 0) {
		msg_error("%s: cannot create it: %s", runs, strerror(errno));
		free(runs);
		record_remove_tree(stage);
		free(stage);
		return NULL;
	}
	free(runs);
	return stage;
}

/* Exchange STAGE/runs and OUT/runs, or move STAGE/runs there when OUT
 * has none (back: move OUT/runs to STAGE/runs).  0, or -1 after a
 * message. */
static int exchange(const char *out, const char *stage, int had, int back)
{
	char *staged = join(stage, RECORD_RUNS), *runs = join(out, RECORD_RUNS);
	int r;
	if (had)
		r = renameat2(AT_FDCWD, staged, AT_FDCWD, runs, RENAME_EXCHANGE);
	else
		r = back ? rename(runs, staged) : rename(staged, runs);
	if (r != 0)
		msg_error("%s: cannot %s: %s", runs, back ? "put the previous run set back"
		          : "put the run set in place", strerror(errno));
	int fd = r == 0 ? open(out, O_RDONLY | O_DIRECTORY) : -1;
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(staged);
	free(runs);
	return r == 0 ? 0 : -1;
}

int record_set_swap(const char *out, const char *stage, int *had)
{
	char *runs = join(out, RECORD_RUNS);
	struct stat st;
	*had = lstat(runs, &st) == 0;
	int bad = *had && !S_ISDIR(st.st_mode);
	if (bad)
		msg_error("%s is in the way of the run set (not a directory, and record did not "
		          "write it)", runs);
	free(runs);
	return bad ? -1 : exchange(out, stage, *had, 0);
}

int record_set_unswap(const char *out, const char *stage, int had)
{
	return exchange(out, stage, had, 1);
}

int record_lock(const char *out, int wait)
{
	char *path = join(out, RECORD_LOCK_NAME);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	int r = fd < 0 ? -1 : flock(fd, LOCK_EX | LOCK_NB);
	if (fd >= 0 && r != 0 && errno == EWOULDBLOCK && wait) {
		msg_error("record: %s: another record is putting its runs there; waiting", out);
		while ((r = flock(fd, LOCK_EX)) != 0 && errno == EINTR && !signals_caught())
			;
	}
	if (r != 0) {
		if (fd >= 0 && errno == EWOULDBLOCK)
			msg_error("record: %s: another record is putting its runs there (--wait to "
			          "wait for it)", out);
		else if (!signals_caught())
			msg_error("record: %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	free(path);
	return fd;
}
