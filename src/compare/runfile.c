/* runfile.c — a run's files opened without trusting them; see runfile.h. */
#define _XOPEN_SOURCE 700         /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "compare/runfile.h"
#include "output/message.h"
#include "output/termtext.h"
#include "util/alloc.h"

static char *join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = xrealloc(NULL, la + lb + 2);
	memcpy(s, a, la);
	s[la] = '/';
	memcpy(s + la + 1, b, lb + 1);
	return s;
}

/* One entry of a directory: a manifest's names are checked to be such
 * before they come here; this is the last guard. */
static int plain_name(const char *s)
{
	return s[0] && !strchr(s, '/') && strcmp(s, ".") != 0 && strcmp(s, "..") != 0;
}

/* Whether the resolved path lies inside the resolved directory. */
static int inside(const char *real, const char *dir)
{
	size_t n = strlen(dir);
	if (n == 1 && dir[0] == '/')
		return real[0] == '/' && real[1] != '\0';
	return strncmp(real, dir, n) == 0 && real[n] == '/';
}

static const char *kind_of(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device"
	     : S_ISDIR(m) ? "a directory" : S_ISSOCK(m) ? "a socket" : "not a file";
}

static void say_cap(char *buf, size_t n, uint64_t max)
{
	if (max % ((uint64_t)1 << 30) == 0)
		snprintf(buf, n, "%" PRIu64 " GiB", max >> 30);
	else
		snprintf(buf, n, "%" PRIu64 " MiB", max >> 20);
}

/* runfile_dir_open, the directory named as shown in messages (NULL: as
 * its path, or PARENT/NAME as the parent is shown). */
