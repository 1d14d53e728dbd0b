/* place.c — where a finding is, from the Lua source when it can be read:
 * the extent of the loop or function its attempts start at (the block
 * structure, source/blocks.c: basis "source"), else down to the last line
 * below its start that its failed attempts recorded in its file (abort
 * lines, luajit2's "(file:line)": basis "trace"), else its line alone
 * (basis "line");
 * and the whitespace-normalised text of its start's and failing line,
 * with the index among equal texts, for its identity.  Files are found
 * by the finder only (source/find.c), each read once per run (lines.c). */
#include <stdlib.h>
#include <string.h>
#include "findings/findings.h"
#include "findings/lines.h"
#include "source/blocks.h"
#include "util/alloc.h"

/* The normalised text of a line, interned, and its index among equal
 * texts before it; NULL past the end of the file or for an empty line. */
static const char *text_of(const struct text_file *t, int32_t line, uint32_t *index,
                           struct intern *text)
{
	const char *l = text_file_line(t, line, index);
	return l ? intern_get(text, l, strlen(l)) : NULL;
}

void place_drafts(struct draft *d, size_t n, struct text_files *fs, struct intern *text)
{
	const unsigned loops = 1u << BLOCK_FOR | 1u << BLOCK_WHILE | 1u << BLOCK_REPEAT;
	for (size_t i = 0; i < n; i++) {
		struct draft *x = &d[i];
		struct da_finding *p = &x->pub;
		if (!p->file || p->line == DA_NO_LINE)
			continue;
		/* (text_file_get may move the array: each pointer is used
		 * before the next call); the start's file is read first */
		text_file_get(fs, p->file, intern_len(p->file));
		if (p->at_file && p->at_line != DA_NO_LINE)
			p->at_text = text_of(text_file_get(fs, p->at_file, intern_len(p->at_file)),
			                     p->at_line, &x->at_index, text);
		const struct text_file *t = text_file_get(fs, p->file, intern_len(p->file));
		p->start_text = text_of(t, p->line, &x->start_index, text);
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
}
