/* test_blocks.c — the Lua block lexer (source/blocks.c): small cases of
 * every token that hides a keyword or a line, then real files (our
 * the files of samples/lua/ and penlight's sources) against LuaJIT's own parser:
 * every function's first and last line and every loop's line, as
 * tests/unit/blocks-oracle.lua prints them from the bytecode. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glob.h>
#include <cmocka.h>
#include "source/blocks.h"

static void scan(struct blocks *b, const char *text, int want)
{
	assert_int_equal(blocks_scan(b, text, strlen(text)), want);
}

/* "for 2-4 function 3-3 ..." in order of opening. */
static char *shape(const struct blocks *b)
{
	static char buf[512];
	size_t k = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < b->n && k < sizeof(buf) - 40; i++)
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s%s %d-%d", i ? " " : "",
		                      block_kind_name(b->v[i].kind), b->v[i].first, b->v[i].last);
	return buf;
}

static void test_keywords(void **s)
{
	(void)s;
	struct blocks b;
	scan(&b, "local function f(n)\n  for i = 1, n do\n    while x do\n      x = g()\n"
	         "    end\n  end\n  repeat y = y + 1 until y > 3\n  if a then b() elseif c then d()\n"
	         "  else e() end\n  do local z end\nend\n", 0);
	assert_string_equal(shape(&b), "function 1-11 for 2-6 while 3-5 repeat 7-7 if 8-9 do 10-10");
	assert_int_equal(b.v[1].parent, 1);
	assert_int_equal(b.v[2].parent, 2);
	assert_int_equal(b.nlines, 11);
	assert_int_equal(blocks_starting(&b, 2)->kind, BLOCK_FOR);
	assert_int_equal(blocks_starting(&b, 1)->kind, BLOCK_FUNCTION);
	assert_null(blocks_starting(&b, 4));
	assert_int_equal(blocks_around(&b, 4, 1u << BLOCK_FOR | 1u << BLOCK_WHILE)->first, 3);
	assert_int_equal(blocks_around(&b, 6, 1u << BLOCK_FOR | 1u << BLOCK_WHILE)->first, 2);
	assert_int_equal(blocks_around(&b, 7, 1u << BLOCK_FOR | 1u << BLOCK_WHILE | 1u << BLOCK_REPEAT)->kind,
	                 BLOCK_REPEAT);
	assert_null(blocks_around(&b, 12, ~0u));
	blocks_free(&b);

	/* a while whose "do" is lines below: LuaJIT's LOOP, and so the
	 * trace's start, is on the line of the do */
	scan(&b, "while a and\n      b do\n  f()\nend\n", 0);
	assert_int_equal(b.v[0].head, 2);
	assert_int_equal(blocks_starting(&b, 2)->first, 1);
	assert_null(blocks_starting(&b, 1));
	blocks_free(&b);

	/* a closure in until's condition; "end" as a field name never
	 * happens in Lua, but a keyword in a method's name must not count */
	scan(&b, "repeat\n  n = n - 1\nuntil (function() return n end)() < 0\nx = t.endx\n", 0);
	assert_string_equal(shape(&b), "repeat 1-3 function 3-3");
	blocks_free(&b);
}

static void test_hidden(void **s)
{
	(void)s;
	struct blocks b;
	/* keywords inside strings, comments and long brackets; lines inside
	 * long strings, long comments and escaped newlines count */
	scan(&b, "local s = \"end for do\" .. 'if then end'\n"
	         "--[==[ function\nend ]] still in ]==] for i = 1, 2 do end\n"
	         "local t = [[\nwhile\n]] -- end\n"
	         "local u = \"a\\\nb\\z\n   c\" if x then end\n"
	         "local n = 0x1e+5 local m = 1e10 local k = .5 if y then end\n", 0);
	assert_string_equal(shape(&b), "for 3-3 if 9-9 if 10-10");
	blocks_free(&b);
	/* CRLF and LFCR are one line each; a shebang line is skipped */
	scan(&b, "#!/usr/bin/luajit do\r\nfor i = 1, 2 do\r\n\r\nend\n\rif x then end", 0);
	assert_string_equal(shape(&b), "for 2-4 if 5-5");
	assert_int_equal(b.nlines, 5);
	blocks_free(&b);
}

