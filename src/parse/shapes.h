/* shapes.h — whether a line has the shape of a section's data line: run on
 * nearly every line of a dump, so inline (parser.c's loops inline them). */
#ifndef DUMPANALYZE_SHAPES_H
#define DUMPANALYZE_SHAPES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The shapes as functions (shapes.c), for the unit tests. */
int shape_bytecode(const char *p, size_t n);
int shape_ir(const char *p, size_t n);          /* 1 instruction, 2 SNAP */
int shape_snapshot(const char *p, size_t n);
int shape_mcode(const char *p, size_t n);
int shape_exit_regs(const char *p, size_t n);

static inline int is_digit(char c) { return c >= '0' && c <= '9'; }

static inline size_t count_digits(const char *p, size_t n)
{
	size_t i = 0;
	while (i < n && is_digit(p[i]))
		i++;
	return i;
}

/* Whether p[0..3] are all decimal digits, tested as one word: a byte is
 * one when its high nibble is 3, and still 3 with 6 added (low nibble at
 * most 9).  A carry into the next byte needs a byte of 0xfa or more,
 * which fails by itself, so the test is exact, in either byte order. */
static inline int four_digits(const char *p)
{
	uint32_t x;
	memcpy(&x, p, 4);
	return ((x & 0xf0f0f0f0u) | ((x + 0x06060606u) & 0xf0f0f0f0u) >> 4) == 0x33333333u;
}

/* "0027  GGET ..." — the pc as %04d, then a space. */
static inline int shape_bytecode_at(const char *p, size_t n)
{
	if (n < 5 || !four_digits(p))
		return 0;
	if (p[4] == ' ')
		return 1;
	size_t d = 4 + count_digits(p + 4, n - 4);
	return d < n && p[d] == ' ';
}

/* "0001 >  int SLOAD ..." is an instruction (the LOOP marker too);
 * "....        SNAP   #1 [ ... ]" is an interleaved snapshot. */
static inline int shape_ir_at(const char *p, size_t n)
{
	if (n > 5 && memcmp(p, ".... ", 5) == 0)
		return 2;
	return shape_bytecode_at(p, n) ? 1 : 0;
}

/* "#0   0001 [ ---- ]" in a separate snapshots section. */
static inline int shape_snapshot_at(const char *p, size_t n)
{
	return n >= 2 && p[0] == '#' && is_digit(p[1]);
}

/* Hex digits, for the addresses that start machine code lines. */
static const unsigned char hex_digit[256] = {
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1,
	['7'] = 1, ['8'] = 1, ['9'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1,
	['e'] = 1, ['f'] = 1, ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1,
	['F'] = 1,
};

/* An address of at least 4 hex digits: enough, as nothing else is
 * printed while LuaJIT writes a trace's machine code, and cheap, as most
 * lines of a dump are machine code. */
static inline int shape_mcode_address(const char *p, size_t n)
{
	const unsigned char *u = (const unsigned char *)p;
	return n > 5 && hex_digit[u[0]] & hex_digit[u[1]] & hex_digit[u[2]] & hex_digit[u[3]];
}

/* "0bccff9d  jge 0xbcc0014\t->1", "55bbc524cec7  jmp ...", "->LOOP:". */
static inline int shape_mcode_at(const char *p, size_t n)
{
	if (n >= 3 && p[0] == '-' && p[1] == '>')
		return 1;
	return shape_mcode_address(p, n);
}

/* " 000055bbc524ff81 ..." (+X, current) or "rax = 0x..." (old builds). */
static inline int shape_exit_regs_at(const char *p, size_t n)
{
	if (n >= 2 && p[0] == ' ')
		return 1;
	size_t i = 0;
	while (i < n && ((p[i] >= 'a' && p[i] <= 'z') || is_digit(p[i])))
		i++;
	return i > 0 && n - i >= 3 && memcmp(p + i, " = ", 3) == 0;
}

#endif
