/* place.c — where a finding is, from the Lua source when it can be read:
 * the extent of the loop or function its attempts start at (the block
 * structure, source/blocks.c: basis "source"), else down to the last line
 * below its start that its failed attempts recorded in its file (abort
 * lines, luajit2's "(file:line)": basis "trace"), else its line alone
 * (basis "line"); for an exit or a stitch, from its line (where the
 * interpreter resumes) to the end of the innermost loop or function
 * around it, the same way, less the lines it cannot reach: the later arms
 * of each if whose arm it resumes in (source/blocks.c);
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

/* The innermost block of a kind in mask that holds k, or NULL. */
static const struct block *outer(const struct blocks *b, const struct block *k, unsigned mask)
{
	do
		k = k->parent ? &b->v[k->parent - 1] : NULL;
	while (k && !(mask & 1u << k->kind));
	return k;
}

/* The loop or function an exit's or stitch's advice names: the innermost
 * around the line where its side traces failed, in that line's file (not
 * the closure a FNEW there creates: its FNEW runs in the code around it),
 * which holds the code to change; unknown without that file. */
static void name_scope(struct draft *x, struct text_files *fs)
{
	const struct da_finding *p = &x->pub;
	const unsigned mask = 1u << BLOCK_FOR | 1u << BLOCK_WHILE | 1u << BLOCK_REPEAT |
	                      1u << BLOCK_FUNCTION;
	if (!p->at_file || p->at_line == DA_NO_LINE)
		return;
	size_t n = intern_len(p->at_file);
	const struct text_file *t = text_file_get(fs, p->at_file, n);
	if (!t->read || !t->balanced)
		return;
	/* (the cause is another intern's copy) */
	int closure = p->cause_file && p->cause_line != DA_NO_LINE &&
	              intern_len(p->cause_file) == n && memcmp(p->cause_file, p->at_file, n) == 0;
	const struct block *k = blocks_around(&t->blocks, p->at_line, mask);
	while (k && k->kind == BLOCK_FUNCTION && closure && k->first == p->cause_line)
		k = outer(&t->blocks, k, mask);
	if (k) {
		x->scope = block_is_loop(k) ? "loop" : "function";
		x->scope_file = p->at_file;
		x->scope_line = k->first;
	}
}

/* A UCLO's cause: a closure the function around its failing line
 * creates.  LuaJIT closes upvalues where a block whose locals a closure
 * captured is left, and at every return of a function that creates any
 * closure (lj_parse.c, parse_return: PROTO_CHILD), so the fix is there:
 * the closure inside the innermost loop around the line if one is, else
 * the function's first. */
static void uclo_cause(struct draft *x, struct text_files *fs)
{
	struct da_finding *p = &x->pub;
	if (p->cause_file || !p->reason || !strstr(p->reason, "UCLO") || !p->at_file ||
	    p->at_line == DA_NO_LINE)
		return;
	const struct text_file *t = text_file_get(fs, p->at_file, intern_len(p->at_file));
	if (!t->read || !t->balanced)
		return;
	const struct blocks *b = &t->blocks;
	const unsigned loops = 1u << BLOCK_FOR | 1u << BLOCK_WHILE | 1u << BLOCK_REPEAT;
	const struct block *fn = blocks_around(b, p->at_line, 1u << BLOCK_FUNCTION);
	const struct block *loop = blocks_around(b, p->at_line, loops);
	if (!fn)
		return;
	if (loop && loop < fn)
		loop = NULL;        /* a loop around the function, not in it */
	const struct block *first = NULL, *in_loop = NULL;
	for (const struct block *k = fn + 1; k < b->v + b->n && k->first <= fn->last; k++) {
		if (k->kind != BLOCK_FUNCTION || outer(b, k, 1u << BLOCK_FUNCTION) != fn)
			continue;
		if (!first)
			first = k;
		if (!in_loop && loop && k->first >= loop->first && k->last <= loop->last)
			in_loop = k;
	}
	const struct block *c = in_loop ? in_loop : first;
	if (c) {
		p->cause_file = p->at_file;
		p->cause_line = c->first;
	}
}

void place_drafts(struct draft *d, size_t n, struct text_files *fs, struct intern *text)
{
	const unsigned loops = 1u << BLOCK_FOR | 1u << BLOCK_WHILE | 1u << BLOCK_REPEAT;
	for (size_t i = 0; i < n; i++) {
		struct draft *x = &d[i];
		struct da_finding *p = &x->pub;
		if (!p->file || p->line == DA_NO_LINE)
			continue;
		uclo_cause(x, fs);
		/* (text_file_get may move the array: each pointer is used
		 * before the next call); the start's file is read first */
		text_file_get(fs, p->file, intern_len(p->file));
		if (p->at_file && p->at_line != DA_NO_LINE)
			p->at_text = text_of(text_file_get(fs, p->at_file, intern_len(p->at_file)),
			                     p->at_line, &x->at_index, text);
		const struct text_file *t = text_file_get(fs, p->file, intern_len(p->file));
		p->start_text = text_of(t, p->line, &x->start_index, text);
		x->scope = "loop or function";
		x->scope_file = NULL;
		x->scope_line = DA_NO_LINE;
		x->ext_first = p->line;
		p->end_line = p->line;
		p->basis = DA_BASIS_NONE;
		int blocks = t->read && t->balanced;
		if (x->start && x->start->kind == START_ROOT) {
			const struct block *b = blocks ? blocks_starting(&t->blocks, p->line) : NULL;
			x->scope_file = p->file;
			x->scope_line = p->line;
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
		} else if (x->start) {
			/* An exit or a stitch: LuaJIT resumes the interpreter at its
			 * line (lj_snap_restore's PC; a stitch after the call it
			 * could not compile), which runs on through the rest of the
			 * innermost loop or function around it, until a loop's
			 * trace is entered again at its back edge (or the function
			 * returns).  Its extent is that: from its line to that
			 * block's end, less the arms of an if after the one it
			 * resumes in (a branch taken does not run its siblings). */
			const struct block *around = blocks ? blocks_around(&t->blocks, p->line,
			                                                    loops | 1u << BLOCK_FUNCTION)
			                                    : NULL;
			if (around) {
				p->end_line = around->last;
				p->basis = DA_BASIS_SOURCE;
				/* an if's other arms are not run from inside one */
				x->nholes = (uint32_t)blocks_unreachable_arms(&t->blocks, p->line, around,
				                                              x->holes, FINDINGS_HOLES);
			} else if (x->start->hi > p->line) {
				p->end_line = x->start->hi;
				p->basis = DA_BASIS_TRACE;
			} else {
				p->basis = DA_BASIS_LINE;
			}
			name_scope(x, fs);
		} else if (blocks) {
			/* another place: the code around it, for words */
			const struct block *around = blocks_around(&t->blocks, p->line,
			                                           loops | 1u << BLOCK_FUNCTION);
			if (around)
				x->scope = block_is_loop(around) ? "loop" : "function";
		}
	}
}
