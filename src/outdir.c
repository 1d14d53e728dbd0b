/* outdir.c — atomic output files with an LRU of open streams; see outdir.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dumpanalyze/outdir.h"
#include "dumpanalyze/arena.h"
#include "dumpanalyze/diag.h"

struct outfile {
	struct outdir *d;
	char *name, *tmp;
	FILE *fp;                   /* NULL while suspended */
	char *iobuf;                /* fp's buffer */
	int ready;                  /* complete; renamed at the next publish */
	struct outfile *prev, *next;            /* all uncommitted files */
	struct outfile *lru_prev, *lru_next;    /* open ones, newest first */
};

struct outdir {
	char *path;
	int fd;
	struct outfile *pending;
	struct outfile *lru_head, *lru_tail;
	unsigned nopen;
	unsigned long written;
};

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}

/* mkdir -p */
static int make_dirs(const char *path)
{
	char *p = xstrdup(path);
	int r = 0;
	for (char *s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST) {
			r = -errno;
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return r;
}

struct outdir *outdir_open(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		int r = make_dirs(path);
		if (r < 0) {
			da_error("cannot create output directory %s: %s", path, strerror(-r));
			return NULL;
		}
	} else if (!S_ISDIR(st.st_mode)) {
		da_error("output directory %s: %s", path, strerror(ENOTDIR));
		return NULL;
	}
	if (access(path, W_OK | X_OK) != 0) {
		da_error("output directory %s is not writable: %s", path, strerror(errno));
		return NULL;
	}
	int fd = open(path, O_RDONLY | O_DIRECTORY);
	if (fd < 0) {
		da_error("output directory %s: %s", path, strerror(errno));
		return NULL;
	}
	struct outdir *d = xrealloc(NULL, sizeof(*d));
	memset(d, 0, sizeof(*d));
	d->path = xstrdup(path);
	d->fd = fd;
	return d;
}

void outdir_add_written(struct outdir *d, unsigned long n)
{
	d->written += n;
}

const char *outdir_path(const struct outdir *d)
{
	return d->path;
}

unsigned long outdir_files_written(const struct outdir *d)
{
	return d->written;
}

static void fail(struct outfile *f, int err)
{
	da_error("%s/%s: %s", f->d->path, f->name, strerror(err));
}

static void lru_unlink(struct outfile *f)
{
	struct outdir *d = f->d;
	if (f->lru_prev)
		f->lru_prev->lru_next = f->lru_next;
	else
		d->lru_head = f->lru_next;
	if (f->lru_next)
		f->lru_next->lru_prev = f->lru_prev;
	else
		d->lru_tail = f->lru_prev;
	f->lru_prev = f->lru_next = NULL;
}

static void lru_push(struct outfile *f)
{
	struct outdir *d = f->d;
	f->lru_prev = NULL;
	f->lru_next = d->lru_head;
	if (d->lru_head)
		d->lru_head->lru_prev = f;
	d->lru_head = f;
	if (!d->lru_tail)
		d->lru_tail = f;
}

/* fclose and forget the stream and its buffer; fclose's result. */
static int release_stream(struct outfile *f)
{
	int r = fclose(f->fp);
	f->fp = NULL;
	free(f->iobuf);
	f->iobuf = NULL;
	lru_unlink(f);
	f->d->nopen--;
	return r;
}

/* Close the stream, keeping the file; 0 or -errno. */
static int close_stream(struct outfile *f)
{
	if (!f->fp)
		return 0;
	int err = 0;
	if (fflush(f->fp) != 0 || ferror(f->fp))
		err = errno ? errno : EIO;
	if (release_stream(f) != 0 && !err)
		err = errno ? errno : EIO;
	return -err;
}

static int make_room(struct outdir *d)
{
	while (d->nopen >= OUTDIR_MAX_OPEN && d->lru_tail) {
		struct outfile *victim = d->lru_tail;
		int r = close_stream(victim);
		if (r < 0) {
			fail(victim, -r);
			return r;
		}
	}
	return 0;
}

static int open_stream(struct outfile *f, int flags, const char *mode)
{
	struct outdir *d = f->d;
	if (make_room(d) < 0)
		return -1;
	int fd = openat(d->fd, f->tmp, flags, 0666);
	if (fd < 0 || !(f->fp = fdopen(fd, mode))) {
		int err = errno;
		if (fd >= 0)
			close(fd);
		fail(f, err);
		return -1;
	}
	/* Large writes: a bush file gets most of its trace text in one
	 * go, and stdio's default (the 4 KiB block size) costs a system
	 * call per 4 KiB.  At most OUTDIR_MAX_OPEN buffers exist. */
	f->iobuf = xrealloc(NULL, OUTDIR_WRITE_BUFFER);
	setvbuf(f->fp, f->iobuf, _IOFBF, OUTDIR_WRITE_BUFFER);
	d->nopen++;
	lru_push(f);
	return 0;
}

struct outfile *outfile_create(struct outdir *d, const char *name)
{
	struct outfile *f = xrealloc(NULL, sizeof(*f));
	memset(f, 0, sizeof(*f));
	f->d = d;
	f->name = xstrdup(name);
	size_t n = strlen(name) + 32;
	f->tmp = xrealloc(NULL, n);
	snprintf(f->tmp, n, ".%s.tmp%ld", name, (long)getpid());
	if (open_stream(f, O_WRONLY | O_CREAT | O_TRUNC, "w") < 0) {
		free(f->name);
		free(f->tmp);
		free(f);
		return NULL;
	}
	f->next = d->pending;
	if (d->pending)
		d->pending->prev = f;
	d->pending = f;
	return f;
}

FILE *outfile_fp(struct outfile *f)
{
	if (f->fp) {
		if (f->d->lru_head != f) {
			lru_unlink(f);
			lru_push(f);
		}
		return f->fp;
	}
	if (open_stream(f, O_WRONLY | O_APPEND, "a") < 0)
		return NULL;
	return f->fp;
}

static void forget(struct outfile *f)
{
	struct outdir *d = f->d;
	if (f->prev)
		f->prev->next = f->next;
	else
		d->pending = f->next;
	if (f->next)
		f->next->prev = f->prev;
	free(f->name);
	free(f->tmp);
	free(f);
}

int outfile_commit(struct outfile *f)
{
	int r = close_stream(f);
	if (r < 0) {
		fail(f, -r);
		unlinkat(f->d->fd, f->tmp, 0);
		forget(f);
		return -1;
	}
	f->ready = 1;
	return 0;
}

int outdir_publish(struct outdir *d)
{
	/* Oldest first: the pending list is newest first, so walk it back. */
	struct outfile *f = d->pending;
	while (f && f->next)
		f = f->next;
	while (f) {
		struct outfile *prev = f->prev;
		if (f->ready) {
			if (renameat(d->fd, f->tmp, d->fd, f->name) != 0) {
				fail(f, errno);
				return -1;
			}
			d->written++;
			forget(f);
		}
		f = prev;
	}
	return 0;
}

void outfile_discard(struct outfile *f)
{
	if (f->fp)
		release_stream(f);
	unlinkat(f->d->fd, f->tmp, 0);
	forget(f);
}

void outdir_discard_pending(struct outdir *d)
{
	while (d->pending)
		outfile_discard(d->pending);
}

void outdir_close(struct outdir *d)
{
	if (!d)
		return;
	outdir_discard_pending(d);
	close(d->fd);
	free(d->path);
	free(d);
}
