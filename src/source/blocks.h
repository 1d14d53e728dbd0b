/* blocks.h — the block structure of a Lua file: where each function,
 * loop, do and if block starts and ends, by line, for the extents of the
 * loops and functions that failed to compile.  A small lexer of its own:
 * comments, strings, long strings and long comments are skipped, numbers
 * are read whole, and keywords open and close blocks (function, for,
 * while, repeat, do, if ... end or until).  Lines count as LuaJIT counts
 * them: "\n", "\r", "\r\n" and "\n\r" each end one. */
#ifndef DUMPANALYZE_SOURCE_BLOCKS_H
#define DUMPANALYZE_SOURCE_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

enum block_kind { BLOCK_FUNCTION, BLOCK_FOR, BLOCK_WHILE, BLOCK_REPEAT, BLOCK_DO, BLOCK_IF };

struct block {
	enum block_kind kind;
	int32_t first;              /* the line of its keyword */
	int32_t head;               /* the line LuaJIT gives its start: a
	                               while's "do" (where its LOOP is), else
	                               first */
	int32_t last;               /* the line of its "end" or "until" */
	uint32_t parent;            /* the enclosing block's index + 1, 0: none */
};

/* An "elseif" or "else" of an if block: where one of its arms starts. */
struct block_arm {
	int32_t line;               /* the line of its keyword */
	uint32_t block;             /* its if block's index + 1 */
};

struct blocks {
	struct block *v;            /* in the order they open: by first line */
	size_t n, cap;
	struct block_arm *arms;     /* in the order they appear: by line */
	size_t narms, arms_cap;
	int32_t nlines;             /* lines in the text */
	int32_t bad_line;           /* 0, or where the structure broke: an end
	                               too many, a block left open at the end */
};

/* Scan a file's text: 0, or -1 when its blocks do not balance (b->v then
 * holds the blocks closed before b->bad_line).  Free with blocks_free. */
int blocks_scan(struct blocks *b, const char *text, size_t len);
void blocks_free(struct blocks *b);

/* A loop (for, while, repeat) whose head is on line, else a function
 * whose keyword is, else NULL; the outermost when several start there. */
const struct block *blocks_starting(const struct blocks *b, int32_t line);
/* The innermost block of one of the kinds in mask (1 << kind) that holds
 * line, or NULL. */
const struct block *blocks_around(const struct blocks *b, int32_t line, unsigned mask);
/* The lines that code resuming at line cannot reach before it leaves
 * the block within (one that holds line): for each if block around line
 * inside within whose arm line lies in the body of (not on its "if" or
 * "elseif" line), the arms after that one, from the next arm's keyword to
 * the line before the if's "end" (that keyword's line when the "end"
 * shares it).  Into holes (first, last pairs, innermost if first), at most
 * max: how many. */
size_t blocks_unreachable_arms(const struct blocks *b, int32_t line, const struct block *within,
                               int32_t (*holes)[2], size_t max);
int block_is_loop(const struct block *k);
const char *block_kind_name(enum block_kind k);

#endif
