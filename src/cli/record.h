/* record.h — `dumpanalyze record`: a workload run N times under the dump
 * and N times under the profiler, the run set kept in OUT/runs, and its
 * analysis into OUT. */
#ifndef DUMPANALYZE_RECORD_H
#define DUMPANALYZE_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "cli/cli.h"
#include "outdir/rundir.h"

struct fs;

/* The folder of OUT that holds the run set (rundir.h keeps it). */
#define RECORD_RUNS RUNDIR_RUN_SET
#define RECORD_DEFAULT_RUNS 5
#define RECORD_MAX_RUNS 100
#define RECORD_MAX_TIMEOUT 604800   /* --timeout: a week, in seconds */

/* record.c: argv[0] is "record"; the exit code. */
int record_main(int argc, char **argv, const struct fs *fs);
/* record_options.c: the options' getopt table and --help (what each
 * option is: docs/options/record/NAME.md). */
extern const struct option record_options[];
extern const size_t record_noptions;
/* getopt's: stop at COMMAND, ':' for a missing argument; the letters
 * the analysis has too. */
#define RECORD_SHORT_OPTIONS "+:qho:j:V:"
void record_usage(FILE *fp);

/* record_spawn.c: one run of the workload. */
struct record_child {
	char *const *argv;          /* COMMAND ARGS..., NULL-terminated */
	char *const *envp;          /* its environment */
	const char *stdout_path, *stderr_path;
	double timeout;             /* seconds it may take; 0: no limit */
};
#define RECORD_INTERRUPTED (-2)
#define RECORD_TIMED_OUT (-3)
#define RECORD_STOP_GRACE 5     /* seconds from the signal to SIGKILL */
/* Run it in a process group of its own (standard input /dev/null) and
 * wait.  0 with *wstatus as waitpid's; RECORD_INTERRUPTED when a signal
 * the tool catches came (the group was stopped: the signal, then SIGKILL
 * after RECORD_STOP_GRACE s); RECORD_TIMED_OUT when it ran past its
 * timeout (stopped the same way, with SIGTERM); -1 when it could not
 * start, err saying why. */
int record_spawn(const struct record_child *c, int *wstatus, double *seconds, char *err,
                 size_t len);

/* record_gather.c: what the LuaJIT processes of one run wrote into DIR
 * as STEM.PID files. */
struct record_gathered {
	size_t files;               /* STEM.PID files: LuaJITs that read LUA_INIT */
	size_t nonempty;            /* of them, those that wrote something */
	long pid;                   /* the one that wrote, when nonempty is 1 */
	uint64_t bytes;             /* its size */
};
/* Count them, and when exactly one wrote something compress it (zstd) to
 * dest, durably.  0; -1 with err set (a read, write or zstd error). */
int record_gather(const char *dir, const char *stem, const char *dest,
                  struct record_gathered *g, char *err, size_t len);
/* Compress path to dest with zstd (dest written whole or not at all). */
int record_compress(const char *path, const char *dest, char *err, size_t len);

/* record_env.c: the Lua chunk LUA_INIT names, written into path: 0, or
 * -1 (errno). */
int record_write_init(const char *path);
/* base (environ) without our variables and LUA_INIT, plus LUA_INIT=@path,
 * DUMPANALYZE_RECORD_DUMP or _PROF=prefix, DUMPANALYZE_RECORD_KIND=dump
 * or profile (documented, for the workload) and the user's LUA_INIT as
 * DUMPANALYZE_RECORD_LUA_INIT.  Freed by record_environment_free. */
char **record_environment(char *const *base, const char *init_path, int profile,
                          const char *prefix);
void record_environment_free(char **env);

/* record_set.c: the run set's place in OUT. */
/* OUT/.dumpanalyze-record.PID: where this run's set is staged, made
 * (with OUT) after the stale ones of dead processes are removed; NULL
 * after a message. */
char *record_stage_open(const char *out);
/* Put STAGE/runs in place of OUT/runs in one rename (an exchange when
 * OUT had one: *had; the previous set is then STAGE/runs), and back.  0,
 * or -1 after a message. */
int record_set_swap(const char *out, const char *stage, int *had);
int record_set_unswap(const char *out, const char *stage, int had);
/* Lock OUT against another record's swap and analysis (a hidden lock
 * file, flock: it dies with its holder); with wait, wait for it.  The
 * descriptor (closing it unlocks), or -1 after a message (none when a
 * signal came). */
int record_lock(const char *out, int wait);
/* Remove a directory and everything in it (best effort). */
void record_remove_tree(const char *path);

#endif