static int dir_open(struct runfile_dir *d, const struct runfile_dir *parent, const char *path,
                    const char *as)
{
	memset(d, 0, sizeof(*d));
	d->fd = -1;
	char *shown = term_text(path);
	if (parent && !plain_name(path)) {
		msg_error("%s: '%s' is not a directory's name", parent->shown, shown);
		free(shown);
		return -1;
	}
	d->path = parent ? join(parent->path, path) : strcpy(xrealloc(NULL, strlen(path) + 1), path);
	if (as) {
		d->shown = term_text(as);
	} else if (parent) {
		d->shown = join(parent->shown, shown);
	} else {
		d->shown = shown;
		shown = NULL;
	}
	free(shown);
	d->real = realpath(d->path, NULL);
	struct stat st;
	if (!d->real || stat(d->real, &st) < 0) {
		int e = errno;
		if (e == ENOENT)
			return 1;
		msg_error("cannot read %s: %s", d->shown, strerror(e));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		msg_error("cannot read %s: %s", d->shown, strerror(ENOTDIR));
		return -1;
	}
	if (parent && !inside(d->real, parent->real)) {
		msg_error("%s: a symbolic link leading out of %s", d->shown, parent->shown);
		return -1;
	}
	if ((d->fd = open(d->real, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		msg_error("cannot read %s: %s", d->shown, strerror(errno));
		return -1;
	}
	return 0;
}

int runfile_dir_open(struct runfile_dir *d, const struct runfile_dir *parent, const char *path)
{
	return dir_open(d, parent, path, NULL);
}

int runfile_dir_open_as(struct runfile_dir *d, const char *path, const char *shown)
{
	return dir_open(d, NULL, path, shown);
}

void runfile_dir_free(struct runfile_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	free(d->path);
	free(d->shown);
	free(d->real);
	memset(d, 0, sizeof(*d));
}

int runfile_open(struct runfile *f, const struct runfile_dir *d, const char *name, uint64_t max,
                 int may_lack)
{
	memset(f, 0, sizeof(*f));
	f->max = max;
	char *shown_name = term_text(name);
	f->shown = join(d->shown, shown_name);
	free(shown_name);
	if (!plain_name(name)) {
		msg_error("%s: not a file name of %s", f->shown, d->shown);
		return -1;
	}
	/* The entry itself first: a file is opened by its name in the
	 * directory; only a symbolic link is resolved, and must stay inside. */
	struct stat st, fst;
	int rc = -1, fd = -1, at = d->fd;
	const char *what = name;
	char *real = NULL;
	if (fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno == ENOENT && may_lack)
			rc = 1;
		else
			msg_error("%s: %s", f->shown, strerror(errno));
		return rc;
	}
	if (S_ISLNK(st.st_mode)) {
		char *path = join(d->path, name);
		real = realpath(path, NULL);
		int e = errno;
		free(path);
		if (!real) {
			/* a dangling symbolic link is a missing file too */
			if (e == ENOENT && may_lack)
				rc = 1;
			else
				msg_error("%s: %s", f->shown, strerror(e));
			return rc;
		}
		if (!inside(real, d->real)) {
			msg_error("%s: a symbolic link leading out of %s", f->shown, d->shown);
			free(real);
			return -1;
		}
		at = AT_FDCWD;
		what = real;
		if (stat(real, &st) < 0) {
			msg_error("%s: %s", f->shown, strerror(errno));
			free(real);
			return -1;
		}
	}
	if (!S_ISREG(st.st_mode)) {
		/* refused before it is opened: opening a device or a FIFO
		 * can block, or do something */
		msg_error("%s: not a regular file (%s)", f->shown, kind_of(st.st_mode));
	} else if ((uint64_t)st.st_size > max) {
		char cap[32];
		say_cap(cap, sizeof(cap), max);
		msg_error("%s: %" PRIu64 " bytes, more than the %s such a file may have", f->shown,
		          (uint64_t)st.st_size, cap);
	} else if ((fd = openat(at, what, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC)) < 0 ||
	           fstat(fd, &fst) < 0) {
		msg_error("%s: %s", f->shown, strerror(errno));
	} else if (!S_ISREG(fst.st_mode) || fst.st_dev != st.st_dev || fst.st_ino != st.st_ino) {
		msg_error("%s: replaced while it was being opened", f->shown);
	} else if (!(f->fp = fdopen(fd, "rb"))) {
		msg_error("%s: %s", f->shown, strerror(errno));
	} else {
		f->size = (uint64_t)fst.st_size;
		fd = -1;
		rc = 0;
	}
	if (fd >= 0)
		close(fd);
	free(real);
	return rc;
}

static int too_big(struct runfile *f)
{
	char cap[32];
	say_cap(cap, sizeof(cap), f->max);
	msg_error("%s: grew past the %s such a file may have while it was read", f->shown, cap);
	return -1;
}

long runfile_read(struct runfile *f, char *buf, size_t n)
{
	size_t got = fread(buf, 1, n, f->fp);
	if (got == 0 && ferror(f->fp)) {
		msg_error("%s: %s", f->shown, strerror(errno));
		return -1;
	}
	f->read += got;
	if (f->read > f->max)
		return too_big(f);
	return (long)got;
}

long runfile_line(struct runfile *f)
{
	size_t len = 0;
	int c;
	flockfile(f->fp);
	while ((c = getc_unlocked(f->fp)) != EOF && c != '\n') {
		if (len >= RUNFILE_LINE_MAX) {
			funlockfile(f->fp);
			msg_error("%s: line %" PRIu64 " is longer than %zu MiB", f->shown,
			          f->line + 1, RUNFILE_LINE_MAX >> 20);
			return -2;
		}
		ALLOC_GROW(f->buf, len + 2, f->cap);
		f->buf[len++] = (char)c;
	}
	int err = ferror(f->fp);
	funlockfile(f->fp);
	if (err) {
		msg_error("%s: %s", f->shown, strerror(errno));
		return -2;
	}
	if (c == EOF && len == 0)
		return -1;
	f->read += len + (c == '\n');
	if (f->read > f->max) {
		too_big(f);
		return -2;
	}
	if (!f->buf)
		ALLOC_GROW(f->buf, 1, f->cap);
	f->buf[len] = '\0';
	f->line++;
	return (long)len;
}

char *runfile_slurp(struct runfile *f, size_t *len)
{
	size_t cap = (size_t)f->size + 1, n = 0;
	char *buf = xrealloc(NULL, cap + 1);
	long got;
	while ((got = runfile_read(f, buf + n, cap - n)) > 0) {
		n += (size_t)got;
		if (n == cap) {         /* it grows as we read: up to the cap */
			cap += cap / 2 + 4096;
			buf = xrealloc(buf, cap + 1);
		}
	}
	if (got < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

void runfile_close(struct runfile *f)
{
	if (f->fp)
		fclose(f->fp);
	free(f->shown);
	free(f->buf);
	memset(f, 0, sizeof(*f));
}
