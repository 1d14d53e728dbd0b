/* fuzz_run.c — a dump through the tool's views for the fuzz targets (see
 * fuzz_run.h), as src/cli/run.c drives them: da_open_memory (or
 * da_open_push and da_feed), the profiles, -jp and sysprof
 * (da_use_profile, each from a memfd: the library reads it as it reads a
 * file), the source roots, the view set as the sink, da_step, the finish,
 * publish and sync; then the checks: every line accounted for, every
 * warning passed on, every expected file written. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "dumpanalyze.h"
#include "lib/api.h"
#include "outdir/fs_mem.h"
#include "outdir/outdir.h"
#include "profile/profile.h"
#include "views/view.h"
#include "fuzz_run.h"

void fuzz_failed(const char *what, const char *file, int line)
{
	fprintf(stderr, "%s:%d: fuzz check failed: %s\n", file, line, what);
	__builtin_trap();
}

static char root_buf[PATH_MAX];
static const char *roots[1];
static size_t nroots;
/* The profiles' bytes (-jp, sysprof) as files the library can open by
 * name. */
static int prof_fd = -1, sp_fd = -1;
static char prof_path[64], sp_path[64];

void fuzz_setup(const char *argv0)
{
	prof_fd = memfd_create("fuzz.prof", MFD_CLOEXEC);
	FUZZ_CHECK(prof_fd >= 0);
	snprintf(prof_path, sizeof(prof_path), "/proc/self/fd/%d", prof_fd);
	sp_fd = memfd_create("fuzz.sysprof", MFD_CLOEXEC);
	FUZZ_CHECK(sp_fd >= 0);
	snprintf(sp_path, sizeof(sp_path), "/proc/self/fd/%d", sp_fd);
	/* samples/lua holds the programs of the seeds' dumps: a seed that
	 * names annotated.lua gets its source pages. */
	char exe[PATH_MAX];
	if (!realpath(argv0, exe))
		return;
	char *slash = strrchr(exe, '/');
	if (!slash)
		return;
	*slash = '\0';
	static const char up[] = "/../../samples/lua";
	if (strlen(exe) + sizeof(up) > sizeof(root_buf))
		return;
	char given[PATH_MAX];
	memcpy(given, exe, strlen(exe));
	memcpy(given + strlen(exe), up, sizeof(up));
	/* resolved once here, not through its ".." by every input's
	 * realpath() */
	if (realpath(given, root_buf) && access(root_buf, R_OK | X_OK) == 0) {
		roots[0] = root_buf;
		nroots = 1;
	}
}

/* ---- the output directory ----------------------------------------------- */

/* A file system in memory (fs_mem.c) for each run unless the caller gave
 * one: no file, no thread, no system call, and nothing left for the next
 * input to find. */
static struct outdir *out_open(const struct fuzz_run *run, struct fs **fs)
{
	*fs = run->fs ? run->fs : fs_mem_new();
	return outdir_open_fs(*fs, FUZZ_OUT, NULL);
}

static int out_has(const struct fs *fs, const char *name)
{
	char path[128];
	size_t len;
	snprintf(path, sizeof(path), FUZZ_OUT "/%s", name);
	return fs_mem_data(fs, path, &len) != NULL;
}

static void out_close(const struct fuzz_run *run, struct outdir *out, struct fs *fs)
{
	outdir_close(out);
	if (fs != run->fs)
		fs_mem_free(fs);
}

/* ---- the run ------------------------------------------------------------ */

/* Warnings passed on, every byte of every message read. */
struct seen {
	uint64_t warnings;
	size_t bytes;
};

static void on_diag(void *data, enum da_severity sev, const char *file, uint64_t line,
                    const char *msg)
{
	struct seen *s = data;
	/* a warning about the source directories (a base name several files
	 * match equally, a name found only through a hidden component, Lua
	 * files none holds; at line 0) is not counted: dumpanalyze.h */
	int about_source = line == 0 && (strstr(msg, " match it equally (") ||
	                                 strstr(msg, ": not read: the path goes through a hidden ") ||
	                                 strncmp(msg, "sources not found: ", 19) == 0);
	if (sev != DA_NOTE && !about_source)
		s->warnings++;
	s->bytes += strlen(file) + strlen(msg);
}

static void put_profile(int fd, const uint8_t *p, size_t n)
{
	FUZZ_CHECK(ftruncate(fd, 0) == 0);
	FUZZ_CHECK(n == 0 || pwrite(fd, p, n, 0) == (ssize_t)n);
}

/* What the views need of the library, whichever kind the profile is;
 * worked out once for each of the lists a target gives (it cost 3% of a
 * run), which are few and never freed: kept by their addresses. */
static unsigned views_need(const struct fuzz_run *run)
{
	struct known {
		const char *views, *views_stacks;
		int profile, sysprof;
		unsigned needs;
	};
	static struct known known[256];
	static size_t nknown;
	int profile = run->profile != NULL, sysprof = run->sysprof != NULL;
	for (size_t i = 0; i < nknown; i++)
		if (known[i].views == run->views && known[i].views_stacks == run->views_stacks &&
		    known[i].profile == profile && known[i].sysprof == sysprof)
			return known[i].needs;
	unsigned needs = 0;
	for (int stacks = 0; stacks < 2; stacks++) {
		const char *list = stacks && run->views_stacks ? run->views_stacks : run->views;
		unsigned have = !run->profile ? 0 : stacks ? NEEDS_PROFILE | NEEDS_STACKS : NEEDS_PROFILE;
		if (run->sysprof)
			have |= NEEDS_SYSPROF | NEEDS_STACKS;
		struct view_set s;
		char err[256];
		FUZZ_CHECK(view_set_init(&s, list, have, err, sizeof(err)) == 0);
		needs |= s.needs;
		view_set_discard(&s);
	}
	if (nknown < sizeof(known) / sizeof(*known))
		known[nknown++] = (struct known){ run->views, run->views_stacks, profile, sysprof,
		                                  needs };
	return needs;
}

