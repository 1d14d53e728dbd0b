/* commit.c — carrying out a commit's intent record, forward or back; see
 * commit.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "outdir/commit.h"
#include "outdir/manifest.h"
#include "util/alloc.h"

/* 1 when DIR/PATH exists (whatever it is), 0 when not, or a negative
 * errno. */
static int exists(const struct fs *fs, int dir, const char *path)
{
	struct fs_stat st;
	int r = FS_CALL(fs, stat, dir, path, &st);
	return r == 0 ? 1 : r == -ENOENT ? 0 : r;
}

static char *old_name(const char *p)
{
	size_t n = strlen(JOURNAL_OLD) + strlen(p) + 2;
	char *s = xrealloc(NULL, n);
	snprintf(s, n, "%s/%s", JOURNAL_OLD, p);
	return s;
}

static int failed(struct commit *c, int err, const char *verb, const char *p)
{
	snprintf(c->what, sizeof(c->what), "%.40s %.400s", verb, p);
	return err;
}

static int in(char *const *list, size_t n, const char *p)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], p) == 0)
			return 1;
	return 0;
}

/* The directory part of "D/NAME" into buf, or 0 for a plain name. */
static int dir_of(const char *p, char *buf, size_t len)
{
	const char *slash = strchr(p, '/');
	if (!slash || (size_t)(slash - p) >= len)
		return 0;
	memcpy(buf, p, (size_t)(slash - p));
	buf[slash - p] = '\0';
	return 1;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Whether p is one of the files the record moves into OUT. */
static int moved_in(struct commit *c, const char *p)
{
	const struct journal *j = c->j;
	if (!j->nmoves)
		return 0;
	if (!c->moves_sorted) {
		c->moves_sorted = xrealloc(NULL, j->nmoves * sizeof(*c->moves_sorted));
		for (size_t i = 0; i < j->nmoves; i++)
			c->moves_sorted[i] = j->moves[i];
		qsort(c->moves_sorted, j->nmoves, sizeof(*c->moves_sorted), by_name);
	}
	return bsearch(&p, c->moves_sorted, j->nmoves, sizeof(*c->moves_sorted), by_name) != NULL;
}

void commit_free(struct commit *c)
{
	free(c->moves_sorted);
	c->moves_sorted = NULL;
}

/* DIR/PATH is a real directory, or nothing. */
static int dir_or_none(struct commit *c, int dir, const char *path)
{
	struct fs_stat st;
	int r = FS_CALL(c->fs, stat, dir, path, &st);
	if (r == -ENOENT || (r == 0 && st.type == FS_DIR))
		return 0;
	return failed(c, r < 0 ? r : -ENOTDIR, "checking", path);
}

/* The directories the record's paths go through, in OUT and in the
 * staging directory, are real ones or not there yet: a link in place of
 * one could lead out of OUT. */
static int check_dirs(struct commit *c, char *const *list, size_t n)
{
	char last[4096] = "", d[4096];
	int r = dir_or_none(c, c->stage, JOURNAL_OLD);
	for (size_t i = 0; i < n && r == 0; i++) {
		if (!dir_of(list[i], d, sizeof(d)) || strcmp(d, last) == 0)
			continue;
		snprintf(last, sizeof(last), "%s", d);
		char *od = old_name(d);
		r = dir_or_none(c, c->out, d);
		if (r == 0)
			r = dir_or_none(c, c->stage, d);
		if (r == 0)
			r = dir_or_none(c, c->stage, od);
		free(od);
	}
	return r;
}

/* check_dirs for every path of the record. */
static int check_all_dirs(struct commit *c)
{
	int r = check_dirs(c, c->j->backups, c->j->nbackups);
	return r < 0 ? r : check_dirs(c, c->j->moves, c->j->nmoves);
}

static int set_aside(struct commit *c)
{
	const struct fs *fs = c->fs;
	const struct journal *j = c->j;
	if (!j->nbackups)
		return 0;
	int r = FS_CALL(fs, mkdir, c->stage, JOURNAL_OLD);
	if (r < 0 && r != -EEXIST)
		return failed(c, r, "making", JOURNAL_OLD);
	for (size_t i = 0; i < j->nbackups; i++) {
		const char *p = j->backups[i];
		char d[4096];
		if (dir_of(p, d, sizeof(d))) {
			char *od = old_name(d);
			r = FS_CALL(fs, mkdir, c->stage, od);
			free(od);
			if (r < 0 && r != -EEXIST)
				return failed(c, r, "making a place for", p);
		}
		char *op = old_name(p);
		int done = exists(fs, c->stage, op), there = exists(fs, c->out, p);
		/* A name the new run moves in that is no longer staged was
		 * moved in: this step was done (or had nothing to do) then. */
		int moved = moved_in(c, p) ? !exists(fs, c->stage, p) : 0;
		r = done < 0 ? done : there < 0 ? there : 0;
		if (r == 0 && !done && there && !moved)
			r = FS_CALL(fs, rename, c->out, p, c->stage, op);
		free(op);
		if (r < 0)
			return failed(c, r, "setting aside", p);
	}
	return 0;
}

int commit_forward(struct commit *c)
{
	const struct fs *fs = c->fs;
	const struct journal *j = c->j;
	int r = check_all_dirs(c);
	if (r == 0)
		r = set_aside(c);
	if (r < 0)
		return r;
	for (size_t i = 0; i < j->nmkdirs; i++) {
		r = FS_CALL(fs, mkdir, c->out, j->mkdirs[i]);
		if (r == -EEXIST) {
			struct fs_stat st;
			r = FS_CALL(fs, stat, c->out, j->mkdirs[i], &st);
			if (r == 0 && st.type != FS_DIR)
				r = -ENOTDIR;
		}
		if (r < 0)
			return failed(c, r, "making", j->mkdirs[i]);
	}
	for (size_t i = 0; i < j->nmoves; i++) {
		const char *p = j->moves[i];
		int staged = exists(fs, c->stage, p);
		if (staged > 0)
			r = FS_CALL(fs, rename, c->stage, p, c->out, p);
		else if (staged == 0)   /* moved already, or lost */
			r = exists(fs, c->out, p) == 1 ? 0 : -ENOENT;
		else
			r = staged;
		if (r < 0)
			return failed(c, r, "moving into place", p);
	}
	int done = commit_done(c);
	if (done < 0)
		return failed(c, done, "checking", MANIFEST_NAME);
	if (!done) {
		r = FS_CALL(fs, rename, c->stage, MANIFEST_NAME, c->out, MANIFEST_NAME);
		if (r < 0)
			return failed(c, r, "moving into place", MANIFEST_NAME);
	}
	return 0;
}

/* Make OUT's and its subdirectories' entries durable: the directories of
 * the paths in list, and OUT. */
static int sync_dirs(struct commit *c, char *const *list, size_t n)
{
	char last[4096] = "";
	for (size_t i = 0; i < n; i++) {
		char d[4096];
		if (!dir_of(list[i], d, sizeof(d)) || strcmp(d, last) == 0)
			continue;
		snprintf(last, sizeof(last), "%s", d);
		int r = fs_sync_dir(c->fs, c->out, d);
		if (r < 0 && r != -ENOENT)
			return failed(c, r, "syncing", d);
	}
	int r = FS_CALL(c->fs, fsync, c->out);
	return r < 0 ? failed(c, r, "syncing", ".") : 0;
}

int commit_back(struct commit *c)
{
	const struct fs *fs = c->fs;
	const struct journal *j = c->j;
	int r = check_all_dirs(c);
	if (r < 0)
		return r;
	for (size_t i = j->nmoves; i-- > 0;) {
		const char *p = j->moves[i];
		int staged = exists(fs, c->stage, p), there = exists(fs, c->out, p);
		r = staged < 0 ? staged : there < 0 ? there : 0;
		if (r == 0 && !staged && there)
			r = FS_CALL(fs, rename, c->out, p, c->stage, p);
		if (r < 0)
			return failed(c, r, "taking back", p);
	}
	for (size_t i = j->nmkdirs; i-- > 0;) {
		r = FS_CALL(fs, rmdir, c->out, j->mkdirs[i]);
		/* Something not ours in it: it stays, unless a file set aside
		 * needs its name back. */
		if (r == -ENOTEMPTY || r == -EEXIST)
			r = in(j->backups, j->nbackups, j->mkdirs[i]) ? r : 0;
		if (r < 0 && r != -ENOENT)
			return failed(c, r, "removing", j->mkdirs[i]);
	}
	for (size_t i = j->nbackups; i-- > 0;) {
		const char *p = j->backups[i];
		char *op = old_name(p);
		int aside = exists(fs, c->stage, op);
		r = aside < 0 ? aside : aside ? FS_CALL(fs, rename, c->stage, op, c->out, p) : 0;
		free(op);
		if (r < 0)
			return failed(c, r, "putting back", p);
	}
	return sync_dirs(c, j->backups, j->nbackups);
}

int commit_settle(struct commit *c)
{
	const struct journal *j = c->j;
	int r = sync_dirs(c, j->moves, j->nmoves);
	if (r < 0)
		return r;
	for (size_t i = 0; i < j->nrmdirs; i++) {
		r = FS_CALL(c->fs, rmdir, c->out, j->rmdirs[i]);
		if (r < 0 && r != -ENOENT && r != -ENOTEMPTY && r != -EEXIST && r != -ENOTDIR)
			return failed(c, r, "removing", j->rmdirs[i]);
	}
	if (j->nrmdirs && (r = FS_CALL(c->fs, fsync, c->out)) < 0)
		return failed(c, r, "syncing", ".");
	return 0;
}

/* Whether DIR/manifest.json is the manifest the record names. */
static int manifest_is(struct commit *c, int dir)
{
	char *text;
	ssize_t n = fs_read_all(c->fs, dir, MANIFEST_NAME, MANIFEST_MAX, &text);
	if (n < 0)
		return 0;
	int same = (uint64_t)n == c->j->manifest_bytes &&
	           crc32(0L, (const Bytef *)text, (uInt)n) == c->j->manifest_crc;
	free(text);
	return same;
}

int commit_staged_ok(struct commit *c)
{
	return manifest_is(c, c->stage);
}

int commit_done(struct commit *c)
{
	int staged = exists(c->fs, c->stage, MANIFEST_NAME);
	if (staged != 0)
		return staged < 0 ? staged : 0;
	return manifest_is(c, c->out) ? 1 : -EBADMSG;
}
