/* outdir.h — the output directory.  Every file is written under a
 * temporary name and renamed into place only when complete, so a failed
 * run leaves no half-written file under a final name.  Views may keep
 * many files open (one per bush); the directory closes the least recently
 * used ones and reopens them on demand, so the fd limit never matters. */
#ifndef DUMPANALYZE_OUTDIR_H
#define DUMPANALYZE_OUTDIR_H

#include <stdio.h>

#define OUTDIR_MAX_OPEN 64
#define OUTDIR_WRITE_BUFFER (64u << 10)    /* per open file */

struct outdir;
struct outfile;

/* Create the directory (and parents) if missing and check it is
 * writable.  Returns NULL after printing "dumpanalyze: DIR: cause". */
struct outdir *outdir_open(const char *path);
/* A new file for the final name (a plain file name, no '/').  NULL after
 * printing the cause. */
struct outfile *outfile_create(struct outdir *d, const char *name);
/* The stream to write to; NULL after printing the cause. */
FILE *outfile_fp(struct outfile *f);
/* Flush, check for write errors and close: the file is complete and will
 * be renamed into place by the next outdir_publish().  Returns 0, or -1
 * after printing "dumpanalyze: DIR/NAME: cause" (then f is freed). */
int outfile_commit(struct outfile *f);
/* Rename every complete file into place, oldest first: called once all
 * views finished a generation, so a generation appears whole or not at
 * all.  0, or -1 after printing the cause. */
int outdir_publish(struct outdir *d);
/* Remove the temporary file.  Frees f. */
void outfile_discard(struct outfile *f);
/* Discard every file not yet committed (after an error). */
void outdir_discard_pending(struct outdir *d);
unsigned long outdir_files_written(const struct outdir *d);
/* Count files a worker process writes into the same directory. */
void outdir_add_written(struct outdir *d, unsigned long n);
const char *outdir_path(const struct outdir *d);
void outdir_close(struct outdir *d);

#endif
