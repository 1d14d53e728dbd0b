/* blocks.c — a lexer of Lua's block structure; see blocks.h.  It follows
 * LuaJIT's lexer (lj_lex.c) where it matters for lines: long brackets
 * [==[ ... ]==], escapes in short strings (a backslash before a newline
 * continues the string, \z skips blanks), and newlines. */
#include <stdlib.h>
#include <string.h>
#include "source/blocks.h"
#include "util/alloc.h"

struct lexer {
	const char *p, *end;
	int32_t line;
};

static int is_newline(char c)
{
	return c == '\n' || c == '\r';
}

/* Past one newline: "\r\n" and "\n\r" are one. */
static void newline(struct lexer *x)
{
	char c = *x->p++;
	if (x->p < x->end && is_newline(*x->p) && *x->p != c)
		x->p++;
	x->line++;
}

/* At '[': the level of a long bracket "[==[" (its '='s), or -1. */
static int long_open(const struct lexer *x)
{
	const char *q = x->p + 1;
	int level = 0;
	while (q < x->end && *q == '=')
		q++, level++;
	return q < x->end && *q == '[' ? level : -1;
}

/* Skip a long string or comment that opens at x->p with level's '='s. */
static void skip_long(struct lexer *x, int level)
{
	x->p += level + 2;
	while (x->p < x->end) {
		if (is_newline(*x->p)) {
			newline(x);
			continue;
		}
		if (*x->p == ']') {
			const char *q = x->p + 1;
			int k = 0;
			while (q < x->end && *q == '=')
				q++, k++;
			if (k == level && q < x->end && *q == ']') {
				x->p = q + 1;
				return;
			}
		}
		x->p++;
	}
}

/* Skip a short string that opens at x->p. */
static void skip_string(struct lexer *x)
{
	char quote = *x->p++;
	while (x->p < x->end && *x->p != quote) {
		if (is_newline(*x->p)) {
			return;         /* unfinished: LuaJIT raises an error */
		}
		if (*x->p != '\\') {
			x->p++;
			continue;
		}
		x->p++;
		if (x->p >= x->end)
			return;
		if (is_newline(*x->p)) {
			newline(x);
		} else if (*x->p == 'z') {
			x->p++;
			while (x->p < x->end && (is_newline(*x->p) || *x->p == ' ' || *x->p == '\t' ||
			                         *x->p == '\v' || *x->p == '\f')) {
				if (is_newline(*x->p))
					newline(x);
				else
					x->p++;
			}
		} else {
			x->p++;
		}
	}
	if (x->p < x->end)
		x->p++;
}

static int is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (c >= '0' && c <= '9') || (unsigned char)c >= 0x80;
}

enum word { W_OTHER, W_FUNCTION, W_FOR, W_WHILE, W_REPEAT, W_DO, W_IF, W_END, W_UNTIL, W_ARM };

static enum word word_of(const char *s, size_t n)
{
	static const struct { const char *w; enum word k; } words[] = {
		{ "function", W_FUNCTION }, { "for", W_FOR }, { "while", W_WHILE },
		{ "repeat", W_REPEAT }, { "do", W_DO }, { "if", W_IF }, { "end", W_END },
		{ "until", W_UNTIL }, { "elseif", W_ARM }, { "else", W_ARM },
	};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i].w) == n && memcmp(words[i].w, s, n) == 0)
			return words[i].k;
	return W_OTHER;
}

/* The blocks still open, innermost last: index into b->v, and whether a
 * for or while still waits for its "do". */
struct open { size_t *at; unsigned char *wants_do; size_t n, cap, cap2; };

