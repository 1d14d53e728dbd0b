/* fs_fault.c — file system operations that fail or kill at the N-th;
 * see fs_fault.h.  Test code: its state is process-wide on purpose (one
 * count for the writing thread and the main thread). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "faults/fs_fault.h"

enum mode { NONE, KILL, NOSPACE, IOERR, TERM, NOLOCK };

#define MAX_FD 4096

static struct {
	enum mode mode;
	unsigned long at;
	atomic_ulong count;
	atomic_int full;            /* ENOSPC fired: the disk stays full */
	pid_t owner;
	int log;
	pthread_mutex_t lock;
	char *names[MAX_FD];        /* what each open handle is, for the log */
} st = { .log = -1, .lock = PTHREAD_MUTEX_INITIALIZER };

/* What the handle fd is, copied: another thread may close it meanwhile. */
static const char *name_of(int fd, char *buf, size_t len)
{
	pthread_mutex_lock(&st.lock);
	snprintf(buf, len, "%s", fd >= 0 && fd < MAX_FD && st.names[fd] ? st.names[fd] : "?");
	pthread_mutex_unlock(&st.lock);
	return buf;
}

/* Count an operation; what to do to it: 0 go on, or a negative errno.
 * space: it needs room (a write, a create, a mkdir). */
static int count(const char *op, const char *a, const char *b, int space)
{
	if (getpid() != st.owner)
		return 0;
	unsigned long n = atomic_fetch_add(&st.count, 1) + 1;
	if (st.log >= 0) {
		char line[1200];
		int len = snprintf(line, sizeof(line), "%lu %s %s%s%s\n", n, op, a, b ? " " : "",
		                   b ? b : "");
		if (len > 0 && write(st.log, line, (size_t)len < sizeof(line) ? (size_t)len
		                                                              : sizeof(line) - 1) < 0)
			st.log = -1;
	}
	if (n == st.at && st.mode != NONE) {
		char line[1200];
		int len = snprintf(line, sizeof(line), "dumpanalyze-faults: operation %lu (%s %s%s%s): %s\n",
		                   n, op, a, b ? " " : "", b ? b : "",
		                   st.mode == KILL ? "SIGKILL" : st.mode == TERM ? "SIGTERM"
		                   : st.mode == NOSPACE ? "ENOSPC" : st.mode == NOLOCK ? "ENOLCK" : "EIO");
		if (len > 0 && write(STDERR_FILENO, line, (size_t)len < sizeof(line) ? (size_t)len
		                                                                     : sizeof(line) - 1) < 0)
			(void)0;
		switch (st.mode) {
		case KILL:
			kill(getpid(), SIGKILL);
			for (;;)
				pause();
		case TERM:
			kill(getpid(), SIGTERM);
			return 0;
		case NOSPACE:
			atomic_store(&st.full, 1);
			return -ENOSPC;
		case IOERR:
			return -EIO;
		case NOLOCK:
			return -ENOLCK;
		case NONE:
			break;
		}
	}
	if (space && atomic_load(&st.full))
		return -ENOSPC;
	return 0;
}

static const struct fs_ops *real(void)
{
	return fs_posix.ops;
}

static void remember(int fd, const char *path)
{
	if (fd < 0 || fd >= MAX_FD || getpid() != st.owner)
		return;
	pthread_mutex_lock(&st.lock);
	free(st.names[fd]);
	st.names[fd] = strdup(path);
	pthread_mutex_unlock(&st.lock);
}

static int f_open(const struct fs *fs, int dir, const char *path, int flags, unsigned mode)
{
	(void)fs;
	int r = count("open", path, NULL, (flags & O_CREAT) != 0);
	if (r < 0)
		return r;
	int fd = real()->open(&fs_posix, dir, path, flags, mode);
	remember(fd, path);
	return fd;
}

static int f_close(const struct fs *fs, int fd)
{
	(void)fs;
	char name[1024];
	int r = count("close", name_of(fd, name, sizeof(name)), NULL, 0);
	/* closed whatever happens, as close(2) does */
	int c = real()->close(&fs_posix, fd);
	return r < 0 ? r : c;
}

static ssize_t f_read(const struct fs *fs, int fd, void *buf, size_t n)
{
	(void)fs;
	return real()->read(&fs_posix, fd, buf, n);
}

static ssize_t f_write(const struct fs *fs, int fd, const void *buf, size_t n)
{
	(void)fs;
	char name[1024];
	int r = count("write", name_of(fd, name, sizeof(name)), NULL, 1);
	return r < 0 ? r : real()->write(&fs_posix, fd, buf, n);
}

