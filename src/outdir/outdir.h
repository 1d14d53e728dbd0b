/* outdir.h — the output directory (src/outdir/), and what it promises.
 *
 * Every file system operation of this folder goes through fs.h's table
 * (fs_posix.c on disk, fs_mem.c in memory, tests/faults/ failing on
 * purpose).  A run's output directory (rundir.h) promises:
 *
 *  1. Whole files.  A file is written under a temporary name and renamed
 *     into place only when complete, with the rest of its generation
 *     (outdir_publish): no half-written file under a final name.
 *  2. One run at a time.  A run holds OUT/.dumpanalyze.lock (lock.h), a
 *     kernel lock that dies with its holder, from start to end; a second
 *     run fails at once or waits (--wait).
 *  3. Atomic commit.  A run writes into OUT/.dumpanalyze-run.PID; at its
 *     end every staged file is made durable, a checksummed intent record
 *     is written (journal.h), then the files are moved in, the manifest
 *     last: its rename is the commit point (commit.h).
 *  4. Recovery.  Whatever instant a run is killed or the disk fills, the
 *     next run into OUT, or --recover, first acts on the record: finishes
 *     the commit, or undoes it when it cannot be finished and the commit
 *     point was not passed.  OUT then holds the whole previous run or the
 *     whole new one, and its manifest lists exactly the files there.  A
 *     run that does not commit leaves OUT as it was (rundir_discard).
 *  5. What a reader sees.  The commit renames one file at a time: a
 *     reader that is not dumpanalyze may see a mix of the two runs while,
 *     and only while, a commit record exists (rundir_pending: --compare
 *     refuses such a directory).  With none, OUT holds one whole run.
 *  6. Others' files and the inputs.  Files the previous manifest does not
 *     list are never removed (one a new file replaces excepted), only
 *     named in a warning; a dump or profile the run would replace or
 *     remove is refused before anything is written.
 *  7. Errors.  A failure is printed when it happens, naming the file
 *     where the user will find it (under OUT, never in the staging
 *     directory); nothing is renamed after it.
 *
 * This header: the files (1 and 7).  Views may keep many files open (one
 * per bush); the directory closes the least recently used ones and
 * reopens them on demand, so the fd limit never matters.
 *
 * The file system work (creating, writing, renaming) is done in order by
 * a thread of the directory's own, so the parser never waits for the
 * disk.  A failure is printed when it happens, as "dumpanalyze:
 * SHOWN/NAME: cause", naming the file where the user will find it (the
 * run writes into a staging directory that its commit moves into OUT);
 * the caller learns of it at a later call, and at the
 * latest from outdir_sync().  The thread starts with the first file: a
 * process forked after that must leave the parent's directory alone. */
#ifndef DUMPANALYZE_OUTDIR_H
#define DUMPANALYZE_OUTDIR_H

#include <stdio.h>

#define OUTDIR_MAX_OPEN 64

struct fs;
struct outdir;
struct outfile;

/* Create the directory at path (and parents) if missing and check it is
 * writable, on the file system operations fs (fs.h).  Messages name it,
 * and its files, as shown: where they end up (NULL: path).  Returns NULL
 * after printing "dumpanalyze: SHOWN: cause". */
struct outdir *outdir_open_fs(const struct fs *fs, const char *path, const char *shown);
/* Make the directory as outdir_open_fs does: its handle, or a negative
 * errno after the message. */
int outdir_make(const struct fs *fs, const char *path);
/* The same on the real file system. */
struct outdir *outdir_open(const char *path);
const struct fs *outdir_fs(const struct outdir *d);
/* For tests, before the first file: do every operation at once, as when
 * no thread can be started. */
void outdir_without_thread(struct outdir *d);
/* A new file for the final name (a plain file name, no '/').  NULL after
 * a failure. */
struct outfile *outfile_create(struct outdir *d, const char *name);
/* The stream to write to; NULL after a failure. */
FILE *outfile_fp(struct outfile *f);
/* Bytes written after what went through the stream so far, without
 * stdio's copy: for large pieces.  0, or -1 after a failure. */
int outfile_write(struct outfile *f, const void *p, size_t n);
/* The file is complete and will be renamed into place by the next
 * outdir_publish().  Returns 0, or -1 after a failure (f is gone either
 * way). */
int outfile_commit(struct outfile *f);
/* Rename every complete file into place, oldest first: called once all
 * views finished a generation, so a generation appears whole or not at
 * all.  0, or -1 after a failure: then nothing more is renamed. */
int outdir_publish(struct outdir *d);
/* Wait until all the work asked for so far is done: 0, or -1 if any of it
 * failed. */
int outdir_sync(struct outdir *d);
/* Remove the temporary file.  Frees f. */
void outfile_discard(struct outfile *f);
/* Discard every file not yet committed (after an error). */
void outdir_discard_pending(struct outdir *d);
/* Files renamed into place so far (waits for the work queued). */
unsigned long outdir_files_written(struct outdir *d);
/* Count files a worker process writes into the same directory. */
void outdir_add_written(struct outdir *d, unsigned long n);
/* Where the files are written, and where messages say they are. */
const char *outdir_path(const struct outdir *d);
const char *outdir_shown(const struct outdir *d);
void outdir_close(struct outdir *d);

#endif
