/* test_view.c — view lookup by name or prefix, and the default set. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "dumpanalyze/view.h"

static void test_exact_name_wins_over_longer_names(void **s)
{
	(void)s;
	char err[256] = "";
	const struct view *v = view_find("abort-reasons", err, sizeof(err));
	assert_non_null(v);
	assert_string_equal(v->name, "abort-reasons");
}

static void test_unique_prefix_finds_view(void **s)
{
	(void)s;
	char err[256] = "";
	const struct view *v = view_find("bush-t", err, sizeof(err));
	assert_non_null(v);
	assert_string_equal(v->name, "bush-txt");
	v = view_find("tr", err, sizeof(err));
	assert_non_null(v);
	assert_string_equal(v->name, "traces");
}

static void test_ambiguous_prefix_names_candidates(void **s)
{
	(void)s;
	char err[256] = "";
	assert_null(view_find("bush", err, sizeof(err)));
	assert_string_equal(err, "ambiguous view 'bush': could be bush-txt bush-png bush-svg");
	const struct view *v = view_find("abort-reasons-", err, sizeof(err));
	assert_non_null(v);
	assert_string_equal(v->name, "abort-reasons-txt");
}

static void test_unknown_name_message(void **s)
{
	(void)s;
	char err[256] = "";
	assert_null(view_find("flamegraph", err, sizeof(err)));
	assert_string_equal(err, "unknown view 'flamegraph' (--views list shows them)");
}

static void test_default_set_in_registry_order(void **s)
{
	(void)s;
	struct view_set set;
	char err[256];
	struct diag d;
	diag_init(&d, "x");
	assert_int_equal(view_set_init(&set, NULL, NULL, &d, err, sizeof(err)), 0);
	assert_int_equal(set.n, 9);
	static const char *const names[] = { "summary", "traces", "abort-reasons",
	                                     "abort-reasons-txt", "abort-sites", "exits",
	                                     "blacklist", "bush-txt", "bush-png" };
	for (size_t i = 0; i < 9; i++)
		assert_string_equal(set.ctx[i].view->name, names[i]);
	assert_int_equal(set.needs, NEEDS_TEXT | NEEDS_CAIRO);
	view_set_finish(&set);
}

static void test_list_selects_each_view_once(void **s)
{
	(void)s;
	struct view_set set;
	char err[256];
	struct diag d;
	diag_init(&d, "x");
	assert_int_equal(view_set_init(&set, "bush-txt,traces,traces,tr", NULL, &d, err, sizeof(err)), 0);
	assert_int_equal(set.n, 2);
	assert_string_equal(set.ctx[0].view->name, "traces");
	assert_string_equal(set.ctx[1].view->name, "bush-txt");
	assert_int_equal(set.needs, NEEDS_TEXT);
	view_set_finish(&set);
	assert_int_equal(view_set_init(&set, "traces,,bush-txt", NULL, &d, err, sizeof(err)), -1);
	assert_string_equal(err, "bad view list 'traces,,bush-txt'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_name_wins_over_longer_names),
		cmocka_unit_test(test_unique_prefix_finds_view),
		cmocka_unit_test(test_ambiguous_prefix_names_candidates),
		cmocka_unit_test(test_unknown_name_message),
		cmocka_unit_test(test_default_set_in_registry_order),
		cmocka_unit_test(test_list_selects_each_view_once),
	};
	return cmocka_run_group_tests_name("view", tests, NULL, NULL);
}