static void push(struct blocks *b, struct open *o, enum block_kind k, int32_t line)
{
	ALLOC_GROW(b->v, b->n + 1, b->cap);
	b->v[b->n] = (struct block){ k, line, line, 0, o->n ? (uint32_t)o->at[o->n - 1] + 1 : 0 };
	ALLOC_GROW(o->at, o->n + 1, o->cap);
	ALLOC_GROW(o->wants_do, o->n + 1, o->cap2);
	o->at[o->n] = b->n++;
	o->wants_do[o->n++] = k == BLOCK_FOR || k == BLOCK_WHILE;
}

/* Close the innermost block with "end" (until: with "until"): 0, or -1
 * when that does not fit. */
static int pop(struct blocks *b, struct open *o, int until, int32_t line)
{
	if (!o->n)
		return -1;
	struct block *k = &b->v[o->at[o->n - 1]];
	if ((k->kind == BLOCK_REPEAT) != until)
		return -1;
	k->last = line;
	o->n--;
	return 0;
}

int blocks_scan(struct blocks *b, const char *text, size_t len)
{
	memset(b, 0, sizeof(*b));
	struct lexer x = { text, text + len, 1 };
	struct open o = { NULL, NULL, 0, 0, 0 };
	int bad = 0;
	/* "#!..." on the first line is skipped, as luajit does */
	if (x.p < x.end && *x.p == '#')
		while (x.p < x.end && !is_newline(*x.p))
			x.p++;
	while (x.p < x.end && !bad) {
		char c = *x.p;
		if (is_newline(c)) {
			newline(&x);
		} else if (c == '-' && x.p + 1 < x.end && x.p[1] == '-') {
			x.p += 2;
			int level = x.p < x.end && *x.p == '[' ? long_open(&x) : -1;
			if (level >= 0)
				skip_long(&x, level);
			else
				while (x.p < x.end && !is_newline(*x.p))
					x.p++;
		} else if (c == '[') {
			int level = long_open(&x);
			if (level >= 0)
				skip_long(&x, level);
			else
				x.p++;
		} else if (c == '"' || c == '\'') {
			skip_string(&x);
		} else if (c >= '0' && c <= '9') {
			/* a number, exponent signs included: 1e+10, 0x1p-4 */
			char prev = 0;
			while (x.p < x.end && (is_ident(*x.p) || *x.p == '.' ||
			                       ((*x.p == '+' || *x.p == '-') &&
			                        (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P'))))
				prev = *x.p++;
		} else if (c == '.' && x.p + 1 < x.end && x.p[1] >= '0' && x.p[1] <= '9') {
			x.p++;          /* .5: the digits follow as a number */
		} else if (is_ident(c)) {
			const char *s = x.p;
			while (x.p < x.end && is_ident(*x.p))
				x.p++;
			/* a field name after '.' or ':' is no keyword (never valid
			 * Lua for these words, but cheap to rule out) */
			const char *q = s;
			while (q > text && (q[-1] == ' ' || q[-1] == '\t'))
				q--;
			if (q > text && (q[-1] == '.' || q[-1] == ':') && !(q - 1 > text && q[-2] == '.'))
				continue;
			switch (word_of(s, (size_t)(x.p - s))) {
			case W_FUNCTION: push(b, &o, BLOCK_FUNCTION, x.line); break;
			case W_FOR: push(b, &o, BLOCK_FOR, x.line); break;
			case W_WHILE: push(b, &o, BLOCK_WHILE, x.line); break;
			case W_REPEAT: push(b, &o, BLOCK_REPEAT, x.line); break;
			case W_IF: push(b, &o, BLOCK_IF, x.line); break;
			case W_DO:
				if (o.n && o.wants_do[o.n - 1]) {
					o.wants_do[o.n - 1] = 0;
					if (b->v[o.at[o.n - 1]].kind == BLOCK_WHILE)
						b->v[o.at[o.n - 1]].head = x.line;
				} else
					push(b, &o, BLOCK_DO, x.line);
				break;
			case W_END: bad = pop(b, &o, 0, x.line) < 0; break;
			case W_UNTIL: bad = pop(b, &o, 1, x.line) < 0; break;
			case W_ARM:
				if (o.n && b->v[o.at[o.n - 1]].kind == BLOCK_IF) {
					ALLOC_GROW(b->arms, b->narms + 1, b->arms_cap);
					b->arms[b->narms++] = (struct block_arm){ x.line,
					                                          (uint32_t)o.at[o.n - 1] + 1 };
				}
				break;
			case W_OTHER: break;
			}
		} else {
			x.p++;
		}
	}
	b->nlines = x.line - (len && is_newline(text[len - 1]));
	if (bad || o.n) {
		b->bad_line = bad ? x.line : b->v[o.at[o.n - 1]].first;
		/* keep only what closed */
		size_t u = 0;
		for (size_t i = 0; i < b->n; i++)
			if (b->v[i].last)
				b->v[u++] = b->v[i];
		b->n = u;
		for (size_t i = 0; i < b->n; i++)
			b->v[i].parent = 0;
		b->narms = 0;       /* their blocks' indices moved */
	}
	free(o.at);
	free(o.wants_do);
	return b->bad_line ? -1 : 0;
}

void blocks_free(struct blocks *b)
{
	free(b->v);
	free(b->arms);
	memset(b, 0, sizeof(*b));
}

int block_is_loop(const struct block *k)
{
	return k->kind == BLOCK_FOR || k->kind == BLOCK_WHILE || k->kind == BLOCK_REPEAT;
}

const char *block_kind_name(enum block_kind k)
{
	static const char *const names[] = { "function", "for", "while", "repeat", "do", "if" };
	return names[k];
}

/* The first block whose keyword is on line or later. */
static size_t first_at(const struct blocks *b, int32_t line)
{
	size_t lo = 0, hi = b->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (b->v[mid].first < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct block *blocks_starting(const struct blocks *b, int32_t line)
{
	const struct block *fn = NULL;
	/* a while's head may be lines below its keyword: look back a little */
	size_t i = first_at(b, line);
	while (i > 0 && b->v[i - 1].first >= line - 8)
		i--;
	for (; i < b->n && b->v[i].first <= line; i++) {
		if (b->v[i].head == line && block_is_loop(&b->v[i]))
			return &b->v[i];
		if (!fn && b->v[i].first == line && b->v[i].kind == BLOCK_FUNCTION)
			fn = &b->v[i];
	}
	return fn;
}

const struct block *blocks_around(const struct blocks *b, int32_t line, unsigned mask)
{
	/* Blocks open in order of their first line: the innermost holding
	 * line is the last one that starts at or before it and ends at or
	 * after it. */
	size_t i = first_at(b, line + 1);
	while (i-- > 0)
		if (b->v[i].last >= line && (mask & (1u << b->v[i].kind)))
			return &b->v[i];
	return NULL;
}

size_t blocks_unreachable_arms(const struct blocks *b, int32_t line, const struct block *within,
                               int32_t (*holes)[2], size_t max)
{
	size_t n = 0;
	const struct block *k = blocks_around(b, line, 1u << BLOCK_IF);
	while (k && (!within || k > within) && n < max) {
		uint32_t id = (uint32_t)(k - b->v) + 1;
		int32_t arm = k->first, next = 0;
		for (size_t i = 0; i < b->narms; i++) {
			if (b->arms[i].block != id)
				continue;
			if (b->arms[i].line <= line) {
				arm = b->arms[i].line;
			} else {
				next = b->arms[i].line;
				break;
			}
		}
		/* on an "if" or "elseif" line the conditions still choose */
		if (next && arm != line) {
			holes[n][0] = next;
			holes[n][1] = k->last > next ? k->last - 1 : next;
			n++;
		}
		k = k->parent ? &b->v[k->parent - 1] : NULL;
		while (k && k->kind != BLOCK_IF)
			k = k->parent ? &b->v[k->parent - 1] : NULL;
	}
	return n;
}
