/* fuzz_combined.c — libFuzzer target: a dump, the profiles and the Lua
 * files that go with it, all made from one input (fuzz_combined_gen.h:
 * the profiles and files name the dump's own chunks and lines), through
 * every view, rendered into memory (fuzz_run.c).  This is the path of
 * `--views source --profile` that no single-input target reaches: stacks
 * entering the dump's chunks, the source pages beside them.  The Lua
 * files are written to a scratch directory made once per process (on
 * /dev/shm, a file system in memory, when there is one), given as the
 * --source-root, and rewritten for each input: the source finder
 * (source/find.c) reads only real files, through realpath().  Seeds:
 * tests/fuzz/seeds.sh; dictionary: combined.dict. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include "dumpanalyze.h"
#include "fuzz_run.h"
#include "fuzz_combined_gen.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char scratch[96];
static const char *source_roots[1] = { scratch };
static int scratch_fd = -1;

/* What the last input wrote there, undone before the next one. */
static char written[GEN_NAMES][128];
static size_t nwritten;
static char made[GEN_NAMES * 4][128];
static size_t nmade;

static void scratch_clear(void)
{
	for (size_t i = 0; i < nwritten; i++)
		unlinkat(scratch_fd, written[i], 0);
	for (size_t i = nmade; i-- > 0;)
		unlinkat(scratch_fd, made[i], AT_REMOVEDIR);
	nwritten = nmade = 0;
}

static void scratch_remove(void)
{
	scratch_clear();
	rmdir(scratch);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/* The scratch directory is named for the process; a crash ends it
 * without atexit (libFuzzer's own death callback runs, not ours), so
 * the directories of processes gone are removed first. */
static void scratch_make(void)
{
	const char *tmp = access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm"
	                  : getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	DIR *d = opendir(tmp);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		long pid;
		char end;
		if (sscanf(e->d_name, "fuzz_combined.%ld%c", &pid, &end) != 1 || pid <= 0 ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		char old[300];
		snprintf(old, sizeof(old), "%s/%s", tmp, e->d_name);
		nftw(old, remove_one, 8, FTW_DEPTH | FTW_PHYS);
	}
	if (d)
		closedir(d);
	snprintf(scratch, sizeof(scratch), "%.40s/fuzz_combined.%ld", tmp, (long)getpid());
	nftw(scratch, remove_one, 8, FTW_DEPTH | FTW_PHYS);
	FUZZ_CHECK(mkdir(scratch, 0700) == 0);
	scratch_fd = open(scratch, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	FUZZ_CHECK(scratch_fd >= 0);
	atexit(scratch_remove);
}

/* The file for name i of the dump, its directories made as needed. */
static void write_source(struct gen *g, size_t i)
{
	const struct gen_name *nm = &g->names[i];
	if (!gen_name_writable(g, i) || gen_source(g, i) != 0)
		return;
	char rel[128];
	memcpy(rel, nm->p, nm->n);
	rel[nm->n] = '\0';
	for (char *s = strchr(rel, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdirat(scratch_fd, rel, 0700) == 0 && nmade < sizeof(made) / sizeof(*made))
			memcpy(made[nmade++], rel, (size_t)(s - rel) + 1);
		*s = '/';
	}
	int fd = openat(scratch_fd, rel, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return;                 /* a name that is a directory here too */
	memcpy(written[nwritten++], rel, nm->n + 1);
	FUZZ_CHECK(write(fd, g->text.p, g->text.n) == (ssize_t)g->text.n);
	close(fd);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	fuzz_setup((*argv)[0]);
	scratch_make();
	return 0;
}

/* The views beside summary, findings and source (which every input
 * runs: the source pages are where stacks and the dump meet), one group
 * per input by byte 0, so that each run stays short and every view is
 * reached.  The pictures (cairo, 10 to 20 ms each: fontconfig starts
 * afresh for each) only for one input of their group in 16: the flame
 * graph, the bushes, and the report when it has stacks (it brings the
 * flame graph along). */
static const char *group_views(unsigned group, int jp, int stacks, int sp, int pictures)
{
	int flame = stacks || sp;
	switch (group) {
	case 0: return "traces,abort-reasons,abort-sites,exits";
	case 1: return "abort-reasons-txt,blacklist,bush-txt";
	case 2: return "jsonl,files";
	case 3: return "sarif,problems,codequality";
	case 4: return jp && sp ? "profile,sysprof,files" : jp ? "profile,files" : "sysprof,files";
	case 5: return !flame || pictures ? "html" : jp ? "profile,jsonl" : "sysprof,jsonl";
	case 6: return flame && pictures ? "flamegraph" : jp ? "profile,traces" : "sysprof,traces";
	default: return pictures ? "bush-svg,bush-png" : "traces,bush-txt,jsonl";
	}
}

/* The lists by kind of profile, group and pictures, made once: their
 * addresses stay the same for fuzz_run.c's cache of what they need. */
static const char *views_for(unsigned kind, unsigned group, int pictures, int stacks_known)
{
	static char lists[4][8][2][2][96];
	int jp = kind != 2, stacks = kind & 1, sp = kind >= 2;
	char *l = lists[kind][group][pictures][stacks_known];
	if (!l[0])
		snprintf(l, sizeof(lists[0][0][0][0]), "summary,findings,source,%s",
		         group_views(group, jp, stacks && stacks_known, sp, pictures));
	return l;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct gen g;
	static const char *const expect[] = { "summary.txt", "findings.csv", "source.txt", NULL };
	gen_read(&g, data, size);
	unsigned kind = g.what & 3, group = (g.what >> 2) & 7, ways = g.what >> 5;
	/* not at 0, which mutations make often */
	int pictures = (g.recipe[2] & 15) == 15;
	int jp = kind != 2, sp = kind >= 2;
	if (jp)
		gen_jp(&g, kind & 1);
	if (sp)
		gen_sysprof(&g);
	scratch_clear();
	for (size_t i = 0; i < g.nnames; i++)
		write_source(&g, i);
	struct fuzz_run run = {
		/* a -jp profile that reads as lines gets no flame graph */
		.views = views_for(kind, group, pictures, sp),
		.views_stacks = views_for(kind, group, pictures, 1),
		.flags = DA_NO_THREAD | (ways == 4 ? DA_NOTES : 0) | (ways == 6 ? DA_CALLBACK_ONLY : 0) |
		         (ways == 7 ? DA_STRICT : 0),
		.push = ways == 5,
		.expect = expect,
		.profile = jp ? g.jp.p : NULL,
		.profile_len = g.jp.n,
		.sysprof = sp ? g.sysprof.p : NULL,
		.sysprof_len = g.sysprof.n,
		.roots = source_roots,
		.nroots = 1,
	};
	/* (a profile naming a chunk with ';' or a newline in it may not
	 * read: DA_EFORMAT, as the tool's exit 3) */
	fuzz_render(g.dump, g.dump_len, &run);
	return 0;
}
