/* manifest_in.c — a manifest checked field by field; see manifest_in.h. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "compare/manifest_in.h"
#include "output/message.h"
#include "output/termtext.h"
#include "util/alloc.h"

struct check {
	const char *shown;          /* DIR/manifest.json, for messages */
	int failed;
};

static void bad(struct check *c, const char *fmt, ...) DA_PRINTF(2, 3);
static void bad(struct check *c, const char *fmt, ...)
{
	if (c->failed)
		return;
	char what[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	msg_error("%s: %s", c->shown, what);
	c->failed = 1;
}

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}

static json_t *need(struct check *c, json_t *o, const char *key, int (*is)(const json_t *),
                    const char *what)
{
	json_t *v = json_object_get(o, key);
	if (!v || !is(v)) {
		bad(c, "\"%s\" %s %s", key, v ? "is not" : "is missing, it should be", what);
		return NULL;
	}
	return v;
}

static int is_object(const json_t *v) { return json_is_object(v); }
static int is_array(const json_t *v) { return json_is_array(v); }
static int is_string(const json_t *v) { return json_is_string(v); }
static int is_bool(const json_t *v) { return json_is_boolean(v); }
static int is_int(const json_t *v) { return json_is_integer(v); }
static int is_string_or_null(const json_t *v) { return json_is_string(v) || json_is_null(v); }

/* One entry of the directory: what a run writes, and all a comparison
 * opens. */
static int plain_name(const char *s)
{
	return s[0] && s[0] != '.' && !strchr(s, '/');
}

/* A list of strings into list; plain: each a name in the directory. */
static void names(struct check *c, json_t *o, const char *key, int plain, char ***list, size_t *n)
{
	json_t *a = need(c, o, key, is_array, "a list");
	size_t i;
	json_t *v;
	json_array_foreach(a, i, v) {
		const char *s = json_string_value(v);
		if (!s || !s[0]) {
			bad(c, "\"%s\" item %zu is not a name", key, i + 1);
			return;
		}
		if (plain && !plain_name(s)) {
			char *shown = term_text(s);
			bad(c, "\"%s\" item %zu, '%s', is not the name of an entry of the directory",
			    key, i + 1, shown);
			free(shown);
			return;
		}
		manifest_add(list, n, s);
	}
	manifest_sort(*list, *n);
	for (size_t k = 1; k < *n && !c->failed; k++)
		if (strcmp((*list)[k - 1], (*list)[k]) == 0) {
			char *shown = term_text((*list)[k]);
			bad(c, "\"%s\" names '%s' twice", key, shown);
			free(shown);
		}
}

static void dumps(struct check *c, json_t *o, struct manifest *m)
{
	json_t *a = need(c, o, "dumps", is_array, "a list");
	size_t i;
	json_t *v;
	json_array_foreach(a, i, v) {
		const char *path = json_string_value(json_object_get(v, "path"));
		json_t *bytes = json_object_get(v, "bytes"), *prof = json_object_get(v, "profile");
		json_t *sp = json_object_get(v, "sysprof");     /* only with one */
		if (!json_is_object(v) || !path || !json_is_integer(bytes) ||
		    json_integer_value(bytes) < 0 || !prof || !is_string_or_null(prof) ||
		    (sp && !json_is_string(sp))) {
			bad(c, "\"dumps\" item %zu is not {\"path\", \"bytes\", \"profile\"[, \"sysprof\"]}",
			    i + 1);
			return;
		}
		m->dumps = xrealloc(m->dumps, (m->ndumps + 1) * sizeof(*m->dumps));
		m->dumps[m->ndumps++] = (struct manifest_dump){
			dup_str(path), (uint64_t)json_integer_value(bytes),
			json_is_string(prof) ? dup_str(json_string_value(prof)) : NULL,
			sp ? dup_str(json_string_value(sp)) : NULL };
	}
}

static void fields(struct check *c, json_t *o, struct manifest *m)
{
	const char *tool = json_string_value(json_object_get(o, "tool"));
	if (!tool || strcmp(tool, "dumpanalyze") != 0) {
		bad(c, "not a dumpanalyze manifest (no \"tool\": \"dumpanalyze\")");
		return;
	}
	json_t *format = need(c, o, "format", is_int, "a number");
	if (format && (json_integer_value(format) < 1 ||
	               json_integer_value(format) > MANIFEST_FORMAT))
		bad(c, "\"format\" %" JSON_INTEGER_FORMAT " is not one this dumpanalyze reads (1 to %d)",
		    json_integer_value(format), MANIFEST_FORMAT);
	json_t *version = need(c, o, "version", is_string, "a string");
	m->version = dup_str(version ? json_string_value(version) : "?");
	dumps(c, o, m);
	json_t *opts = need(c, o, "options", is_object, "an object");
	json_t *views = opts ? need(c, opts, "views", is_string_or_null, "a string or null") : NULL;
	json_t *strict = opts ? need(c, opts, "strict", is_bool, "true or false") : NULL;
	m->views_option = json_is_string(views) ? dup_str(json_string_value(views)) : NULL;
	m->strict = json_is_true(strict);
	names(c, o, "views", 0, &m->views, &m->nviews);
	m->complete = json_is_true(need(c, o, "complete", is_bool, "true or false"));
	json_t *st = need(c, o, "exit_status", is_int, "a number");
	if (st && (json_integer_value(st) < 0 || json_integer_value(st) > 255))
		bad(c, "\"exit_status\" %" JSON_INTEGER_FORMAT " is not an exit status",
		    json_integer_value(st));
	m->exit_status = st ? (int)json_integer_value(st) : 0;
	names(c, o, "files", 1, &m->files, &m->nfiles);
	names(c, o, "dirs", 1, &m->dirs, &m->ndirs);
	json_t *jit = json_object_get(o, "jit_events");
	if (jit && !json_is_boolean(jit))
		bad(c, "\"jit_events\" is not true or false");
	m->jit_events = !jit ? 0 : json_is_true(jit) ? 1 : -1;
}

int manifest_in_read(const struct runfile_dir *d, struct manifest *m)
{
	memset(m, 0, sizeof(*m));
	struct runfile f;
	int rc = runfile_open(&f, d, MANIFEST_NAME, RUNFILE_MANIFEST_MAX, 1);
	size_t len = 0;
	char *text = rc == 0 ? runfile_slurp(&f, &len) : NULL;
	struct check c = { f.shown, rc != 0 || !text };
	json_t *o = NULL;
	if (!c.failed) {
		json_error_t je;
		o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
		if (!o) {
			char *why = term_text(je.text);
			bad(&c, "not JSON (line %d, column %d: %s)", je.line, je.column, why);
			free(why);
		} else if (!json_is_object(o)) {
			bad(&c, "not a dumpanalyze manifest (not a JSON object)");
		} else {
			fields(&c, o, m);
		}
	}
	json_decref(o);
	free(text);
	runfile_close(&f);
	if (rc > 0)
		return 1;
	if (c.failed) {
		manifest_free(m);
		return -1;
	}
	return 0;
}