static void test_unbalanced(void **s)
{
	(void)s;
	struct blocks b;
	scan(&b, "for i = 1, 2 do\nend\nend\nif x then end\n", -1);
	assert_int_equal(b.bad_line, 3);
	assert_string_equal(shape(&b), "for 1-2");
	blocks_free(&b);
	scan(&b, "function f()\n  if x then y() end\n", -1);
	assert_int_equal(b.bad_line, 1);
	assert_string_equal(shape(&b), "if 2-2");
	blocks_free(&b);
	scan(&b, "repeat x() end\n", -1);
	blocks_free(&b);
	scan(&b, "", 0);
	assert_int_equal(b.n, 0);
	blocks_free(&b);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return NULL;
	char *buf = NULL;
	size_t cap = 0, n = 0, r;
	do {
		if (n + 4096 > cap)
			buf = realloc(buf, cap = 2 * cap + 8192);
		r = fread(buf + n, 1, cap - n, fp);
		n += r;
	} while (r > 0);
	fclose(fp);
	*len = n;
	return buf;
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The blocks of one file against blocks-oracle.lua's lines. */
static size_t against_luajit(const char *path)
{
	size_t len;
	char *text = slurp(path, &len);
	assert_non_null(text);
	struct blocks b;
	if (blocks_scan(&b, text, len) < 0)
		fail_msg("%s: unbalanced at line %d", path, b.bad_line);
	char **mine = calloc(b.n + 1, sizeof(*mine));
	size_t nm = 0;
	for (size_t i = 0; i < b.n; i++) {
		char line[64];
		if (b.v[i].kind == BLOCK_FUNCTION)
			snprintf(line, sizeof(line), "function %d %d", b.v[i].first, b.v[i].last);
		else if (block_is_loop(&b.v[i]))
			snprintf(line, sizeof(line), "loop %d", b.v[i].head);
		else
			continue;
		mine[nm++] = strdup(line);
	}
	qsort(mine, nm, sizeof(*mine), by_str);
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "luajit tests/unit/blocks-oracle.lua '%s'", path);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	char line[128];
	size_t k = 0;
	while (fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = '\0';
		if (k >= nm || strcmp(mine[k], line) != 0)
			fail_msg("%s: luajit says \"%s\", the lexer \"%s\"", path, line, k < nm ? mine[k] : "(nothing)");
		k++;
	}
	assert_int_equal(pclose(p), 0);
	if (k != nm)
		fail_msg("%s: the lexer has %zu blocks more than luajit", path, nm - k);
	for (size_t i = 0; i < nm; i++)
		free(mine[i]);
	free(mine);
	blocks_free(&b);
	free(text);
	return k;
}

static void test_real_files(void **s)
{
	(void)s;
	glob_t g;
	size_t checked = 0, blocks = 0;
	const char *patterns[] = { "samples/lua/*.lua", "samples/lua/*/*.lua", "/usr/share/lua/5.1/pl/*.lua" };
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(glob(patterns[i], 0, NULL, &g), 0);
		for (size_t k = 0; k < g.gl_pathc; k++, checked++)
			blocks += against_luajit(g.gl_pathv[k]);
		globfree(&g);
	}
	assert_true(checked >= 60);     /* 17 of ours, 12 of the shop, 30 and more of penlight */
	assert_true(blocks >= 1100);    /* functions and loops compared: 1203 */
}

