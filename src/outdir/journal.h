/* journal.h — a commit's intent record: what a run is about to do to its
 * output directory, written and made durable in its staging directory
 * before OUT is touched, so that whoever finds it (the next run, or
 * --recover) can finish the commit or undo it (commit.h).
 *
 * A text file, .commit: a line "dumpanalyze-commit 1", then one line per
 * fact, then "end CRC" with the CRC-32 of every byte before that line.  A
 * record cut short or damaged fails the check and is no record at all,
 * which is right: it was being written, so OUT was not touched yet.
 * Names are escaped (%XX for blanks, controls and '%'), so any byte of a
 * file name comes back as it was. */
#ifndef DUMPANALYZE_JOURNAL_H
#define DUMPANALYZE_JOURNAL_H

#include <stddef.h>
#include <stdint.h>
#include "outdir/fs.h"

#define JOURNAL_NAME ".commit"
#define JOURNAL_OLD ".old"      /* in the staging directory: OUT's files set aside */

/* Paths are relative to OUT and to the staging directory alike: a name,
 * or a directory's name and a name (several dumps), never "." or "..". */
struct journal {
	long pid;                   /* the run that wrote it */
	uint64_t manifest_bytes;    /* the staged manifest.json */
	uint32_t manifest_crc;
	char **backups;             /* 1. OUT/P set aside as STAGE/.old/P */
	size_t nbackups;
	char **mkdirs;              /* 2. OUT/D made */
	size_t nmkdirs;
	char **moves;               /* 3. STAGE/P moved to OUT/P; 4. the manifest */
	size_t nmoves;
	char **rmdirs;              /* 5. after the commit: OUT/D removed, if empty */
	size_t nrmdirs;
};

/* Write STAGE/.commit and make it durable (the file and the directory).
 * 0, or a negative errno. */
int journal_write(const struct fs *fs, int stage, const struct journal *j);
/* Read STAGE/.commit: 0; 1 when there is none; -EBADMSG when it is cut
 * short, damaged or not one (it counts as none); another negative errno
 * when it cannot be read. */
int journal_read(const struct fs *fs, int stage, struct journal *j);
void journal_free(struct journal *j);
/* Whether P is a path a journal may hold. */
int journal_path_ok(const char *p);
/* Add a copy of the name to a list. */
void journal_add(char ***list, size_t *n, const char *name);

#endif