static int f_truncate(const struct fs *fs, int fd, uint64_t size)
{
	(void)fs;
	char name[1024];
	int r = count("truncate", name_of(fd, name, sizeof(name)), NULL, 0);
	return r < 0 ? r : real()->truncate(&fs_posix, fd, size);
}

static int f_fsync(const struct fs *fs, int fd)
{
	(void)fs;
	char name[1024];
	int r = count("fsync", name_of(fd, name, sizeof(name)), NULL, 0);
	return r < 0 ? r : real()->fsync(&fs_posix, fd);
}

static int f_syncfs(const struct fs *fs, int fd)
{
	(void)fs;
	char name[1024];
	int r = count("syncfs", name_of(fd, name, sizeof(name)), NULL, 0);
	return r < 0 ? r : real()->syncfs(&fs_posix, fd);
}

static int f_rename(const struct fs *fs, int from_dir, const char *from, int to_dir,
                    const char *to)
{
	(void)fs;
	int r = count("rename", from, to, 0);
	return r < 0 ? r : real()->rename(&fs_posix, from_dir, from, to_dir, to);
}

static int f_unlink(const struct fs *fs, int dir, const char *path)
{
	(void)fs;
	int r = count("unlink", path, NULL, 0);
	return r < 0 ? r : real()->unlink(&fs_posix, dir, path);
}

static int f_mkdir(const struct fs *fs, int dir, const char *path)
{
	(void)fs;
	int r = count("mkdir", path, NULL, 1);
	return r < 0 ? r : real()->mkdir(&fs_posix, dir, path);
}

static int f_rmdir(const struct fs *fs, int dir, const char *path)
{
	(void)fs;
	int r = count("rmdir", path, NULL, 0);
	return r < 0 ? r : real()->rmdir(&fs_posix, dir, path);
}

static int f_stat(const struct fs *fs, int dir, const char *path, struct fs_stat *s)
{
	(void)fs;
	return real()->stat(&fs_posix, dir, path, s);
}

static int f_list(const struct fs *fs, int dir, const char *path, char ***names, size_t *n)
{
	(void)fs;
	return real()->list(&fs_posix, dir, path, names, n);
}

static int f_writable(const struct fs *fs, int dir, const char *path)
{
	(void)fs;
	return real()->writable(&fs_posix, dir, path);
}

static int f_lock(const struct fs *fs, int fd, int wait)
{
	(void)fs;
	char name[1024];
	int r = count("lock", name_of(fd, name, sizeof(name)), NULL, 0);
	return r < 0 ? r : real()->lock(&fs_posix, fd, wait);
}

static const struct fs_ops fault_ops = {
	.open = f_open, .close = f_close, .read = f_read, .write = f_write,
	.truncate = f_truncate, .fsync = f_fsync, .syncfs = f_syncfs, .rename = f_rename, .unlink = f_unlink,
	.mkdir = f_mkdir, .rmdir = f_rmdir, .stat = f_stat, .list = f_list,
	.writable = f_writable, .lock = f_lock,
};

static const struct fs fault_fs = { &fault_ops, 0, "faults", NULL };

const struct fs *fs_fault_from_env(void)
{
	st.owner = getpid();
	const char *spec = getenv("DA_FAULT");
	if (spec && *spec) {
		const char *at = strchr(spec, '@');
		size_t len = at ? (size_t)(at - spec) : 0;
		st.mode = len == 4 && strncmp(spec, "kill", 4) == 0 ? KILL
		        : len == 6 && strncmp(spec, "ENOSPC", 6) == 0 ? NOSPACE
		        : len == 3 && strncmp(spec, "EIO", 3) == 0 ? IOERR
		        : len == 7 && strncmp(spec, "SIGTERM", 7) == 0 ? TERM
		        : len == 6 && strncmp(spec, "ENOLCK", 6) == 0 ? NOLOCK : NONE;
		st.at = at ? strtoul(at + 1, NULL, 10) : 0;
		if (st.mode == NONE || st.at == 0) {
			fprintf(stderr, "dumpanalyze-faults: DA_FAULT=%s: want kill@N, ENOSPC@N, EIO@N, "
			        "ENOLCK@N or SIGTERM@N\n", spec);
			exit(1);
		}
	}
	const char *log = getenv("DA_FAULT_LOG");
	if (log && *log)
		st.log = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
	return &fault_fs;
}
