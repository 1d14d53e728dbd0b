/* place.c — where a finding is, from the Lua source when it can be read:
 * the extent of the loop or function its attempts start at (the block
 * structure, source/blocks.c: basis "source"), else down to the last line
 * below its start that its failed attempts recorded in its file (abort
 * lines, luajit2's "(file:line)": basis "trace"), else its line alone
 * (basis "line");
 * and the whitespace-normalised text of its start's and failing line,
 * with the index among equal texts, for its identity.  Files are found
 * by the finder only (source/find.c); each is read once and let go. */
#include <stdlib.h>
#include <string.h>
#include "findings/findings.h"
#include "source/blocks.h"
#include "util/alloc.h"
#include "util/diag.h"

/* A file read: its lines, normalised, and its blocks. */
struct text_file {
	const char *name;           /* the dump's, interned */
	int read;                   /* found and read */
	struct blocks blocks;
	int balanced;
	char **norm;                /* line k (1-based) at norm[k - 1] */
	size_t nlines;
};

static void split(struct text_file *t, const char *s, size_t n)
{
	size_t cap = 0;
	for (size_t i = 0; i <= n;) {
		/* lines end as LuaJIT counts them (blocks.c): \n, \r, \r\n, \n\r */
		size_t e = i;
		while (e < n && s[e] != '\n' && s[e] != '\r')
			e++;
		if (e == n && i == n)
			break;
		ALLOC_GROW(t->norm, t->nlines + 1, cap);
		char *l = xrealloc(NULL, e - i + 1);
		identity_normalise(s + i, e - i, l);
		t->norm[t->nlines++] = l;
		if (e < n && e + 1 < n && (s[e + 1] == '\n' || s[e + 1] == '\r') && s[e + 1] != s[e])
			e++;
		i = e + 1;
	}
}

struct text_files {
	struct text_file *v;
	size_t n, cap;
	struct tally ix;            /* name (interned) -> index + 1 */
};

static struct text_file *file_for(struct text_files *fs, const char *name,
                                  struct source_finder *finder, struct diag *diag)
{
	uint64_t k = tally_get(&fs->ix, name, NULL, 0);
	if (k)
		return &fs->v[k - 1];
	ALLOC_GROW(fs->v, fs->n + 1, fs->cap);
	tally_add(&fs->ix, name, NULL, 0, fs->n + 1);
	struct text_file *t = &fs->v[fs->n++];
	memset(t, 0, sizeof(*t));
	t->name = name;
	size_t nl = intern_len(name), len, amb;
	if (!finder || chunk_classify(name, nl, 1) != CHUNK_FILE)
		return t;
	char *text = NULL, *shown = NULL;
	if (source_find(finder, name, nl, &text, &len, &shown, &amb) != CHUNK_FILE)
		return t;
	t->read = 1;
	split(t, text, len);
	t->balanced = blocks_scan(&t->blocks, text, len) == 0;
	if (!t->balanced && diag && diag->fn && diag->verbose)
		diag->fn(diag->fn_data, DA_NOTE, shown, (uint64_t)t->blocks.bad_line,
		         "the block structure does not balance here: findings in this file "
		         "take their extents from the dump");
	free(text);
	free(shown);
	return t;
}

/* The normalised text of a line and its index among equal texts before
 * it; NULL past the end of the file or for an empty line. */
static const char *text_of(const struct text_file *t, int32_t line, uint32_t *index,
                           struct intern *text)
{
	if (!t || !t->read || line < 1 || (size_t)line > t->nlines || !t->norm[line - 1][0])
		return NULL;
	const char *l = t->norm[line - 1];
	uint32_t k = 0;
	for (int32_t i = 1; i < line; i++)
		k += strcmp(t->norm[i - 1], l) == 0;
	*index = k;
	return intern_get(text, l, strlen(l));
}

void place_drafts(struct draft *d, size_t n, struct source_finder *finder, struct diag *diag,
                  struct intern *text)
{
	struct text_files fs = { NULL, 0, 0, { NULL, 0, 0, 0 } };
	const unsigned loops = 1u << BLOCK_FOR | 1u << BLOCK_WHILE | 1u << BLOCK_REPEAT;
	for (size_t i = 0; i < n; i++) {
		struct draft *x = &d[i];
		struct da_finding *p = &x->pub;
		if (!p->file || p->line == DA_NO_LINE)
			continue;
		/* (file_for may move the array: pointers are taken after) */
		file_for(&fs, p->file, finder, diag);
		if (p->at_file && p->at_line != DA_NO_LINE)
			file_for(&fs, p->at_file, finder, diag);
		const struct text_file *t = file_for(&fs, p->file, finder, diag);
		const struct text_file *at = p->at_file && p->at_line != DA_NO_LINE
		                             ? file_for(&fs, p->at_file, finder, diag) : NULL;
		p->start_text = text_of(t, p->line, &x->start_index, text);
		if (at)
			p->at_text = text_of(at, p->at_line, &x->at_index, text);
		x->scope = "loop or function";
		x->ext_first = p->line;
		p->end_line = p->line;
		p->basis = DA_BASIS_NONE;
		const struct block *b = t->read && t->balanced ? blocks_starting(&t->blocks, p->line) : NULL;
		if (x->start && x->start->kind == START_ROOT) {
			if (b) {
				x->scope = block_is_loop(b) ? "loop" : "function";
				x->ext_first = b->first;
				p->end_line = b->last;
				p->basis = DA_BASIS_SOURCE;
				if (b->kind == BLOCK_FUNCTION) {
					x->fn_first = b->first;
					x->fn_last = b->last;
				}
			} else if (x->start->hi > p->line) {
				/* a loop's or function's body lies below its start:
				 * recorded lines above it are in callees */
				p->end_line = x->start->hi;
				p->basis = DA_BASIS_TRACE;
			} else {
				p->basis = DA_BASIS_LINE;
			}
		} else if (t->read && t->balanced) {
			/* an exit or another place: the code around it, for words */
			const struct block *around = blocks_around(&t->blocks, p->line,
			                                           loops | 1u << BLOCK_FUNCTION);
			if (around)
				x->scope = block_is_loop(around) ? "loop" : "function";
		}
	}
	for (size_t i = 0; i < fs.n; i++) {
		for (size_t k = 0; k < fs.v[i].nlines; k++)
			free(fs.v[i].norm[k]);
		free(fs.v[i].norm);
		blocks_free(&fs.v[i].blocks);
	}
	free(fs.v);
	tally_free(&fs.ix);
}
