/* fs_fault.h — the tests' file system operations (a test hook, built
 * only into build/dumpanalyze-faults, never into dumpanalyze): the real
 * ones, but that the N-th counted operation of the run's own process
 * fails or kills it, as the environment says:
 *
 *   DA_FAULT=kill@N      SIGKILL before operation N (it is not done)
 *   DA_FAULT=ENOSPC@N    operation N fails with ENOSPC, and from then on
 *                        every write, create and mkdir (a full disk)
 *   DA_FAULT=EIO@N       operation N fails with EIO (only it)
 *   DA_FAULT=ENOLCK@N    operation N fails with ENOLCK (a lock on a file
 *                        system that has none)
 *   DA_FAULT=SIGTERM@N   SIGTERM sent to itself before operation N
 *   DA_FAULT_LOG=FILE    every counted operation appended to FILE as
 *                        "N OP PATH", to find an N
 *
 * Counted: open, close, write, truncate, fsync, syncfs, rename, unlink,
 * mkdir, rmdir and lock (reading and looking are not: they change nothing).
 * Forked processes (workers, several dumps' processes) are not counted:
 * N is the same from run to run. */
#ifndef DUMPANALYZE_FS_FAULT_H
#define DUMPANALYZE_FS_FAULT_H

#include "outdir/fs.h"

const struct fs *fs_fault_from_env(void);

#endif