int fuzz_render(const uint8_t *data, size_t size, const struct fuzz_run *run)
{
	unsigned needs = views_need(run);
	const char *name = run->name ? run->name : "fuzz.dump";
	struct view_set views;
	struct seen seen = { 0, 0 };
	struct da_options o = DA_OPTIONS(
		.flags = ((needs & NEEDS_TEXT) ? DA_KEEP_TEXT : 0) |
		         ((needs & NEEDS_FINDINGS) ? DA_FINDINGS : 0) | run->flags,
		.name = name,
		.sink = &view_set_sink,
		.sink_data = &views,
		.diag = on_diag,
		.diag_data = &seen,
	);
	int e;
	da_dump *d = run->push ? da_open_push(&o, &e) : da_open_memory(data, size, &o, &e);
	FUZZ_CHECK(d);
	const struct profile *p = NULL;
	if (run->profile) {
		put_profile(prof_fd, run->profile, run->profile_len);
		int r = da_use_profile(d, prof_path);
		/* not a profile (said through diag: the tool exits 3), or corrupt
		 * compressed data (exit 2); the memfd always opens */
		if (r == DA_EFORMAT || r == DA_EIO) {
			da_close(d);
			return r;
		}
		FUZZ_CHECK(r == 0);
		p = api_profile(d);
		FUZZ_CHECK(p && p->nlines);     /* a profile that reads has lines */
	}
	unsigned sp_have = 0;
	if (run->sysprof) {
		put_profile(sp_fd, run->sysprof, run->sysprof_len);
		int r = da_use_profile(d, sp_path);
		if (r == DA_EFORMAT || r == DA_EIO) {
			da_close(d);
			return r;
		}
		FUZZ_CHECK(r == 0 && api_sysprof(d));
		sp_have = NEEDS_SYSPROF | NEEDS_STACKS;
	}
	/* Lua files only where the tool would look: the current directory and
	 * the source root. */
	const char *const *r_roots = run->roots ? run->roots : roots;
	size_t r_n = run->roots ? run->nroots : run->no_root ? 0 : nroots;
	FUZZ_CHECK(da_use_source_root(d, ".", 0) == 0);
	for (size_t i = 0; i < r_n; i++)
		FUZZ_CHECK(da_use_source_root(d, r_roots[i], DA_SOURCE_BY_NAME) == 0);
	int stacks = p && p->kind == PROFILE_STACKS;
	const char *list = stacks && run->views_stacks ? run->views_stacks : run->views;
	const char *const *expect = stacks && run->expect_stacks ? run->expect_stacks : run->expect;
	unsigned have = sp_have | (!p ? 0 : stacks ? NEEDS_PROFILE | NEEDS_STACKS : NEEDS_PROFILE);
	char err[256];
	FUZZ_CHECK(view_set_init(&views, list, have, err, sizeof(err)) == 0);
	struct fs *fs;
	struct outdir *out = out_open(run, &fs);
	FUZZ_CHECK(out);
	view_set_attach(&views, out, d, name, 1, p);
	if (api_sysprof(d))
		view_set_sysprof(&views, api_sysprof(d));
	view_set_source_roots(&views, r_roots, r_n);
	for (size_t i = 0; i < views.n; i++)
		views.ctx[i].lines = da_line_counts(d);

	int r = 0;
	if (run->push) {
		size_t at = 0;
		while (r == 0 && at < size) {
			size_t n = 1 + data[at] % 64;
			n = n < size - at ? n : size - at;
			r = da_feed(d, data + at, n, at + n == size);
			at += n;
		}
		if (r == 0 && size == 0)
			r = da_feed(d, NULL, 0, 1);
	} else {
		while ((r = da_step(d)) > 0)
			;
	}
	/* Corrupt compressed data and --strict may end a run early; nothing
	 * else may (a view failing in memory is a bug). */
	FUZZ_CHECK(r == 0 || r == DA_EIO || (r == DA_ESTRICT && (o.flags & DA_STRICT)));
	int fin = view_set_finish(&views);
	FUZZ_CHECK(r < 0 || (fin == 0 && outdir_publish(out) == 0 && outdir_sync(out) == 0));
	const struct da_line_counts *c = da_line_counts(d);
	/* every line accounted for */
	FUZZ_CHECK(r < 0 || c->total == c->header + c->content + c->exit_regs + c->foreign + c->blank);
	/* every warning counted is passed on */
	FUZZ_CHECK(seen.warnings == da_warnings(d));
	/* A finished run wrote every view's files, even for no traces. */
	for (const char *const *x = expect; r == 0 && x && *x; x++)
		if (!out_has(fs, *x))
			fuzz_failed(*x, __FILE__, __LINE__);
	da_close(d);
	out_close(run, out, fs);
	return r;
}
