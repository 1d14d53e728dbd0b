/* where.c — a finding's file as the tools that show findings on the code
 * see it; see where.h.  Each name is found once, by source_find (the
 * same rules as the source view and the library's extents), and its real
 * path made relative to the current directory, or to the --source-root
 * it lies in when that is outside the current directory. */
#define _XOPEN_SOURCE 700
#include <stdlib.h>
#include <string.h>
#include "views/where.h"
#include "dumpanalyze.h"
#include "util/alloc.h"

void where_init(struct where_map *m, struct source_finder *finder, const char *const *roots,
                size_t nroots)
{
	memset(m, 0, sizeof(*m));
	if (finder) {
		m->use = finder;
	} else {
		source_finder_init(&m->finder, roots, nroots);
		m->use = &m->finder;
	}
	m->cwd = realpath(".", NULL);
	m->nroots = nroots;
	m->roots = xrealloc(NULL, (nroots ? nroots : 1) * sizeof(*m->roots));
	for (size_t i = 0; i < nroots; i++)
		m->roots[i] = realpath(roots[i], NULL);
	tally_init(&m->ix);
}

void where_free(struct where_map *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free((char *)m->v[i].path);
		if (m->v[i].rel != m->v[i].path)
			free((char *)m->v[i].rel);
	}
	free(m->v);
	for (size_t i = 0; i < m->nroots; i++)
		free(m->roots[i]);
	free(m->roots);
	free(m->cwd);
	tally_free(&m->ix);
	source_finder_free(&m->finder);
	memset(m, 0, sizeof(*m));
}

static char *copy(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}

/* The part of real below dir, or NULL when real is not inside it. */
static const char *below(const char *dir, const char *real)
{
	if (!dir)
		return NULL;
	size_t n = strlen(dir);
	if (n == 1 && dir[0] == '/')
		return real[0] == '/' && real[1] ? real + 1 : NULL;
	if (strncmp(real, dir, n) != 0 || real[n] != '/' || !real[n + 1])
		return NULL;
	return real + n + 1;
}

static void place_file(struct where_map *m, struct where *w, const char *shown)
{
	char *real = realpath(shown, NULL);
	if (!real) {                /* gone since it was read */
		w->kind = WHERE_CHUNK;
		return;
	}
	w->kind = WHERE_FILE;
	const char *rel = below(m->cwd, real);
	if (rel) {
		w->path = copy(rel);
		w->rel = w->path;
		w->base = 0;
		free(real);
		return;
	}
	w->path = real;
	w->rel = w->path;
	w->base = -1;
	for (size_t i = 0; i < m->nroots; i++)
		if ((rel = below(m->roots[i], real)) != NULL) {
			w->rel = copy(rel);
			w->base = (int)i + 1;
			break;
		}
}

struct where where_of(struct where_map *m, const char *file, int32_t line)
{
	if (!file)
		return (struct where){ WHERE_RUN, NULL, -1, NULL };
	int has_line = line != DA_NO_LINE;
	uint64_t k = tally_get(&m->ix, file, NULL, has_line);
	if (k)
		return m->v[k - 1];
	ALLOC_GROW(m->v, m->n + 1, m->cap);
	struct where *w = &m->v[m->n++];
	*w = (struct where){ WHERE_CHUNK, NULL, -1, NULL };
	size_t n = strlen(file);
	if (chunk_classify(file, n, has_line) == CHUNK_FILE) {
		char *text = NULL, *shown = NULL;
		size_t len, ambiguous;
		if (source_find(m->use, file, n, &text, &len, &shown, &ambiguous) == CHUNK_FILE)
			place_file(m, w, shown);
		free(text);
		free(shown);
	}
	tally_add(&m->ix, file, NULL, has_line, m->n);
	return *w;
}
