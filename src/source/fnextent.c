/* fnextent.c — the extents of the Lua functions a profile by function
 * names (Tarantool's sysprof: a chunk and the function's defining line),
 * from their source: each chunk's file found by the finder and read once,
 * its block structure lexed (blocks.c).  A function's last line is that of
 * the function block whose keyword is on its defining line (of several on
 * one line, the one that ends last: the profile cannot tell them apart),
 * a main chunk's (line 0) the file's last.  What is not read keeps
 * SP_LAST_UNKNOWN: a file not found, not a file, or whose blocks do not
 * balance. */
#include <stdlib.h>
#include <string.h>
#include "source/fnextent.h"
#include "source/blocks.h"
#include "util/alloc.h"
#include "util/tally.h"

/* The last line of the function block(s) starting on line, or
 * SP_LAST_UNKNOWN. */
static int32_t function_last(const struct blocks *b, int32_t line)
{
	if (line == 0)
		return b->nlines;
	size_t lo = 0, hi = b->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (b->v[mid].first < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	int32_t last = SP_LAST_UNKNOWN;
	for (size_t i = lo; i < b->n && b->v[i].first == line; i++)
		if (b->v[i].kind == BLOCK_FUNCTION && b->v[i].last > last)
			last = b->v[i].last;
	return last;
}

void fn_extents_sysprof(struct sysprof *p, struct source_finder *finder)
{
	if (!finder || !finder->nroots || !p->nfuncs)
		return;
	struct tally files;         /* chunk (interned by p) -> blocks index + 1,
	                               or UINT64_MAX: not read */
	tally_init(&files);
	struct blocks *read = NULL;
	size_t nread = 0, cap = 0;
	for (size_t i = 0; i < p->nfuncs; i++) {
		struct sp_func *f = &p->funcs[i];
		f->last = SP_LAST_UNKNOWN;
		if (!f->file || f->line < 0)
			continue;
		uint64_t k = tally_get(&files, f->file, NULL, 0);
		if (!k) {
			size_t n = intern_len(f->file), len, amb;
			char *text = NULL, *shown = NULL;
			k = UINT64_MAX;
			if (chunk_classify(f->file, n, 1) == CHUNK_FILE &&
			    source_find(finder, f->file, n, &text, &len, &shown, &amb) == CHUNK_FILE) {
				ALLOC_GROW(read, nread + 1, cap);
				memset(&read[nread], 0, sizeof(read[nread]));
				if (blocks_scan(&read[nread], text, len) == 0)
					k = ++nread;
				else
					blocks_free(&read[nread]);
			}
			free(text);
			free(shown);
			tally_add(&files, f->file, NULL, 0, k);
		}
		if (k != UINT64_MAX)
			f->last = function_last(&read[k - 1], f->line);
	}
	for (size_t i = 0; i < nread; i++)
		blocks_free(&read[i]);
	free(read);
	tally_free(&files);
}
