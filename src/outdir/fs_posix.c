/* fs_posix.c — the file system operations of fs.h on the real file
 * system, and the helpers every backend shares. */
#define _GNU_SOURCE             /* F_OFD_SETLK, AT_EMPTY_PATH, syncfs */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>              /* renameat */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "outdir/fs.h"
#include "util/alloc.h"

static int neg(int r)
{
	return r < 0 ? -errno : r;
}

static int p_open(const struct fs *fs, int dir, const char *path, int flags, unsigned mode)
{
	(void)fs;
	int fd;
	do
		fd = openat(dir, path, flags | O_CLOEXEC, (mode_t)mode);
	while (fd < 0 && errno == EINTR);
	return neg(fd);
}

static int p_close(const struct fs *fs, int fd)
{
	(void)fs;
	/* Linux closes the descriptor even when close reports EINTR. */
	return close(fd) == 0 || errno == EINTR ? 0 : -errno;
}

static ssize_t p_read(const struct fs *fs, int fd, void *buf, size_t n)
{
	(void)fs;
	ssize_t r;
	do
		r = read(fd, buf, n);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : r;
}

static ssize_t p_write(const struct fs *fs, int fd, const void *buf, size_t n)
{
	(void)fs;
	ssize_t r;
	do
		r = write(fd, buf, n);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : r;
}

static int p_truncate(const struct fs *fs, int fd, uint64_t size)
{
	(void)fs;
	return neg(ftruncate(fd, (off_t)size));
}

static int p_fsync(const struct fs *fs, int fd)
{
	(void)fs;
	return neg(fsync(fd));
}

static int p_syncfs(const struct fs *fs, int fd)
{
	(void)fs;
	return neg(syncfs(fd));
}

static int p_rename(const struct fs *fs, int from_dir, const char *from, int to_dir,
                    const char *to)
{
	(void)fs;
	return neg(renameat(from_dir, from, to_dir, to));
}

static int p_unlink(const struct fs *fs, int dir, const char *path)
{
	(void)fs;
	return neg(unlinkat(dir, path, 0));
}

static int p_mkdir(const struct fs *fs, int dir, const char *path)
{
	(void)fs;
	return neg(mkdirat(dir, path, 0777));
}

static int p_rmdir(const struct fs *fs, int dir, const char *path)
{
	(void)fs;
	return neg(unlinkat(dir, path, AT_REMOVEDIR));
}

static int p_stat(const struct fs *fs, int dir, const char *path, struct fs_stat *st)
{
	(void)fs;
	struct stat s;
	memset(st, 0, sizeof(*st));
	if (fstatat(dir, path, &s, AT_SYMLINK_NOFOLLOW | (*path ? 0 : AT_EMPTY_PATH)) != 0)
		return -errno;
	st->type = S_ISREG(s.st_mode) ? FS_FILE : S_ISDIR(s.st_mode) ? FS_DIR : FS_OTHER;
	st->dev = (uint64_t)s.st_dev;
	st->ino = (uint64_t)s.st_ino;
	st->size = (uint64_t)s.st_size;
	st->nlink = (uint64_t)s.st_nlink;
	return 0;
}

static int p_list(const struct fs *fs, int dir, const char *path, char ***names, size_t *n)
{
	(void)fs;
	*names = NULL;
	*n = 0;
	int fd = openat(dir, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	DIR *d = fdopendir(fd);
	if (!d) {
		int e = errno;
		close(fd);
		return -e;
	}
	size_t cap = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		ALLOC_GROW(*names, *n + 1, cap);
		size_t len = strlen(e->d_name) + 1;
		(*names)[(*n)++] = memcpy(xrealloc(NULL, len), e->d_name, len);
	}
	closedir(d);
	return 0;
}

static int p_writable(const struct fs *fs, int dir, const char *path)
{
	(void)fs;
	return neg(faccessat(dir, path, W_OK | X_OK, 0));
}

/* Open file description locks: held by the open file, so a forked worker
 * shares it and a killed holder frees it; over NFS they are the server's
 * byte-range locks. */
static int p_lock(const struct fs *fs, int fd, int wait)
{
	(void)fs;
	struct flock l = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };
	if (fcntl(fd, wait ? F_OFD_SETLKW : F_OFD_SETLK, &l) == 0)
		return 0;
	if (errno == EACCES || errno == EAGAIN)
		return -EAGAIN;
	if (errno == EOPNOTSUPP || errno == EINVAL)
		return -ENOLCK;
	return -errno;
}

