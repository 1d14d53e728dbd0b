/* lines.c — the Lua files a run reads for its findings and fingerprints,
 * each read once; see lines.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "findings/lines.h"
#include "findings/findings.h"
#include "util/alloc.h"

void text_files_init(struct text_files *fs, struct source_finder *finder, struct diag *diag)
{
	memset(fs, 0, sizeof(*fs));
	fs->finder = finder;
	fs->diag = diag;
	intern_init(&fs->names);
	tally_init(&fs->ix);
}

/* Lines as LuaJIT counts them (blocks.c): \n, \r, \r\n, \n\r each end
 * one; each normalised, with its index among the equal texts before it
 * (counted in a tally keyed by the text's intern). */
static void split(struct text_file *t, const char *s, size_t n)
{
	size_t cap = 0, icap = 0;
	struct intern texts;
	struct tally seen;
	intern_init(&texts);
	tally_init(&seen);
	for (size_t i = 0; i <= n;) {
		size_t e = i;
		while (e < n && s[e] != '\n' && s[e] != '\r')
			e++;
		if (e == n && i == n)
			break;
		ALLOC_GROW(t->norm, t->nlines + 1, cap);
		ALLOC_GROW(t->index, t->nlines + 1, icap);
		char *l = xrealloc(NULL, e - i + 1);
		size_t len = identity_normalise(s + i, e - i, l);
		const char *key = intern_get(&texts, l, len);
		t->index[t->nlines] = (uint32_t)tally_get(&seen, key, NULL, 0);
		tally_add(&seen, key, NULL, 0, 1);
		t->norm[t->nlines++] = l;
		if (e < n && e + 1 < n && (s[e + 1] == '\n' || s[e + 1] == '\r') && s[e + 1] != s[e])
			e++;
		i = e + 1;
	}
	tally_free(&seen);
	intern_free(&texts);
}

/* Each line's innermost function (blocks open in order of their first
 * line: an inner one comes later and overwrites its parent's lines), and
 * its index among the equal texts of that function before it. */
static void scopes(struct text_file *t)
{
	size_t n = t->nlines ? t->nlines : 1;
	t->scope = xrealloc(NULL, n * sizeof(*t->scope));
	t->scope_index = xrealloc(NULL, n * sizeof(*t->scope_index));
	memset(t->scope, 0, n * sizeof(*t->scope));
	for (size_t i = 0; t->balanced && i < t->blocks.n; i++) {
		const struct block *b = &t->blocks.v[i];
		if (b->kind != BLOCK_FUNCTION)
			continue;
		for (int32_t l = b->first; l <= b->last && (size_t)l <= t->nlines; l++)
			if (l >= 1)
				t->scope[l - 1] = b->first;
	}
	struct intern texts;
	struct tally seen;
	intern_init(&texts);
	tally_init(&seen);
	for (size_t i = 0; i < t->nlines; i++) {
		const char *key = intern_get(&texts, t->norm[i], strlen(t->norm[i]));
		t->scope_index[i] = (uint32_t)tally_get(&seen, key, NULL, t->scope[i]);
		tally_add(&seen, key, NULL, t->scope[i], 1);
	}
	tally_free(&seen);
	intern_free(&texts);
}

static void read_file(struct text_files *fs, struct text_file *t, size_t nl)
{
	size_t len, amb;
	if (!fs->finder || chunk_classify(t->name, nl, 1) != CHUNK_FILE)
		return;
	char *text = NULL, *shown = NULL;
	if (source_find(fs->finder, t->name, nl, &text, &len, &shown, &amb) != CHUNK_FILE)
		return;
	t->read = 1;
	split(t, text, len);
	t->balanced = blocks_scan(&t->blocks, text, len) == 0;
	scopes(t);
	if (!t->balanced && fs->diag && fs->diag->fn && fs->diag->verbose)
		fs->diag->fn(fs->diag->fn_data, DA_NOTE, shown, (uint64_t)t->blocks.bad_line,
		             "the block structure does not balance here: findings in this file "
		             "take their extents from the dump");
	free(text);
	free(shown);
}

const struct text_file *text_file_get(struct text_files *fs, const char *name, size_t n)
{
	const char *key = intern_get(&fs->names, name, n);
	uint64_t k = tally_get(&fs->ix, key, NULL, 0);
	if (k)
		return &fs->v[k - 1];
	ALLOC_GROW(fs->v, fs->n + 1, fs->cap);
	tally_add(&fs->ix, key, NULL, 0, fs->n + 1);
	struct text_file *t = &fs->v[fs->n++];
	memset(t, 0, sizeof(*t));
	t->name = key;
	read_file(fs, t, n);
	return t;
}

const char *text_file_line(const struct text_file *t, int32_t line, uint32_t *index)
{
	if (!t || !t->read || line < 1 || (size_t)line > t->nlines || !t->norm[line - 1][0])
		return NULL;
	*index = t->index[line - 1];
	return t->norm[line - 1];
}

int text_files_fingerprint(struct text_files *fs, const char *name, size_t n, int32_t line,
                           char out[13])
{
	uint32_t k, j = 0;
	const struct text_file *t = text_file_get(fs, name, n);
	const char *s = line >= 1 ? text_file_line(t, line, &k) : NULL;
	if (!s)
		return -1;
	int32_t scope = t->scope[line - 1];
	const char *fn = scope ? t->norm[scope - 1] : "";
	if (scope)
		j = t->index[scope - 1];
	size_t len = strlen(s) + strlen(fn) + 48;
	char *buf = xrealloc(NULL, len);
	int m = snprintf(buf, len, "F:%s#%u|L:%s#%u", fn, j, s, t->scope_index[line - 1]);
	identity_hash(buf, (size_t)m, out);
	free(buf);
	return 0;
}

void text_files_free(struct text_files *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		for (size_t k = 0; k < fs->v[i].nlines; k++)
			free(fs->v[i].norm[k]);
		free(fs->v[i].norm);
		free(fs->v[i].index);
		free(fs->v[i].scope);
		free(fs->v[i].scope_index);
		blocks_free(&fs->v[i].blocks);
	}
	free(fs->v);
	tally_free(&fs->ix);
	intern_free(&fs->names);
	memset(fs, 0, sizeof(*fs));
}
