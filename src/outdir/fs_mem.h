/* fs_mem.h — the file system operations of fs.h in memory: directories
 * and files held by the process, no threads (FS_NO_THREAD), nothing on
 * disk.  For the fuzz targets (a run's output costs no system call) and
 * the tests (what a run wrote, read back by name; a disk that fills at a
 * chosen byte). */
#ifndef DUMPANALYZE_FS_MEM_H
#define DUMPANALYZE_FS_MEM_H

#include <stddef.h>
#include <stdint.h>
#include "outdir/fs.h"

/* An empty file system whose current directory is its root "/". */
struct fs *fs_mem_new(void);
/* Free it with every file and handle in it. */
void fs_mem_free(struct fs *fs);
/* A regular file's bytes (valid until it next changes) and length, by its
 * path from the root; NULL when there is no such file. */
const char *fs_mem_data(const struct fs *fs, const char *path, size_t *len);
/* Writes beyond n bytes in all (from now) fail with ENOSPC, as on a full
 * disk; UINT64_MAX: never. */
void fs_mem_limit(struct fs *fs, uint64_t n);
/* Files and directories in it, the root aside. */
size_t fs_mem_count(const struct fs *fs);

#endif
