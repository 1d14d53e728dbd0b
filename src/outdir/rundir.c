/* rundir.c — the output directory a run owns: opened (locked, cleared of
 * what killed runs left, checked against the run's inputs), its staging
 * directory, let go; --recover.  The commit is rundir_commit.c's; see
 * rundir.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "outdir/outdir.h"
#include "outdir/rundir_impl.h"
#include "output/message.h"
#include "util/alloc.h"

static char *dup_text(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}

/* The input that is DIR/PATH (by device and inode), or NULL. */
static const struct rundir_input *input_at(const struct rundir *r, int dir, const char *path)
{
	struct fs_stat st;
	if (!r->ninputs || FS_CALL(r->fs, stat, dir, path, &st) < 0 || st.type != FS_FILE)
		return NULL;
	for (size_t i = 0; i < r->ninputs; i++)
		if (r->inputs[i].dev == st.dev && r->inputs[i].ino == st.ino)
			return &r->inputs[i];
	return NULL;
}

int rundir_refuse_input(const struct rundir *r, int dir, const char *path, const char *how)
{
	const struct rundir_input *in = input_at(r, dir, path);
	if (!in)
		return 0;
	char *target = rundir_join(r->out, path);
	msg_error("refusing to write over the %s %s: this run would %s %s%s", in->what, in->path,
	          how, target, strcmp(target, in->path) == 0 ? "" : " (the same file)");
	free(target);
	return -1;
}

/* The previous run's files (its manifest, what it lists, and what the
 * manifests of its directories list) against the inputs; in passing,
 * what older versions' killed runs left in those directories.  0, or -1
 * after a message. */