/* The extents the findings use, checked by hand against the file. */
static void test_annotated(void **s)
{
	(void)s;
	size_t len;
	char *text = slurp("samples/lua/annotated.lua", &len);
	struct blocks b;
	assert_int_equal(blocks_scan(&b, text, len), 0);
	const struct block *k = blocks_starting(&b, 20);    /* for i = 1, n do ... end */
	assert_int_equal(k->kind, BLOCK_FOR);
	assert_int_equal(k->last, 23);
	k = blocks_starting(&b, 18);                        /* local function closures(n) */
	assert_int_equal(k->kind, BLOCK_FUNCTION);
	assert_int_equal(k->last, 25);
	k = blocks_starting(&b, 21);                        /* function() return i end */
	assert_int_equal(k->kind, BLOCK_FUNCTION);
	assert_int_equal(k->last, 21);
	assert_int_equal(b.nlines, 35);
	blocks_free(&b);
	free(text);
}

/* The arms an exit cannot reach (the findings' reachability rule), on
 * the serializer sample's val2str, checked by hand against the file:
 * if t == "table" 37-82 (elseif 70, 72; else 78), in its for 54-68 the if
 * name 58-64 (elseif 60, else 62), in the number arm an if 73-77 whose
 * arms share their lines with their code. */
static void test_arms(void **s)
{
	(void)s;
	size_t len;
	char *text = slurp("samples/lua/serializer/serialize.lua", &len);
	struct blocks b;
	int32_t h[8][2];
	assert_int_equal(blocks_scan(&b, text, len), 0);
	const unsigned around = 1u << BLOCK_FOR | 1u << BLOCK_FUNCTION;
	/* in the then-arm of 58: its elseif and else arms 60-63 */
	const struct block *loop = blocks_around(&b, 59, around);
	assert_int_equal(loop->first, 54);
	assert_int_equal(blocks_unreachable_arms(&b, 59, loop, h, 8), 1);
	assert_int_equal(h[0][0], 60);
	assert_int_equal(h[0][1], 63);
	/* in the elseif arm: the else arm only */
	assert_int_equal(blocks_unreachable_arms(&b, 61, loop, h, 8), 1);
	assert_int_equal(h[0][0], 62);
	assert_int_equal(h[0][1], 63);
	/* on the if's and on an elseif's line the conditions still choose;
	 * in the else arm nothing follows; before the if, all arms run */
	assert_int_equal(blocks_unreachable_arms(&b, 58, loop, h, 8), 0);
	assert_int_equal(blocks_unreachable_arms(&b, 60, loop, h, 8), 0);
	assert_int_equal(blocks_unreachable_arms(&b, 63, loop, h, 8), 0);
	assert_int_equal(blocks_unreachable_arms(&b, 55, loop, h, 8), 0);
	/* within the function: the table arm skips 70-81, the if of the
	 * loop too when the line is in it (innermost first) */
	const struct block *fn = blocks_around(&b, 44, 1u << BLOCK_FUNCTION);
	assert_int_equal(fn->first, 35);
	assert_int_equal(blocks_unreachable_arms(&b, 44, fn, h, 8), 1);
	assert_int_equal(h[0][0], 70);
	assert_int_equal(h[0][1], 81);
	assert_int_equal(blocks_unreachable_arms(&b, 59, fn, h, 8), 2);
	assert_int_equal(h[0][0], 60);
	assert_int_equal(h[1][0], 70);
	/* max is kept */
	assert_int_equal(blocks_unreachable_arms(&b, 59, fn, h, 1), 1);
	/* arms on the lines of their code (73-77): each line is a
	 * condition's, so only the outer if's else arm is skipped */
	assert_int_equal(blocks_unreachable_arms(&b, 76, fn, h, 8), 1);
	assert_int_equal(h[0][0], 78);
	assert_int_equal(h[0][1], 81);
	assert_int_equal(b.narms, 9);
	blocks_free(&b);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keywords),
		cmocka_unit_test(test_hidden),
		cmocka_unit_test(test_unbalanced),
		cmocka_unit_test(test_real_files),
		cmocka_unit_test(test_annotated),
		cmocka_unit_test(test_arms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
