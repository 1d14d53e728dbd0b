/* rundir_commit.c — a run's commit: the plan (what moves in, what is set
 * aside, which directories come and go) from the staging directory and
 * the previous run's manifests, made durable as an intent record, then
 * carried out (rundir_apply); the warnings after it.  See rundir.h and,
 * for the steps, commit.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "outdir/rundir_impl.h"
#include "output/message.h"
#include "util/alloc.h"

#define SHOWN_FOREIGN 5         /* files named in the warning */

/* What the commit is about to do, and what it learnt doing so. */
struct plan {
	struct journal j;
	char **subs;                /* new subdirectories (several dumps) */
	size_t nsubs;
	char **old_views, **new_views;
	size_t nold_views, nnew_views;
	char **replaced;            /* files of others a new one replaces */
	size_t nreplaced;
};

static int visible(const char *name)
{
	return name[0] != '.';
}

static void free_list(char **list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

static void add_views(char ***list, size_t *n, const struct manifest *m)
{
	for (size_t i = 0; i < m->nviews; i++)
		manifest_add(list, n, m->views[i]);
}

/* The files of DIR/PATH (not hidden, not the manifest), sorted. */
static int list_files(const struct fs *fs, int dir, const char *path, char ***files, size_t *n)
{
	char **names;
	size_t k;
	*files = NULL;
	*n = 0;
	int r = FS_CALL(fs, list, dir, path, &names, &k);
	if (r < 0)
		return r;
	for (size_t i = 0; i < k; i++) {
		if (!visible(names[i]) || strcmp(names[i], MANIFEST_NAME) == 0)
			continue;
		char *full = rundir_join(path, names[i]);
		struct fs_stat st;
		if (FS_CALL(fs, stat, dir, full, &st) == 0 && st.type == FS_FILE)
			manifest_add(files, n, names[i]);
		free(full);
	}
	fs_list_free(names, k);
	manifest_sort(*files, *n);
	return 0;
}

/* The staged files: m's files, and for each of m's dirs whose manifest
 * is staged, their files (the others dropped from m).  0 or an errno. */
static int staged(struct rundir *r, struct manifest *m, struct plan *p)
{
	for (size_t i = 0; i < m->nfiles; i++)
		free(m->files[i]);
	free(m->files);
	m->files = NULL;
	m->nfiles = 0;
	int e = list_files(r->fs, r->stage_fd, ".", &m->files, &m->nfiles);
	if (e < 0)
		return e;
	for (size_t i = 0; i < m->nfiles; i++)
		journal_add(&p->j.moves, &p->j.nmoves, m->files[i]);
	manifest_sort(m->dirs, m->ndirs);
	char **dirs = m->dirs;
	size_t ndirs = m->ndirs;
	m->dirs = NULL;
	m->ndirs = 0;
	for (size_t i = 0; i < ndirs; i++) {
		struct manifest sub;
		char err[256];
		int d = FS_CALL(r->fs, open, r->stage_fd, dirs[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0);
		if (d < 0)
			continue;
		if (manifest_read_fs(r->fs, d, dirs[i], &sub, err, sizeof(err)) == 0) {
			add_views(&p->new_views, &p->nnew_views, &sub);
			manifest_free(&sub);
			char **files;
			size_t nf;
			e = list_files(r->fs, d, ".", &files, &nf);
			for (size_t k = 0; k < nf; k++) {
				char *path = rundir_join(dirs[i], files[k]);
				journal_add(&p->j.moves, &p->j.nmoves, path);
				free(path);
			}
			free_list(files, nf);
			/* its manifest last: a directory's manifest lists what is there */
			char *path = rundir_join(dirs[i], MANIFEST_NAME);
			journal_add(&p->j.moves, &p->j.nmoves, path);
			free(path);
			manifest_add(&m->dirs, &m->ndirs, dirs[i]);
			manifest_add(&p->subs, &p->nsubs, dirs[i]);
		}
		FS_CALL(r->fs, close, d);
		if (e < 0)
			break;
	}
	free_list(dirs, ndirs);
	add_views(&p->new_views, &p->nnew_views, m);
	return e;
}

static void set_aside(struct plan *p, const char *path)
{
	journal_add(&p->j.backups, &p->j.nbackups, path);
}

/* Set aside what of OUT/PATH is there and not a directory. */
static void set_aside_file(struct rundir *r, struct plan *p, const char *path)
{
	struct fs_stat st;
	if (FS_CALL(r->fs, stat, r->out_fd, path, &st) == 0 && st.type != FS_DIR)
		set_aside(p, path);
}

/* The previous run: its files set aside, its directories' too, those the
 * new run has not removed afterwards.  0, or a negative errno when its
 * manifest cannot be read (what says so). */
static int previous(struct rundir *r, struct plan *p, char *what, size_t len)
{
	struct manifest old;
	char err[256];
	int had = manifest_read_fs(r->fs, r->out_fd, r->out, &old, err, sizeof(err));
	if (had == -2) {
		/* Not knowing what is ours, the commit would leave it behind. */
		snprintf(what, len, "reading the previous run's manifest");
		return -EIO;
	}
	if (had < 0)
		msg_error("warning: %s; its files are left alone", err);
	if (had != 0)
		return 0;
	add_views(&p->old_views, &p->nold_views, &old);
	for (size_t i = 0; i < old.nfiles; i++)
		set_aside_file(r, p, old.files[i]);
	for (size_t i = 0; i < old.ndirs; i++) {
		const char *d = old.dirs[i];
		/* A real directory only: a link there could lead out of OUT. */
		int fd = FS_CALL(r->fs, open, r->out_fd, d, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0);
		if (fd < 0)
			continue;
		struct manifest sub;
		int e = manifest_read_fs(r->fs, fd, d, &sub, err, sizeof(err));
		if (e == -2) {
			FS_CALL(r->fs, close, fd);
			manifest_free(&old);
			snprintf(what, len, "reading %s/%s", d, MANIFEST_NAME);
			return -EIO;
		}
		if (e == 0) {
			add_views(&p->old_views, &p->nold_views, &sub);
			for (size_t k = 0; k < sub.nfiles; k++) {
				char *path = rundir_join(d, sub.files[k]);
				set_aside_file(r, p, path);
				free(path);
			}
			char *path = rundir_join(d, MANIFEST_NAME);
			set_aside_file(r, p, path);
			free(path);
			manifest_free(&sub);
		}
		FS_CALL(r->fs, close, fd);
		if (!manifest_has(p->subs, p->nsubs, d))
			journal_add(&p->j.rmdirs, &p->j.nrmdirs, d);
	}
	manifest_free(&old);
	return 0;
}

/* Names the new run writes where something else is: a file is set aside
 * (a file of ours is already), anything in the way of a directory must
 * be a file of the previous run.  0, or -1 after a message. */
static int in_the_way(struct rundir *r, struct plan *p)
{
	manifest_sort(p->j.backups, p->j.nbackups);
	size_t listed = p->j.nbackups;
	/* The dumps' directories first: a name in one is looked at only
	 * when it is a real directory, never through a link. */
	char **real = NULL;
	size_t nreal = 0;
	for (size_t i = 0; i < p->nsubs; i++) {
		struct fs_stat st;
		int e = FS_CALL(r->fs, stat, r->out_fd, p->subs[i], &st);
		if (e == 0 && st.type == FS_DIR) {
			manifest_add(&real, &nreal, p->subs[i]);
			continue;
		}
		if (e == 0 && !manifest_has(p->j.backups, listed, p->subs[i])) {
			msg_error("%s/%s is in the way of the directory of a dump (it is not one, and "
			          "dumpanalyze did not write it); nothing written", r->out, p->subs[i]);
			free_list(real, nreal);
			return -1;
		}
		journal_add(&p->j.mkdirs, &p->j.nmkdirs, p->subs[i]);
	}
	int ret = 0;
	for (size_t i = 0; i < p->j.nmoves && ret == 0; i++) {
		const char *path = p->j.moves[i], *slash = strchr(path, '/');
		if (slash) {
			char d[4096];
			snprintf(d, sizeof(d), "%.*s", (int)(slash - path), path);
			if (!manifest_has(real, nreal, d))
				continue;
		}
		struct fs_stat st;
		if (FS_CALL(r->fs, stat, r->out_fd, path, &st) != 0)
			continue;
		if (st.type == FS_DIR) {
			msg_error("%s/%s is a directory dumpanalyze did not write, where this run writes "
			          "a file; nothing written", r->out, path);
			ret = -1;
		} else if (!manifest_has(p->j.backups, listed, path)) {
			set_aside(p, path);
			manifest_add(&p->replaced, &p->nreplaced, path);
		}
	}
	free_list(real, nreal);
	manifest_sort(p->j.backups, p->j.nbackups);
	return ret;
}

/* No input among the files the commit replaces or removes. */
static int spares_inputs(struct rundir *r, struct plan *p)
{
	if (rundir_refuse_input(r, r->out_fd, MANIFEST_NAME, "replace") < 0)
		return -1;
	for (size_t i = 0; i < p->j.nbackups; i++)
		if (rundir_refuse_input(r, r->out_fd, p->j.backups[i], "replace or remove") < 0)
			return -1;
	return 0;
}

/* Every staged file and directory on stable storage before the record
 * that will move them is: a record must never name what a power cut lost.
 * One syncfs: an fsync per file costs a flush of the disk's cache each
 * (bench/RESULTS.md). */
static int make_durable(struct rundir *r, char *what, size_t len)
{
	int e = FS_CALL(r->fs, syncfs, r->stage_fd);
	if (e < 0)
		snprintf(what, len, "syncing the staged files");
	return e;
}

/* "warning: DIR: 2 files not written by dumpanalyze, WHAT: a, b": the
 * first few names, sorted (list is sorted here). */
static void say_files(const char *dir, const char *what, char **list, size_t n)
{
	manifest_sort(list, n);
	char names[1024];
	size_t k = 0;
	names[0] = '\0';
	for (size_t i = 0; i < n && i < SHOWN_FOREIGN && k < sizeof(names); i++)
		k += (size_t)snprintf(names + k, sizeof(names) - k, "%s%s", i ? ", " : "", list[i]);
	msg_error("warning: %s: %zu file%s not written by dumpanalyze, %s: %s%s", dir, n,
	          n == 1 ? "" : "s", what, names, n > SHOWN_FOREIGN ? ", ..." : "");
}

/* Files in DIR (OUT or one of its dumps' directories) that the run did
 * not write: named in one warning. */
static void warn_foreign(struct rundir *r, const char *dir, char *const *files, size_t nfiles,
                         char *const *dirs, size_t ndirs)
{
	char **names;
	size_t n;
	if (FS_CALL(r->fs, list, r->out_fd, dir, &names, &n) < 0)
		return;
	char **foreign = NULL;
	size_t nf = 0;
	for (size_t i = 0; i < n; i++)
		/* a run set's recorded runs (runs/) sit beside its runs.csv */
		if (visible(names[i]) && strcmp(names[i], MANIFEST_NAME) != 0 &&
		    !manifest_has(files, nfiles, names[i]) && !manifest_has(dirs, ndirs, names[i]) &&
		    !(strcmp(names[i], RUNDIR_RUN_SET) == 0 && strcmp(dir, ".") == 0 &&
		      manifest_has(files, nfiles, "runs.csv")))
			manifest_add(&foreign, &nf, names[i]);
	fs_list_free(names, n);
	if (!nf)
		return;
	char *where = strcmp(dir, ".") == 0 ? NULL : rundir_join(r->out, dir);
	say_files(where ? where : r->out, "left alone", foreign, nf);
	free(where);
	free_list(foreign, nf);
}

static void warn_all_foreign(struct rundir *r, const struct manifest *m, const struct plan *p)
{
	warn_foreign(r, ".", m->files, m->nfiles, m->dirs, m->ndirs);
	for (size_t i = 0; i < p->nsubs; i++) {
		const char *d = p->subs[i];
		size_t len = strlen(d);
		char **files = NULL;
		size_t nf = 0;
		for (size_t k = 0; k < p->j.nmoves; k++)
			if (strncmp(p->j.moves[k], d, len) == 0 && p->j.moves[k][len] == '/')
				manifest_add(&files, &nf, p->j.moves[k] + len + 1);
		manifest_sort(files, nf);
		warn_foreign(r, d, files, nf, NULL, 0);
		free_list(files, nf);
	}
}

static void dropped_views(const struct plan *p, struct rundir_result *res)
{
	char **now = NULL;
	size_t nnow = 0;
	for (size_t i = 0; i < p->nnew_views; i++)
		manifest_add(&now, &nnow, p->new_views[i]);
	manifest_sort(now, nnow);
	for (size_t i = 0; i < p->nold_views; i++) {
		const char *v = p->old_views[i];
		if (!manifest_has(now, nnow, v) &&
		    !(res->ndropped && manifest_has(res->dropped, res->ndropped, v))) {
			manifest_add(&res->dropped, &res->ndropped, v);
			manifest_sort(res->dropped, res->ndropped);
		}
	}
	res->kept = now;
	res->nkept = nnow;
}

/* A dump of several: only its manifest, in its directory. */
static int commit_nested(struct rundir *r, struct manifest *m)
{
	int dir = FS_CALL(r->fs, open, FS_CWD, r->stage, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0);
	int e = dir;
	if (dir >= 0) {
		free_list(m->files, m->nfiles);
		m->files = NULL;
		m->nfiles = 0;
		e = list_files(r->fs, dir, ".", &m->files, &m->nfiles);
		uint64_t bytes;
		uint32_t crc;
		if (e == 0)
			e = manifest_write_fs(r->fs, dir, m, &bytes, &crc);
		FS_CALL(r->fs, close, dir);
	}
	if (e < 0) {
		msg_error("%s/%s: %s", r->out, MANIFEST_NAME, strerror(-e));
		return -1;
	}
	return 0;
}

static void plan_free(struct plan *p)
{
	journal_free(&p->j);
	free_list(p->subs, p->nsubs);
	free_list(p->old_views, p->nold_views);
	free_list(p->new_views, p->nnew_views);
	free_list(p->replaced, p->nreplaced);
}

int rundir_commit(struct rundir *r, struct manifest *m, struct rundir_result *res,
                  int *committed)
{
	memset(res, 0, sizeof(*res));
	*committed = 0;
	if (!r->stage_name)
		return commit_nested(r, m);
	struct plan p;
	memset(&p, 0, sizeof(p));
	p.j.pid = (long)getpid();
	char what[600] = "";
	int e = staged(r, m, &p);
	if (e < 0)
		snprintf(what, sizeof(what), "reading the staged files");
	if (e == 0) {
		e = manifest_write_fs(r->fs, r->stage_fd, m, &p.j.manifest_bytes, &p.j.manifest_crc);
		if (e < 0)
			snprintf(what, sizeof(what), "writing %s", MANIFEST_NAME);
	}
	int refused = 0;
	if (e == 0)
		e = previous(r, &p, what, sizeof(what));
	if (e == 0)
		refused = in_the_way(r, &p) < 0 || spares_inputs(r, &p) < 0;
	if (e == 0 && !refused)
		e = make_durable(r, what, sizeof(what));
	if (e == 0 && !refused) {
		/* the staging directory's entry in OUT is durable since the
		 * syncfs: the record's sync is enough */
		e = journal_write(r->fs, r->stage_fd, &p.j);
		if (e < 0)
			snprintf(what, sizeof(what), "writing the commit's record");
	}
	if (e < 0 || refused) {
		if (e < 0)
			msg_error("%s: cannot commit the run: %s: %s; it holds the previous run", r->out,
			          what, strerror(-e));
		plan_free(&p);
		rundir_discard(r);
		return -1;
	}
	enum applied a = rundir_apply(r->fs, r->out_fd, r->out, r->stage_fd, r->stage_name, &p.j,
	                              NULL);
	FS_CALL(r->fs, close, r->stage_fd);
	r->stage_fd = -1;
	*committed = a == APPLIED_FORWARD || a == APPLIED_UNSETTLED;
	if (*committed) {
		/* README promises a word on every file of others: these had
		 * the names of this run's files */
		if (p.nreplaced)
			say_files(r->out, "replaced by this run's", p.replaced, p.nreplaced);
		warn_all_foreign(r, m, &p);
		dropped_views(&p, res);
	}
	plan_free(&p);
	return a == APPLIED_FORWARD ? 0 : -1;
}

void rundir_result_free(struct rundir_result *res)
{
	free_list(res->dropped, res->ndropped);
	free_list(res->kept, res->nkept);
	memset(res, 0, sizeof(*res));
}
