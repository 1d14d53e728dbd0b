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
static const char *function_name(const struct text_file *t, int32_t line, struct intern *text);

static void name_scope(struct draft *x, struct text_files *fs, struct intern *text)
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
		if (k->kind == BLOCK_FUNCTION)
			x->scope_name = function_name(t, k->first, text);
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

static int ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
	       c == '.' || c == ':';
}

/* A function's name from the normalised text of its first line: "local
 * function NAME(", "function A.b:c(", "NAME = function(" (a local, a field,
 * a table constructor's key); NULL for an anonymous one. */
static const char *function_name(const struct text_file *t, int32_t line, struct intern *text)
{
	uint32_t ix;
	const char *l = text_file_line(t, line, &ix);
	const char *f = l ? strstr(l, "function") : NULL;
	if (!f)
		return NULL;
	const char *p = f + 8, *e;
	if (*p == ' ' && ident_char(p[1])) {
		for (e = ++p; ident_char(*e); e++)
			;
		if (*e == '(' || (*e == ' ' && e[1] == '('))
			return intern_get(text, p, (size_t)(e - p));
		return NULL;
	}
	/* NAME = function */
	e = f;
	if (e - l >= 3 && memcmp(e - 3, " = ", 3) == 0)
		e -= 3;
	else if (e - l >= 2 && memcmp(e - 2, "= ", 2) == 0)
		e -= 2;
	else
		return NULL;
	p = e;
	while (p > l && ident_char(p[-1]))
		p--;
	return p < e ? intern_get(text, p, (size_t)(e - p)) : NULL;
}

/* The first line of code from..to that calls NAME ("NAME(", "NAME (",
 * "NAME{", "NAME\""), or DA_NO_LINE: where a loop runs a factory. */
static int32_t call_of(const struct text_file *t, const char *name, int32_t from, int32_t to)
{
	size_t n = strlen(name);
	for (int32_t k = from; k <= to; k++) {
		uint32_t ix;
		const char *l = text_file_line(t, k, &ix);
		for (const char *q = l ? strstr(l, name) : NULL; q; q = strstr(q + 1, name)) {
			const char *e = q + n;
			if ((q > l && ident_char(q[-1])) || ident_char(*e))
				continue;
			if (*e == ' ')
				e++;
			if (*e == '(' || *e == '{' || *e == '"' || *e == '\'')
				return k;
		}
	}
	return DA_NO_LINE;
}

/* A closure created in a function the start calls (json.lua's
 * encode_string, inlined into the loop that encodes): the advice is about
 * that function, by name, the start only its context ("called from the
 * loop at json.lua:81"); a closure its function returns is a factory, and
 * the fix is the call in the start. */
static void cause_scope(struct draft *x, const struct text_file *t, const struct block *start,
                        struct intern *text)
{
	struct da_finding *p = &x->pub;
	if (!p->cause_file || p->cause_line == DA_NO_LINE || strcmp(p->cause_file, p->file) != 0 ||
	    !p->reason || !strstr(p->reason, "FNEW"))
		return;
	const unsigned fnmask = 1u << BLOCK_FUNCTION;
	const struct block *fn = blocks_around(&t->blocks, p->cause_line, fnmask);
	if (fn && fn->first == p->cause_line)
		fn = outer(&t->blocks, fn, fnmask);     /* the closure's own */
	uint32_t ix;
	const char *l = text_file_line(t, p->cause_line, &ix);
	int returned = l && strncmp(l, "return function", 15) == 0;
	if (fn == start) {
		/* the factory itself: the call that runs it is another
		 * finding's (factory_calls) */
		x->factory = returned;
		return;
	}
	if (!fn)
		return;
	const struct block *start_fn = start->kind == BLOCK_FUNCTION ? start
	                               : blocks_around(&t->blocks, start->first, fnmask);
	/* a closure created in the start's own body, its loop's function */
	if (fn == start_fn && p->cause_line >= start->first && p->cause_line <= start->last)
		return;
	x->ctx_word = x->scope;
	x->ctx_line = x->scope_line;
	x->ctx_name = x->scope_name;
	x->scope = "function";
	x->scope_line = fn->first;
	x->scope_name = function_name(t, fn->first, text);
	x->factory = returned;
	if (x->factory && x->scope_name)
		x->call_line = call_of(t, x->scope_name, start->first, start->last);
}

/* A factory's own finding (its attempts start at the function that
 * returns the closure) takes the call from a finding whose attempts start
 * in a loop or function that calls it, the same closure's. */
static void factory_calls(struct draft *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct draft *x = &d[i];
		if (!x->factory || x->ctx_word)
			continue;
		for (size_t k = 0; k < n; k++) {
			const struct draft *y = &d[k];
			if (!y->factory || !y->ctx_word || y->call_line == DA_NO_LINE ||
			    y->pub.cause_file != x->pub.cause_file || y->pub.cause_line != x->pub.cause_line)
				continue;
			x->ctx_word = y->ctx_word;
			x->ctx_name = y->ctx_name;
			x->ctx_line = y->ctx_line;
			x->call_line = y->call_line;
			break;
		}
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
				x->start_scope = x->scope;
				x->ext_first = b->first;
				p->end_line = b->last;
				p->basis = DA_BASIS_SOURCE;
				if (b->kind == BLOCK_FUNCTION) {
					x->fn_first = b->first;
					x->fn_last = b->last;
					x->scope_name = function_name(t, b->first, text);
				}
				cause_scope(x, t, b, text);
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
			name_scope(x, fs, text);
		} else if (blocks) {
			/* another place: the code around it, for words */
			const struct block *around = blocks_around(&t->blocks, p->line,
			                                           loops | 1u << BLOCK_FUNCTION);
			if (around)
				x->scope = block_is_loop(around) ? "loop" : "function";
		}
	}
	factory_calls(d, n);
}
