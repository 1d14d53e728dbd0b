/* fuzz_run.h — what the fuzz targets share: a dump, with or without a
 * profile, through the tool's views the way src/cli/run.c drives them,
 * into an output directory that lives in memory (no files, no threads),
 * and the checks every such run must pass.  A failed check is a crash to
 * libFuzzer. */
#ifndef DUMPANALYZE_FUZZ_RUN_H
#define DUMPANALYZE_FUZZ_RUN_H

#include <stddef.h>
#include <stdint.h>

struct fs;

/* A failed check names itself on stderr, then traps. */
#define FUZZ_CHECK(cond) do { if (!(cond)) fuzz_failed(#cond, __FILE__, __LINE__); } while (0)
_Noreturn void fuzz_failed(const char *what, const char *file, int line);

struct fuzz_run {
	const char *views;          /* as for --views */
	unsigned flags;             /* DA_STRICT, DA_NOTES, DA_NO_THREAD,
	                               DA_CALLBACK_ONLY */
	int push;                   /* da_open_push, the bytes given to
	                               da_feed in pieces of 1-64 bytes */
	/* Files a run that read its input to the end must have written
	 * (NULL-ended). */
	const char *const *expect;
	/* The bytes of a -jp profile given as --profile, or NULL; with folded
	 * stacks, the views and files are these instead. */
	const uint8_t *profile;
	size_t profile_len;
	const char *views_stacks;
	const char *const *expect_stacks;
	/* The bytes of a Tarantool sysprof profile given as a second
	 * --profile, or NULL: the views may then include sysprof's. */
	const uint8_t *sysprof;
	size_t sysprof_len;
	/* The source root fuzz_setup found (samples/lua) left out of this
	 * run: the current directory alone is looked in. */
	int no_root;
	/* For tests (NULL for the targets): the dump's name in the views'
	 * files ("fuzz.dump"), the source roots (the one fuzz_setup found),
	 * and a file system (fs_mem.h) to render into, left to the caller to
	 * read and free (else a new one each run, freed at its end). */
	const char *name;
	const char *const *roots;
	size_t nroots;
	struct fs *fs;
};

/* The output directory's path in the run's file system. */
#define FUZZ_OUT "out"

/* Once per process, from LLVMFuzzerInitialize: the source root
 * (samples/lua beside the binary's tests/fuzz/) that the source view and
 * the findings read Lua files from, as --source-root would give it. */
void fuzz_setup(const char *argv0);

/* Render the dump's bytes.  0 when its input was read to the end, or the
 * (expected) negative result that ended it: corrupt compressed data, a
 * warning under DA_STRICT, a profile that does not read (DA_EFORMAT: the
 * tool exits 3 then, having rendered nothing; DA_EIO: its compressed data
 * is corrupt, exit 2); the same for the sysprof profile. */
int fuzz_render(const uint8_t *data, size_t size, const struct fuzz_run *r);

#endif
