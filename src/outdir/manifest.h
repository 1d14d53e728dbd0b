/* manifest.h — OUT/manifest.json, written last by a run: the tool, the
 * dumps, the options, the views rendered and every file written.  The
 * next run into OUT removes exactly those files, and --compare reads it
 * to compare only what both sides rendered. */
#ifndef DUMPANALYZE_MANIFEST_H
#define DUMPANALYZE_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

#define MANIFEST_NAME "manifest.json"
#define MANIFEST_MAX (256u << 20)       /* bytes read at most */
/* The manifest's "format": raised when a reader of an older one would
 * misread it. */
#define MANIFEST_FORMAT 1

struct fs;

struct manifest_dump {
	char *path;                 /* as the user gave it */
	uint64_t bytes;             /* its size, 0 for a pipe */
	char *profile;              /* or NULL */
	char *sysprof;              /* a sysprof profile beside it, or NULL */
};

struct manifest {
	char *version;              /* of the tool that wrote it */
	struct manifest_dump *dumps;
	size_t ndumps;
	char **views;               /* rendered, in registry order */
	size_t nviews;
	char *views_option;         /* --views as given, or NULL */
	int strict;
	int complete;               /* the run got to its end */
	int exit_status;
	/* "jit_events": 1, the input held a trace, abort or -jv line; -1,
	 * none (an empty input, program output only: a run that did not
	 * run); 0, not said (a manifest of several dumps, or of 0.3.0) */
	int jit_events;
	char **files;               /* plain names in OUT, sorted */
	size_t nfiles;
	char **dirs;                /* subdirectories with manifests of their
	                               own (several dumps), sorted */
	size_t ndirs;
};

/* Read DIR/manifest.json: 0, 1 when there is none, -1 when it is not one
 * of ours, -2 when it cannot be read (a message in err either way).  Names that are not plain file names are
 * dropped: a manifest never makes us touch anything outside DIR. */
int manifest_read(const char *dir, struct manifest *m, char *err, size_t errlen);
/* The same on fs's directory handle dir (named name in messages). */
int manifest_read_fs(const struct fs *fs, int dir, const char *name, struct manifest *m,
                     char *err, size_t errlen);
/* Write DIR/manifest.json (a staged file, made durable with the others
 * and moved into place by the commit), on fs's directory handle dir.  Sorts files and dirs.
 * Its size and CRC-32 in *bytes and *crc.  0, or a negative errno. */
int manifest_write_fs(const struct fs *fs, int dir, struct manifest *m, uint64_t *bytes,
                      uint32_t *crc);
/* Add a copy of the name to a list (files, dirs, views). */
void manifest_add(char ***list, size_t *n, const char *name);
/* Sort a list of names (bytewise). */
void manifest_sort(char **list, size_t n);
/* Whether the name is in the (sorted) list. */
int manifest_has(char *const *list, size_t n, const char *name);
void manifest_free(struct manifest *m);

#endif
