/* test_compare_align.c — --compare's matching of abort sites across runs
 * (placed_align: lines inserted above, an edit in the middle, new sites,
 * reasons and files that differ, order kept); reading the CSVs is
 * test_csvin.c's. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "cli/compare_impl.h"

struct site { const char *file; long line; const char *reason; };

/* A sorted list of the sites (the strings are the caller's constants). */
static struct placed_list list_of(const struct site *s, size_t n)
{
	struct placed_list l = { calloc(n + 1, sizeof(struct placed)), n, n };
	for (size_t i = 0; i < n; i++)
		l.v[i] = (struct placed){ (char *)s[i].file, s[i].line, (char *)s[i].reason, NULL, 1 };
	placed_sort(&l);
	return l;
}

/* to[] for a -> b, as "0 1 -1 ..." */
static void expect_align(const struct site *a, size_t na, const struct site *b, size_t nb,
                         const char *want)
{
	struct placed_list la = list_of(a, na), lb = list_of(b, nb);
	long to[16];
	placed_align(&la, &lb, to);
	char got[128] = "";
	for (size_t i = 0; i < na; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%ld", i ? " " : "", to[i]);
	assert_string_equal(got, want);
	free(la.v);
	free(lb.v);
}

#define N(x) (sizeof(x) / sizeof((x)[0]))

static void test_lines_inserted_above(void **st)
{
	(void)st;
	static const struct site a[] = { { "f.lua", 10, "R" }, { "f.lua", 12, "S" }, { "f.lua", 30, "R" } };
	static const struct site b[] = { { "f.lua", 14, "R" }, { "f.lua", 16, "S" }, { "f.lua", 34, "R" } };
	expect_align(a, N(a), b, N(b), "0 1 2");
}

static void test_edit_in_the_middle(void **st)
{
	(void)st;
	/* 4 lines added between 10 and 20: two offsets, 0 above and 4 below */
	static const struct site a[] = { { "f.lua", 10, "R" }, { "f.lua", 20, "R" }, { "f.lua", 30, "R" } };
	static const struct site b[] = { { "f.lua", 10, "R" }, { "f.lua", 24, "R" }, { "f.lua", 34, "R" } };
	expect_align(a, N(a), b, N(b), "0 1 2");
}

static void test_a_new_site_stays_new(void **st)
{
	(void)st;
	static const struct site a[] = { { "f.lua", 10, "R" } };
	static const struct site b[] = { { "f.lua", 10, "R" }, { "f.lua", 50, "R" } };
	expect_align(a, N(a), b, N(b), "0");
	/* and the other way round: the site gone is the one at 50 */
	expect_align(b, N(b), a, N(a), "0 -1");
}

static void test_reason_and_file_must_agree(void **st)
{
	(void)st;
	static const struct site a[] = { { "f.lua", 10, "R" }, { "g.lua", 10, "R" } };
	static const struct site b[] = { { "f.lua", 10, "S" }, { "h.lua", 10, "R" } };
	expect_align(a, N(a), b, N(b), "-1 -1");
}

static void test_order_is_kept(void **st)
{
	(void)st;
	/* R 10 -> 30 and S 20 -> 5 would cross: only the smaller move */
	static const struct site a[] = { { "f.lua", 10, "R" }, { "f.lua", 20, "S" } };
	static const struct site b[] = { { "f.lua", 5, "S" }, { "f.lua", 30, "R" } };
	expect_align(a, N(a), b, N(b), "-1 0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_inserted_above),
		cmocka_unit_test(test_edit_in_the_middle),
		cmocka_unit_test(test_a_new_site_stays_new),
		cmocka_unit_test(test_reason_and_file_must_agree),
		cmocka_unit_test(test_order_is_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
