/* manifest.c — reading and writing OUT/manifest.json; see manifest.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <zlib.h>
#include "outdir/fs.h"
#include "outdir/manifest.h"
#include "output/json.h"
#include "util/alloc.h"

static char *dup_text(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = xrealloc(NULL, n);
	memcpy(d, s, n);
	return d;
}

void manifest_add(char ***list, size_t *n, const char *name)
{
	*list = xrealloc(*list, (*n + 1) * sizeof(**list));
	(*list)[(*n)++] = dup_text(name);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void manifest_sort(char **list, size_t n)
{
	if (n)              /* qsort wants a real array even for none */
		qsort(list, n, sizeof(*list), by_name);
}

int manifest_has(char *const *list, size_t n, const char *name)
{
	return n && bsearch(&name, list, n, sizeof(*list), by_name) != NULL;
}

/* A name a manifest may hold: one entry of the directory, not hidden, no
 * path.  Anything else is not ours to touch. */
static int plain_name(const char *s)
{
	return s[0] && s[0] != '.' && !strchr(s, '/');
}

static json_t *names(char *const *list, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_text(list[i], strlen(list[i])));
	return a;
}

int manifest_write_fs(const struct fs *fs, int dir, struct manifest *m, uint64_t *bytes,
                      uint32_t *crc)
{
	manifest_sort(m->files, m->nfiles);
	manifest_sort(m->dirs, m->ndirs);
	json_t *o = json_object();
	json_object_set_new(o, "tool", json_string("dumpanalyze"));
	json_object_set_new(o, "format", json_integer(MANIFEST_FORMAT));
	json_object_set_new(o, "version", json_string(m->version));
	json_t *dumps = json_array();
	for (size_t i = 0; i < m->ndumps; i++) {
		const struct manifest_dump *d = &m->dumps[i];
		json_t *e = json_object();
		json_object_set_new(e, "path", json_text(d->path, strlen(d->path)));
		json_object_set_new(e, "bytes", json_integer((json_int_t)d->bytes));
		json_object_set_new(e, "profile", d->profile ? json_text(d->profile, strlen(d->profile))
		                                             : json_null());
		if (d->sysprof)
			json_object_set_new(e, "sysprof", json_text(d->sysprof, strlen(d->sysprof)));
		json_array_append_new(dumps, e);
	}
	json_object_set_new(o, "dumps", dumps);
	json_t *opts = json_object();
	json_object_set_new(opts, "views", m->views_option ? json_text(m->views_option,
	                                                               strlen(m->views_option))
	                                                   : json_null());
	json_object_set_new(opts, "strict", json_boolean(m->strict));
	json_object_set_new(o, "options", opts);
	json_object_set_new(o, "views", names(m->views, m->nviews));
	json_object_set_new(o, "complete", json_boolean(m->complete));
	json_object_set_new(o, "exit_status", json_integer(m->exit_status));
	if (m->jit_events)
		json_object_set_new(o, "jit_events", json_boolean(m->jit_events > 0));
	json_object_set_new(o, "files", names(m->files, m->nfiles));
	json_object_set_new(o, "dirs", names(m->dirs, m->ndirs));

	char *text = json_dumps(o, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(o);
	if (!text)
		out_of_memory();
	size_t n = strlen(text);
	text[n] = '\n';            /* over the NUL: the text ends with a newline */
	*bytes = n + 1;
	*crc = (uint32_t)crc32(0L, (const Bytef *)text, (uInt)(n + 1));
	int r = fs_write_file(fs, dir, MANIFEST_NAME, text, n + 1, 0);
	free(text);
	return r;
}

/* The strings of a JSON array that pass keep(), appended to list. */
static void read_names(json_t *a, char ***list, size_t *n, int (*keep)(const char *))
{
	size_t i;
	json_t *v;
	json_array_foreach(a, i, v)
		if (json_is_string(v) && (!keep || keep(json_string_value(v))))
			manifest_add(list, n, json_string_value(v));
	manifest_sort(*list, *n);
}

int manifest_read(const char *dir, struct manifest *m, char *err, size_t errlen)
{
	int fd = FS_CALL(&fs_posix, open, FS_CWD, dir, O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0) {
		memset(m, 0, sizeof(*m));
		if (fd == -ENOENT || fd == -ENOTDIR)
			return 1;
		snprintf(err, errlen, "%s: %s", dir, strerror(-fd));
		return -2;
	}
	int r = manifest_read_fs(&fs_posix, fd, dir, m, err, errlen);
	FS_CALL(&fs_posix, close, fd);
	return r;
}

int manifest_read_fs(const struct fs *fs, int dir, const char *name, struct manifest *m,
                     char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	char *text;
	ssize_t n = fs_read_all(fs, dir, MANIFEST_NAME, MANIFEST_MAX, &text);
	if (n == -ENOENT)
		return 1;
	if (n < 0) {
		snprintf(err, errlen, "%s/%s: %s", name, MANIFEST_NAME, strerror((int)-n));
		/* too large or not a file: not one of ours */
		return n == -EFBIG || n == -EINVAL || n == -ELOOP ? -1 : -2;
	}
	json_error_t je;
	json_t *o = json_loadb(text, (size_t)n, 0, &je);
	free(text);
	const char *tool = o ? json_string_value(json_object_get(o, "tool")) : NULL;
	if (!o || !json_is_object(o) || !tool || strcmp(tool, "dumpanalyze") != 0) {
		snprintf(err, errlen, "%s/%s: not a dumpanalyze manifest%s%s", name, MANIFEST_NAME,
		         o ? "" : ": ", o ? "" : je.text);
		json_decref(o);
		return -1;
	}
	const char *version = json_string_value(json_object_get(o, "version"));
	m->version = dup_text(version ? version : "?");
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(o, "dumps"), i, v) {
		const char *p = json_string_value(json_object_get(v, "path"));
		const char *prof = json_string_value(json_object_get(v, "profile"));
		m->dumps = xrealloc(m->dumps, (m->ndumps + 1) * sizeof(*m->dumps));
		struct manifest_dump *d = &m->dumps[m->ndumps++];
		d->path = dup_text(p ? p : "?");
		d->bytes = (uint64_t)json_integer_value(json_object_get(v, "bytes"));
		d->profile = prof ? dup_text(prof) : NULL;
		const char *sp = json_string_value(json_object_get(v, "sysprof"));
		d->sysprof = sp ? dup_text(sp) : NULL;
	}
	json_t *opts = json_object_get(o, "options");
	const char *views = json_string_value(json_object_get(opts, "views"));
	m->views_option = views ? dup_text(views) : NULL;
	m->strict = json_is_true(json_object_get(opts, "strict"));
	m->complete = json_is_true(json_object_get(o, "complete"));
	m->exit_status = (int)json_integer_value(json_object_get(o, "exit_status"));
	json_t *jit = json_object_get(o, "jit_events");
	m->jit_events = json_is_boolean(jit) ? (json_is_true(jit) ? 1 : -1) : 0;
	read_names(json_object_get(o, "views"), &m->views, &m->nviews, NULL);
	read_names(json_object_get(o, "files"), &m->files, &m->nfiles, plain_name);
	read_names(json_object_get(o, "dirs"), &m->dirs, &m->ndirs, plain_name);
	json_decref(o);
	return 0;
}

static void free_list(char **list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

void manifest_free(struct manifest *m)
{
	free(m->version);
	for (size_t i = 0; i < m->ndumps; i++) {
		free(m->dumps[i].path);
		free(m->dumps[i].profile);
		free(m->dumps[i].sysprof);
	}
	free(m->dumps);
	free_list(m->views, m->nviews);
	free(m->views_option);
	free_list(m->files, m->nfiles);
	free_list(m->dirs, m->ndirs);
	memset(m, 0, sizeof(*m));
}
