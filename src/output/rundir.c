/* rundir.c — the output directory a run owns: staging, commit, and the
 * clean-up of earlier runs; see rundir.h. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "output/message.h"
#include "output/outdir.h"
#include "output/rundir.h"
#include "util/alloc.h"

#define SHOWN_FOREIGN 5         /* files named in the warning */

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = xrealloc(NULL, n);
	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* Remove the regular files of dir, then dir. */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d)) != NULL) {
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			char *p = join(dir, e->d_name);
			unlink(p);
			free(p);
		}
		closedir(d);
	}
	rmdir(dir);
}

/* The PID in NAME after prefix (".dumpanalyze-run.123") or after
 * ".tmp" at its end (".gen-1-traces.csv.tmp123", an older version's
 * temporary file), or 0. */
static long pid_in(const char *name)
{
	const char *digits = NULL;
	size_t pre = strlen(RUNDIR_STAGE_PREFIX);
	if (strncmp(name, RUNDIR_STAGE_PREFIX, pre) == 0) {
		digits = name + pre;
	} else if (name[0] == '.') {
		const char *t = strstr(name, ".tmp");
		while (t && strstr(t + 1, ".tmp"))
			t = strstr(t + 1, ".tmp");
		digits = t ? t + 4 : NULL;
	}
	if (!digits || !*digits)
		return 0;
	char *end;
	long pid = strtol(digits, &end, 10);
	return *end == '\0' && pid > 0 ? pid : 0;
}

/* A process that no longer runs (on this machine). */
static int dead(long pid)
{
	return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* What runs that were killed left in OUT. */
static void remove_leftovers(const char *out)
{
	DIR *d = opendir(out);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		long pid = pid_in(e->d_name);
		if (!pid || pid == (long)getpid() || !dead(pid))
			continue;
		char *p = join(out, e->d_name);
		struct stat st;
		if (lstat(p, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				remove_dir(p);
			else if (S_ISREG(st.st_mode))
				unlink(p);
		}
		free(p);
	}
	closedir(d);
}

int rundir_open(struct rundir *r, const char *out)
{
	memset(r, 0, sizeof(*r));
	/* outdir_open makes OUT and its parents, with its messages. */
	struct outdir *o = outdir_open(out);
	if (!o)
		return -1;
	outdir_close(o);
	remove_leftovers(out);
	size_t n = strlen(out) + strlen(RUNDIR_STAGE_PREFIX) + 32;
	r->out = join(out, "");
	r->out[strlen(r->out) - 1] = '\0';
	r->stage = xrealloc(NULL, n);
	snprintf(r->stage, n, "%s/%s%ld", out, RUNDIR_STAGE_PREFIX, (long)getpid());
	return 0;
}

void rundir_remove_run(const char *dir)
{
	struct manifest m;
	char err[256];
	if (manifest_read(dir, &m, err, sizeof(err)) != 0)
		return;
	for (size_t i = 0; i < m.nfiles; i++) {
		char *p = join(dir, m.files[i]);
		unlink(p);
		free(p);
	}
	for (size_t i = 0; i < m.ndirs; i++) {
		char *p = join(dir, m.dirs[i]);
		rundir_remove_run(p);
		free(p);
	}
	char *p = join(dir, MANIFEST_NAME);
	unlink(p);
	free(p);
	rmdir(dir);
	manifest_free(&m);
}

/* Move the staged files into OUT, listing them in m. */
static int move_staged(struct rundir *r, struct manifest *m)
{
	DIR *d = opendir(r->stage);
	if (!d)
		return errno == ENOENT ? 0 : -errno;    /* nothing was written */
	struct dirent *e;
	int err = 0;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		char *from = join(r->stage, e->d_name), *to = join(r->out, e->d_name);
		if (rename(from, to) == 0)
			manifest_add(&m->files, &m->nfiles, e->d_name);
		else if (!err)
			err = -errno;
		free(from);
		free(to);
	}
	closedir(d);
	return err;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Files in OUT that neither run wrote: named in one warning. */
static void warn_foreign(const struct rundir *r, const struct manifest *m)
{
	DIR *d = opendir(r->out);
	if (!d)
		return;
	char **foreign = NULL;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.' && strcmp(e->d_name, MANIFEST_NAME) != 0 &&
		    !manifest_has(m->files, m->nfiles, e->d_name) &&
		    !manifest_has(m->dirs, m->ndirs, e->d_name))
			manifest_add(&foreign, &n, e->d_name);
	closedir(d);
	if (!n)
		return;
	qsort(foreign, n, sizeof(*foreign), by_name);
	char list[1024];
	size_t k = 0;
	list[0] = '\0';
	for (size_t i = 0; i < n && i < SHOWN_FOREIGN && k < sizeof(list); i++)
		k += (size_t)snprintf(list + k, sizeof(list) - k, "%s%s", i ? ", " : "", foreign[i]);
	msg_error("warning: %s: %zu file%s not written by dumpanalyze, left alone: %s%s",
	          r->out, n, n == 1 ? "" : "s", list, n > SHOWN_FOREIGN ? ", ..." : "");
	for (size_t i = 0; i < n; i++)
		free(foreign[i]);
	free(foreign);
}

int rundir_commit(struct rundir *r, struct manifest *m)
{
	struct manifest old;
	char err[256];
	int had = manifest_read(r->out, &old, err, sizeof(err));
	if (had < 0)
		msg_error("warning: %s; its files are left alone", err);
	int e = move_staged(r, m);
	if (e < 0) {
		msg_error("%s: cannot move the files into place: %s", r->out, strerror(-e));
		if (had == 0)
			manifest_free(&old);
		return -1;
	}
	if (m->nfiles > 1)      /* qsort(NULL, 0) is undefined */
		qsort(m->files, m->nfiles, sizeof(*m->files), by_name);
	if (m->ndirs > 1)
		qsort(m->dirs, m->ndirs, sizeof(*m->dirs), by_name);
	if (had == 0) {
		for (size_t i = 0; i < old.nfiles; i++)
			if (!manifest_has(m->files, m->nfiles, old.files[i])) {
				char *p = join(r->out, old.files[i]);
				unlink(p);
				free(p);
			}
		for (size_t i = 0; i < old.ndirs; i++)
			if (!manifest_has(m->dirs, m->ndirs, old.dirs[i])) {
				char *p = join(r->out, old.dirs[i]);
				rundir_remove_run(p);
				free(p);
			}
		manifest_free(&old);
	}
	rmdir(r->stage);
	warn_foreign(r, m);
	return manifest_write(r->out, m);
}

void rundir_discard(struct rundir *r)
{
	if (r->stage)
		remove_dir(r->stage);
}

void rundir_free(struct rundir *r)
{
	free(r->out);
	free(r->stage);
	r->out = r->stage = NULL;
}
