/* fnextent.c — the extents of the Lua functions a profile by function
 * names (Tarantool's sysprof: a chunk and the function's defining line),
 * from their source: each chunk's file as the run reads it (lines.c:
 * found by the finder, read once), its block structure (source/blocks.c).
 * A function's last line is that of the function block whose keyword is
 * on its defining line (of several on one line, the one that ends last:
 * the profile cannot tell them apart), a main chunk's (line 0) the
 * file's last.  What is not read keeps
 * SP_LAST_UNKNOWN: a file not found, not a file, or whose blocks do not
 * balance. */
#include "findings/fnextent.h"
#include "source/blocks.h"

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

void fn_extents_sysprof(struct sysprof *p, struct text_files *fs)
{
	for (size_t i = 0; i < p->nfuncs; i++) {
		struct sp_func *f = &p->funcs[i];
		f->last = SP_LAST_UNKNOWN;
		if (!f->file || f->line < 0)
			continue;
		const struct text_file *t = text_file_get(fs, f->file, intern_len(f->file));
		if (t->read && t->balanced)
			f->last = function_last(&t->blocks, f->line);
	}
}
