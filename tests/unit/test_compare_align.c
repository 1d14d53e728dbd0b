/* test_compare_align.c — --compare's matching of abort sites across runs
 * (placed_align: lines inserted above, an edit in the middle, new sites,
 * reasons and files that differ, order kept; with the text of their
 * lines: the same code wherever it went, different code never, by order
 * only where a side has no text); reading the CSVs is test_csvin.c's. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "compare/compare_impl.h"

struct site { const char *file; long line; const char *reason; const char *text; };

/* A sorted list of the sites (the strings are the caller's constants). */
static struct placed_list list_of(const struct site *s, size_t n)
{
	struct placed_list l = { calloc(n + 1, sizeof(struct placed)), n, n };
	for (size_t i = 0; i < n; i++)
		l.v[i] = (struct placed){ (char *)s[i].file, s[i].line, (char *)s[i].reason,
		                          (char *)s[i].text, 1, i };
	placed_sort(&l);
	return l;
}

/* to[] for a -> b, as "0 1 -1 ..." */
static void expect_align(const struct site *a, size_t na, const struct site *b, size_t nb,
                         const char *want)
{
	struct placed_list la = list_of(a, na), lb = list_of(b, nb);
	long to[16];
	char how[16];
	placed_align(&la, &lb, to, how);
	char got[128] = "";
	for (size_t i = 0; i < na; i++) {
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%ld", i ? " " : "", to[i]);
		/* "t": by text, "o": by order */
		if (to[i] >= 0)
			snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s",
			         how[i] == MATCH_TEXT ? "t" : how[i] == MATCH_ORDER ? "o" : "?");
	}
	assert_string_equal(got, want);
	free(la.v);
	free(lb.v);
}

#define N(x) (sizeof(x) / sizeof((x)[0]))

static void test_lines_inserted_above(void **st)
{
	(void)st;
	static const struct site a[] = { { "f.lua", 10, "R", NULL }, { "f.lua", 12, "S", NULL }, { "f.lua", 30, "R", NULL } };
	static const struct site b[] = { { "f.lua", 14, "R", NULL }, { "f.lua", 16, "S", NULL }, { "f.lua", 34, "R", NULL } };
	expect_align(a, N(a), b, N(b), "0o 1o 2o");
}

static void test_edit_in_the_middle(void **st)
{
	(void)st;
	/* 4 lines added between 10 and 20: two offsets, 0 above and 4 below */
	static const struct site a[] = { { "f.lua", 10, "R", NULL }, { "f.lua", 20, "R", NULL }, { "f.lua", 30, "R", NULL } };
	static const struct site b[] = { { "f.lua", 10, "R", NULL }, { "f.lua", 24, "R", NULL }, { "f.lua", 34, "R", NULL } };
	expect_align(a, N(a), b, N(b), "0o 1o 2o");
}

static void test_a_new_site_stays_new(void **st)
{
	(void)st;
	static const struct site a[] = { { "f.lua", 10, "R", NULL } };
	static const struct site b[] = { { "f.lua", 10, "R", NULL }, { "f.lua", 50, "R", NULL } };
	expect_align(a, N(a), b, N(b), "0o");
	/* and the other way round: the site gone is the one at 50 */
	expect_align(b, N(b), a, N(a), "0o -1");
}

static void test_reason_and_file_must_agree(void **st)
{
	(void)st;
	static const struct site a[] = { { "f.lua", 10, "R", NULL }, { "g.lua", 10, "R", NULL } };
	static const struct site b[] = { { "f.lua", 10, "S", NULL }, { "h.lua", 10, "R", NULL } };
	expect_align(a, N(a), b, N(b), "-1 -1");
}

static void test_order_is_kept(void **st)
{
	(void)st;
	/* R 10 -> 30 and S 20 -> 5 would cross: only the smaller move */
	static const struct site a[] = { { "f.lua", 10, "R", NULL }, { "f.lua", 20, "S", NULL } };
	static const struct site b[] = { { "f.lua", 5, "S", NULL }, { "f.lua", 30, "R", NULL } };
	expect_align(a, N(a), b, N(b), "-1 0o");
}

/* Issue 29's case: after an edit, the pairs() loop at 39 is another
 * loop than the is_array loop that was at 17; by order they paired. */
static void test_other_code_never_pairs(void **st)
{
	(void)st;
	static const struct site a[] = { { "json.lua", 17, "R", "is_array" } };
	static const struct site b[] = { { "json.lua", 39, "R", "pairs" } };
	expect_align(a, N(a), b, N(b), "-1");
	/* without text on either side, today's rule pairs them */
	static const struct site c[] = { { "json.lua", 17, "R", NULL } };
	static const struct site d[] = { { "json.lua", 39, "R", NULL } };
	expect_align(c, N(c), d, N(d), "0o");
}

static void test_same_code_wherever_it_went(void **st)
{
	(void)st;
	/* the loop moved below another one: by order it could not pair */
	static const struct site a[] = { { "f.lua", 10, "R", "x" }, { "f.lua", 20, "R", "y" } };
	static const struct site b[] = { { "f.lua", 12, "R", "y" }, { "f.lua", 40, "R", "x" } };
	expect_align(a, N(a), b, N(b), "1t 0t");
}

static void test_text_on_one_side_pairs_by_order(void **st)
{
	(void)st;
	/* NEW read the source, OLD did not: order, around what text matched */
	static const struct site a[] = { { "f.lua", 10, "R", "x" }, { "f.lua", 20, "R", NULL } };
	static const struct site b[] = { { "f.lua", 14, "R", "x" }, { "f.lua", 24, "R", "z" } };
	expect_align(a, N(a), b, N(b), "0t 1o");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_inserted_above),
		cmocka_unit_test(test_edit_in_the_middle),
		cmocka_unit_test(test_a_new_site_stays_new),
		cmocka_unit_test(test_reason_and_file_must_agree),
		cmocka_unit_test(test_order_is_kept),
		cmocka_unit_test(test_other_code_never_pairs),
		cmocka_unit_test(test_same_code_wherever_it_went),
		cmocka_unit_test(test_text_on_one_side_pairs_by_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