static const struct fs_ops posix_ops = {
	.open = p_open, .close = p_close, .read = p_read, .write = p_write,
	.truncate = p_truncate, .fsync = p_fsync, .syncfs = p_syncfs, .rename = p_rename, .unlink = p_unlink,
	.mkdir = p_mkdir, .rmdir = p_rmdir, .stat = p_stat, .list = p_list,
	.writable = p_writable, .lock = p_lock,
};

const struct fs fs_posix = { &posix_ops, 0, "posix", NULL };

/* ---- helpers on any backend ------------------------------------------------ */

void fs_list_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int fs_write_all(const struct fs *fs, int fd, const void *p, size_t n)
{
	const char *s = p;
	while (n > 0) {
		ssize_t w = FS_CALL(fs, write, fd, s, n);
		if (w < 0)
			return (int)w;
		if (w == 0)
			return -EIO;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

int fs_write_file(const struct fs *fs, int dir, const char *name, const void *p, size_t n,
                  int sync)
{
	int fd = FS_CALL(fs, open, dir, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0666);
	if (fd < 0)
		return fd;
	int r = fs_write_all(fs, fd, p, n);
	if (r == 0 && sync)
		r = FS_CALL(fs, fsync, fd);
	int c = FS_CALL(fs, close, fd);
	return r < 0 ? r : c;
}

ssize_t fs_read_all(const struct fs *fs, int dir, const char *path, size_t max, char **out)
{
	*out = NULL;
	int fd = FS_CALL(fs, open, dir, path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW, 0);
	if (fd < 0)
		return fd;
	struct fs_stat st;
	int r = FS_CALL(fs, stat, fd, "", &st);
	if (r == 0 && st.type != FS_FILE)
		r = -EINVAL;
	if (r == 0 && st.size > max)
		r = -EFBIG;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	while (r == 0) {
		ALLOC_GROW(buf, len + 4097, cap);
		ssize_t n = FS_CALL(fs, read, fd, buf + len, cap - len - 1);
		if (n < 0)
			r = (int)n;
		else if (n == 0)
			break;
		else if ((len += (size_t)n) > max)
			r = -EFBIG;
	}
	FS_CALL(fs, close, fd);
	if (r < 0) {
		free(buf);
		return r;
	}
	if (!buf)
		buf = xrealloc(NULL, 1);
	buf[len] = '\0';
	*out = buf;
	return (ssize_t)len;
}

int fs_mkdirs(const struct fs *fs, int dir, const char *path)
{
	size_t n = strlen(path);
	char *p = memcpy(xrealloc(NULL, n + 1), path, n + 1);
	int r = 0;
	for (char *s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		r = FS_CALL(fs, mkdir, dir, p);
		if (r == -EEXIST)
			r = 0;
		if (r < 0 || !c)
			break;
		*s = c;
	}
	free(p);
	return r;
}

int fs_remove_tree(const struct fs *fs, int dir, const char *path, int depth)
{
	struct fs_stat st;
	int r = FS_CALL(fs, stat, dir, path, &st);
	if (r < 0)
		return r;
	if (st.type != FS_DIR)
		return FS_CALL(fs, unlink, dir, path);
	char **names;
	size_t n;
	r = depth > 0 ? FS_CALL(fs, list, dir, path, &names, &n) : -ENOTEMPTY;
	if (r < 0)
		return r;
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(path) + strlen(names[i]) + 2;
		char *p = xrealloc(NULL, len);
		snprintf(p, len, "%s/%s", path, names[i]);
		int e = fs_remove_tree(fs, dir, p, depth - 1);
		if (e < 0 && e != -ENOENT && r == 0)
			r = e;
		free(p);
	}
	fs_list_free(names, n);
	int e = FS_CALL(fs, rmdir, dir, path);
	return r < 0 ? r : e;
}

int fs_sync_dir(const struct fs *fs, int dir, const char *path)
{
	int fd = FS_CALL(fs, open, dir, path, O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0)
		return fd;
	int r = FS_CALL(fs, fsync, fd);
	int c = FS_CALL(fs, close, fd);
	return r < 0 ? r : c;
}
