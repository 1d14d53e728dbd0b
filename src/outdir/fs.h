/* fs.h — the one table of file system operations the output directory
 * does (outdir*.c, rundir.c, commit.c, lock.c, manifest.c): creating,
 * writing, syncing, renaming, removing files and directories.  fs_posix
 * is the real one.  A test backend (tests/faults/) fails or kills the
 * process at a chosen operation; an in-memory backend (no files, no
 * threads) can plug in the same way, for a fuzzer.
 *
 * Handles are ints: a backend's own numbers for open files and
 * directories (FS_CWD is where relative paths start).  A path is relative
 * to a directory handle and may hold '/'.  Every operation returns 0 (or
 * a handle, or a count) or a negative errno, never -1 with errno set:
 * the writing thread and the caller each read their own result. */
#ifndef DUMPANALYZE_FS_H
#define DUMPANALYZE_FS_H

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define FS_CWD AT_FDCWD

enum fs_type { FS_NONE, FS_FILE, FS_DIR, FS_OTHER };   /* FS_OTHER: a link, a FIFO... */

struct fs_stat {
	enum fs_type type;
	uint64_t dev, ino;          /* what makes two names one file */
	uint64_t size;
	uint64_t nlink;             /* names the file has (hard links) */
};

struct fs;

struct fs_ops {
	/* open(2)'s flags (O_RDONLY, O_WRONLY, O_CREAT, O_TRUNC, O_APPEND,
	 * O_EXCL, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK); O_CLOEXEC is
	 * implied. */
	int (*open)(const struct fs *fs, int dir, const char *path, int flags, unsigned mode);
	int (*close)(const struct fs *fs, int fd);
	ssize_t (*read)(const struct fs *fs, int fd, void *buf, size_t n);
	ssize_t (*write)(const struct fs *fs, int fd, const void *buf, size_t n);
	int (*truncate)(const struct fs *fs, int fd, uint64_t size);
	/* Data and the entry's metadata on stable storage; on a directory,
	 * its entries. */
	int (*fsync)(const struct fs *fs, int fd);
	/* All of the file system fd is on, on stable storage (syncfs(2)):
	 * one flush for thousands of files, where an fsync each costs a
	 * flush each. */
	int (*syncfs)(const struct fs *fs, int fd);
	/* Atomic: `to` is replaced, never missing. */
	int (*rename)(const struct fs *fs, int from_dir, const char *from, int to_dir,
	              const char *to);
	int (*unlink)(const struct fs *fs, int dir, const char *path);
	int (*mkdir)(const struct fs *fs, int dir, const char *path);
	int (*rmdir)(const struct fs *fs, int dir, const char *path);
	/* Never follows a symbolic link; path "" is the handle itself. */
	int (*stat)(const struct fs *fs, int dir, const char *path, struct fs_stat *st);
	/* The names in a directory but . and .., unsorted, in an array of
	 * xrealloc'd strings (fs_list_free). */
	int (*list)(const struct fs *fs, int dir, const char *path, char ***names, size_t *n);
	/* W_OK | X_OK of access(2), for a clear message before anything. */
	int (*writable)(const struct fs *fs, int dir, const char *path);
	/* An exclusive advisory lock on an open file, released when the last
	 * handle to it (also a forked child's) is closed or its process dies:
	 * 0, -EAGAIN when another holds it (wait: block until it is free;
	 * -EINTR on a signal), -ENOLCK when the file system has none. */
	int (*lock)(const struct fs *fs, int fd, int wait);
};

#define FS_NO_THREAD 1u         /* do every operation in the caller's thread */

struct fs {
	const struct fs_ops *ops;
	unsigned flags;
	const char *name;           /* for messages: "posix", "faults", ... */
	void *data;                 /* the backend's own (never the real one's) */
};

extern const struct fs fs_posix;

/* FS_CALL(fs, rename, dir, a, dir, b): one operation of fs. */
#define FS_CALL(fs, op, ...) ((fs)->ops->op((fs), __VA_ARGS__))

void fs_list_free(char **names, size_t n);
/* DIR/NAME made to hold the n bytes at p (created or emptied), and with
 * sync on stable storage: 0 or a negative errno. */
int fs_write_file(const struct fs *fs, int dir, const char *name, const void *p, size_t n,
                  int sync);
/* Write all n bytes: 0 or a negative errno. */
int fs_write_all(const struct fs *fs, int fd, const void *p, size_t n);
/* Read the whole of DIR/PATH (a regular file of at most max bytes) into a
 * new buffer with a NUL after it: its length, or a negative errno
 * (-EFBIG beyond max, -EINVAL for anything but a regular file). */
ssize_t fs_read_all(const struct fs *fs, int dir, const char *path, size_t max, char **out);
/* Create DIR/PATH and what is missing above it (mkdir -p). */
int fs_mkdirs(const struct fs *fs, int dir, const char *path);
/* Remove DIR/PATH and, if it is a directory (never through a link),
 * everything in it, at most depth levels down: 0 or the first negative
 * errno (-ENOENT when there was nothing). */
int fs_remove_tree(const struct fs *fs, int dir, const char *path, int depth);
/* Make DIR/PATH's entries durable (fsync of the directory). */
int fs_sync_dir(const struct fs *fs, int dir, const char *path);

#endif
