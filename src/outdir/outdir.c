/* outdir.c — the output directory and its files' lives: created under a
 * temporary name, committed, renamed into place with their generation
 * (outdir_publish) or removed; see outdir.h.
 *
 * The caller's side keeps what views see: a stdio stream per open file
 * (outdir_streams.c), and the list of files not committed yet.
 * Everything that touches the file system is an operation queued to the
 * writing thread (outdir_writer.c), which does them in order: creating a
 * file can cost the kernel half a millisecond, and a dump makes
 * thousands.  An open file's bytes fill a block (outdir_blocks.c), which
 * is queued, not copied, when full.  The first failure is printed by the
 * writing thread; from then on it renames nothing, and the caller learns
 * of it at its next call. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "outdir/outdir_impl.h"
#include "output/message.h"
#include "util/alloc.h"

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}

/* outdir_make, its messages naming the directory as shown. */
static int make(const struct fs *fs, const char *path, const char *shown)
{
	struct fs_stat st;
	int r = FS_CALL(fs, stat, FS_CWD, path, &st);
	if (r == 0 && st.type == FS_OTHER) {
		/* a symbolic link to a directory is one */
		int fd = FS_CALL(fs, open, FS_CWD, path, O_RDONLY | O_DIRECTORY, 0);
		if (fd >= 0) {
			st.type = FS_DIR;
			FS_CALL(fs, close, fd);
		}
	}
	if (r < 0) {
		r = fs_mkdirs(fs, FS_CWD, path);
		if (r < 0) {
			msg_error("cannot create output directory %s: %s", shown, strerror(-r));
			return r;
		}
	} else if (r == 0 && st.type != FS_DIR) {
		msg_error("output directory %s: %s", shown, strerror(ENOTDIR));
		return -ENOTDIR;
	}
	r = FS_CALL(fs, writable, FS_CWD, path);
	if (r < 0) {
		msg_error("output directory %s is not writable: %s", shown, strerror(-r));
		return r;
	}
	int fd = FS_CALL(fs, open, FS_CWD, path, O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0)
		msg_error("output directory %s: %s", shown, strerror(-fd));
	return fd;
}

int outdir_make(const struct fs *fs, const char *path)
{
	return make(fs, path, path);
}

struct outdir *outdir_open_fs(const struct fs *fs, const char *path, const char *shown)
{
	if (!shown)
		shown = path;
	int fd = make(fs, path, shown);
	if (fd < 0)
		return NULL;
	struct outdir *d = xrealloc(NULL, sizeof(*d));
	memset(d, 0, sizeof(*d));
	d->fs = fs;
	d->path = xstrdup(path);
	d->shown = xstrdup(shown);
	d->fd = fd;
	atomic_init(&d->failed, 0);
	pthread_mutex_init(&d->lock, NULL);
	pthread_cond_init(&d->work, NULL);
	pthread_cond_init(&d->room, NULL);
	pthread_cond_init(&d->idle, NULL);
	if (fs->flags & FS_NO_THREAD)
		outdir_without_thread(d);
	return d;
}

struct outdir *outdir_open(const char *path)
{
	return outdir_open_fs(&fs_posix, path, NULL);
}

const struct fs *outdir_fs(const struct outdir *d)
{
	return d->fs;
}

void outdir_without_thread(struct outdir *d)
{
	bgthread_forgo(&d->writer);
}

void outdir_add_written(struct outdir *d, unsigned long n)
{
	d->by_workers += n;
}

const char *outdir_path(const struct outdir *d)
{
	return d->path;
}

const char *outdir_shown(const struct outdir *d)
{
	return d->shown;
}

unsigned long outdir_files_written(struct outdir *d)
{
	outdir_sync(d);
	return d->written + d->by_workers;
}

struct outfile *outfile_create(struct outdir *d, const char *name)
{
	if (atomic_load(&d->failed))
		return NULL;
	/* The thread starts with the first file: a directory that never had
	 * one (the top of several dumps' output, while they are forked off)
	 * has nothing a forked process could inherit half-done.  Without a
	 * thread (none to be had) every operation is done at once. */
	if (!d->pid) {
		d->pid = (long)getpid();
		outdir_writer_start(d);
	}
	struct outfile *f = xrealloc(NULL, sizeof(*f));
	memset(f, 0, sizeof(*f));
	f->d = d;
	f->fd = -1;
	f->name = xstrdup(name);
	size_t n = strlen(name) + 32;
	f->tmp = xrealloc(NULL, n);
	snprintf(f->tmp, n, ".%s.tmp%ld", name, d->pid);
	f->next = d->pending;
	if (d->pending)
		d->pending->prev = f;
	d->pending = f;
	outdir_open_stream(f, OP_CREATE);
	return f;
}

/* Out of the caller's hands: the writing thread has it from now on. */
static void hand_over(struct outfile *f, enum op_kind kind)
{
	struct outdir *d = f->d;
	if (f->prev)
		f->prev->next = f->next;
	else
		d->pending = f->next;
	if (f->next)
		f->next->prev = f->prev;
	f->prev = f->next = NULL;
	outdir_submit(d, kind, f, NULL, 0);
}

int outfile_commit(struct outfile *f)
{
	int r = outdir_close_stream(f);
	hand_over(f, r == 0 ? OP_COMMIT : OP_DISCARD);
	return r;
}

int outdir_publish(struct outdir *d)
{
	outdir_submit(d, OP_PUBLISH, NULL, NULL, 0);
	return atomic_load(&d->failed) ? -1 : 0;
}

void outfile_discard(struct outfile *f)
{
	outdir_close_stream(f);
	hand_over(f, OP_DISCARD);
}

void outdir_discard_pending(struct outdir *d)
{
	while (d->pending)
		outfile_discard(d->pending);
	outdir_submit(d, OP_DROP_COMPLETE, NULL, NULL, 0);
}

void outdir_close(struct outdir *d)
{
	if (!d)
		return;
	outdir_discard_pending(d);
	outdir_writer_stop(d);
	outdir_blocks_free(d);
	pthread_mutex_destroy(&d->lock);
	pthread_cond_destroy(&d->work);
	pthread_cond_destroy(&d->room);
	pthread_cond_destroy(&d->idle);
	FS_CALL(d->fs, close, d->fd);
	free(d->path);
	free(d->shown);
	free(d);
}
