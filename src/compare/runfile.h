/* runfile.h — the files of a run's output directory, opened as another
 * program's files are (--compare reads directories a CI job downloaded,
 * a colleague sent, a disk damaged): only regular files, inside the
 * directory (a symbolic link may point within it, never out of it),
 * opened with O_NONBLOCK and checked with fstat before a byte is read,
 * each no larger than its cap.  Every refusal is one message naming the
 * file. */
#ifndef DUMPANALYZE_RUNFILE_H
#define DUMPANALYZE_RUNFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The caps (man page, COMPARE): a manifest lists file names, so 64 MiB
 * is thousands of times a large run's; a view's file of 1 GiB is a run of
 * tens of millions of traces; a line of jsonl or bush text of 64 MiB is
 * a bush of millions of traces. */
#define RUNFILE_MANIFEST_MAX ((uint64_t)64 << 20)
#define RUNFILE_MAX ((uint64_t)1 << 30)
#define RUNFILE_LINE_MAX ((size_t)64 << 20)

/* A directory a run wrote. */
struct runfile_dir {
	char *path;                 /* as given, or PARENT/NAME */
	char *shown;                /* what messages name: path (or as shown)
	                               escaped for the terminal */
	char *real;                 /* resolved, to keep files inside it */
	int fd;                     /* open, to open its files by name */
};

/* The directory at path, or (parent not NULL) the subdirectory name of
 * parent, which must lie inside it.  0, 1 when it does not exist, -1
 * after a message. */
int runfile_dir_open(struct runfile_dir *d, const struct runfile_dir *parent, const char *path);
/* The same for a directory messages name as shown, and its files and
 * subdirectories under it (a staging directory, by where its commit moves
 * it). */
int runfile_dir_open_as(struct runfile_dir *d, const char *path, const char *shown);
void runfile_dir_free(struct runfile_dir *d);

struct runfile {
	FILE *fp;
	char *shown;                /* DIR/NAME, escaped: what messages name */
	uint64_t size, max, read;
	uint64_t line;              /* lines runfile_line returned */
	char *buf;                  /* the line runfile_line returned */
	size_t cap;
};

/* Open the plain name (one entry, as a manifest lists it) in d, at most
 * max bytes.  0, 1 when it does not exist and may_lack, -1 after a
 * message. */
int runfile_open(struct runfile *f, const struct runfile_dir *d, const char *name, uint64_t max,
                 int may_lack);
/* Up to n bytes into buf: the count, 0 at the end, -1 after a message
 * (a read error, the file grown past its cap). */
long runfile_read(struct runfile *f, char *buf, size_t n);
/* The next line, without its newline, in f->buf (NUL-terminated): its
 * length, -1 at the end, -2 after a message (longer than
 * RUNFILE_LINE_MAX, a read error). */
long runfile_line(struct runfile *f);
/* The whole file, malloc'd and NUL-terminated, its length in *len; NULL
 * after a message. */
char *runfile_slurp(struct runfile *f, size_t *len);
void runfile_close(struct runfile *f);

#endif