static int check_previous(struct rundir *r)
{
	struct manifest m;
	char err[256];
	int had = manifest_read_fs(r->fs, r->out_fd, r->out, &m, err, sizeof(err));
	if (had == -2)
		msg_error("%s", err);
	if (had != 0)
		return had == -2 ? -1 : 0;
	int ret = rundir_refuse_input(r, r->out_fd, MANIFEST_NAME, "replace");
	for (size_t i = 0; i < m.nfiles && ret == 0; i++)
		ret = rundir_refuse_input(r, r->out_fd, m.files[i], "replace or remove");
	for (size_t i = 0; i < m.ndirs && ret == 0; i++) {
		int d = FS_CALL(r->fs, open, r->out_fd, m.dirs[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0);
		if (d < 0)
			continue;
		struct manifest sub;
		int e = manifest_read_fs(r->fs, d, m.dirs[i], &sub, err, sizeof(err));
		if (e == -2) {
			msg_error("%s", err);
			ret = -1;
		}
		if (e == 0) {
			for (size_t k = 0; k < sub.nfiles && ret == 0; k++) {
				char *p = rundir_join(m.dirs[i], sub.files[k]);
				ret = rundir_refuse_input(r, r->out_fd, p, "replace or remove");
				free(p);
			}
			manifest_free(&sub);
		}
		struct rundir_cleanup c = { 0 };
		rundir_clean_leftovers(r->fs, d, m.dirs[i], 0, &c);
		FS_CALL(r->fs, close, d);
	}
	manifest_free(&m);
	return ret;
}

/* OUT made, opened and locked: 0, -1 after a message, or
 * RUNDIR_INTERRUPTED. */
static int take(struct rundir *r, const struct rundir_options *o, const char *out, int make,
                int *locked)
{
	memset(r, 0, sizeof(*r));
	r->fs = o->fs;
	r->out = dup_text(out);
	r->out_fd = r->stage_fd = -1;
	r->lock.fd = -1;
	r->inputs = o->inputs;
	r->ninputs = o->ninputs;
	if (make) {
		r->out_fd = outdir_make(r->fs, out);
	} else {
		r->out_fd = FS_CALL(r->fs, open, FS_CWD, out, O_RDONLY | O_DIRECTORY, 0);
		if (r->out_fd < 0)
			msg_error("%s: %s", out, strerror(-r->out_fd));
	}
	if (r->out_fd < 0)
		return -1;
	int l = outlock_take(&r->lock, r->fs, r->out_fd, out, o->wait, o->quiet);
	if (l < 0)
		return l == -EINTR ? RUNDIR_INTERRUPTED : -1;
	*locked = l == 0;
	return 0;
}

int rundir_open(struct rundir *r, const struct rundir_options *o, const char *out)
{
	int locked;
	int t = take(r, o, out, 1, &locked);
	if (t < 0)
		return t;
	struct rundir_cleanup c = { 0 };
	if (rundir_clean_leftovers(r->fs, r->out_fd, out, locked, &c) < 0 ||
	    check_previous(r) < 0)
		return -1;
	char name[64];
	snprintf(name, sizeof(name), "%s%ld", RUNDIR_STAGE_PREFIX, (long)getpid());
	r->stage_name = dup_text(name);
	r->stage = rundir_join(out, name);
	fs_remove_tree(r->fs, r->out_fd, name, 3);     /* a killed run's of this PID */
	int e = FS_CALL(r->fs, mkdir, r->out_fd, name);
	if (e >= 0)
		e = r->stage_fd = FS_CALL(r->fs, open, r->out_fd, name,
		                          O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0);
	if (e < 0) {
		msg_error("%s: cannot make the run's staging directory %s: %s", out, name, strerror(-e));
		return -1;
	}
	return 0;
}

void rundir_open_nested(struct rundir *r, const struct fs *fs, const char *dir, const char *shown)
{
	memset(r, 0, sizeof(*r));
	r->fs = fs;
	r->out = dup_text(shown);
	r->stage = dup_text(dir);
	r->out_fd = r->stage_fd = -1;
	r->lock.fd = -1;
}

void rundir_discard(struct rundir *r)
{
	if (r->stage_name && r->out_fd >= 0) {
		if (r->stage_fd >= 0)
			FS_CALL(r->fs, close, r->stage_fd);
		r->stage_fd = -1;
		fs_remove_tree(r->fs, r->out_fd, r->stage_name, 3);
	} else if (!r->stage_name && r->stage) {
		fs_remove_tree(r->fs, FS_CWD, r->stage, 1);
	}
}

void rundir_close(struct rundir *r)
{
	if (r->stage_fd >= 0)
		FS_CALL(r->fs, close, r->stage_fd);
	outlock_release(&r->lock);
	if (r->out_fd >= 0)
		FS_CALL(r->fs, close, r->out_fd);
	free(r->out);
	free(r->stage);
	free(r->stage_name);
	memset(r, 0, sizeof(*r));
	r->out_fd = r->stage_fd = r->lock.fd = -1;
}

int rundir_recover(const struct rundir_options *o, const char *out)
{
	struct rundir r;
	struct rundir_cleanup c = { .report = !o->quiet };
	int locked;
	int t = take(&r, o, out, 0, &locked);
	/* Say what was done, whatever it was: the lock a killed run left,
	 * a commit finished or undone, staging directories removed; or that there was nothing. */
	if (t == 0 && r.lock.found && c.report) {
		if (r.lock.found_pid)
			msg_error("%s: removed the lock of a killed run (PID %ld)", out, r.lock.found_pid);
		else
			msg_error("%s: removed the lock file a killed run left", out);
	}
	if (t == 0)
		t = rundir_clean_leftovers(r.fs, r.out_fd, out, locked, &c);
	if (t == 0 && !r.lock.found && !c.commits && !c.stages && !c.kept && c.report)
		msg_error("%s: nothing to recover: no interrupted commit, nothing a killed run left", out);
	rundir_close(&r);
	return t;
}

int rundir_pending(const char *out)
{
	const struct fs *fs = &fs_posix;
	int dir = FS_CALL(fs, open, FS_CWD, out, O_RDONLY | O_DIRECTORY, 0);
	if (dir < 0)
		return 0;
	char **names;
	size_t n;
	int pending = 0;
	if (FS_CALL(fs, list, dir, ".", &names, &n) == 0) {
		for (size_t i = 0; i < n && !pending; i++) {
			if (strncmp(names[i], RUNDIR_STAGE_PREFIX, strlen(RUNDIR_STAGE_PREFIX)) != 0)
				continue;
			int stage = FS_CALL(fs, open, dir, names[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0);
			struct journal j;
			if (stage >= 0 && journal_read(fs, stage, &j) == 0) {
				pending = 1;
				journal_free(&j);
			}
			if (stage >= 0)
				FS_CALL(fs, close, stage);
		}
		fs_list_free(names, n);
	}
	FS_CALL(fs, close, dir);
	return pending;
}
