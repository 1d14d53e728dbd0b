/* test_view.c — the view registry: lookup by exact name or unique prefix
 * (tmux-style messages), and the set of views chosen for a run. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "views/view.h"

/* The registry in --views list order, and which are default (see
 * man/dumpanalyze.1: all but sarif, problems, codequality, bush-txt,
 * bush-svg, jsonl, profile, sysprof, flamegraph, source and html). */
static const char *const registry[] = {
	"summary", "findings", "sarif", "problems", "codequality", "traces", "abort-reasons",
	"abort-reasons-txt", "abort-sites", "exits", "blacklist", "bush-txt", "bush-png", "bush-svg",
	"jsonl", "profile", "sysprof", "flamegraph",
	"source", "files", "html",
};
#define NREGISTRY (sizeof(registry) / sizeof(registry[0]))
static const char *const defaults[] = {
	"summary", "findings", "traces", "abort-reasons", "abort-reasons-txt", "abort-sites",
	"exits", "blacklist", "bush-png", "files",
};
#define NDEFAULTS (sizeof(defaults) / sizeof(defaults[0]))

static void test_registry_order_and_names(void **s)
{
	(void)s;
	size_t n = 0;
	while (view_table[n])
		n++;
	assert_int_equal(n, NREGISTRY);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(view_table[i]->name, registry[i]);
		assert_non_null(view_table[i]->files);
	}
}

static void test_exact_name_wins_over_longer_names(void **s)
{
	(void)s;
	char err[256] = "untouched";
	const struct view *v = view_find("abort-reasons", err, sizeof(err));
	assert_non_null(v);
	assert_string_equal(v->name, "abort-reasons");
	assert_ptr_equal(v, view_table[6]);
	v = view_find("abort-reasons-txt", err, sizeof(err));
	assert_non_null(v);
	assert_string_equal(v->name, "abort-reasons-txt");
	assert_string_equal(err, "untouched");
}

static void test_every_registered_name_finds_itself(void **s)
{
	(void)s;
	char err[256];
	for (size_t i = 0; view_table[i]; i++)
		assert_ptr_equal(view_find(view_table[i]->name, err, sizeof(err)), view_table[i]);
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
	v = view_find("abort-reasons-", err, sizeof(err));
	assert_non_null(v);
	assert_string_equal(v->name, "abort-reasons-txt");
	v = view_find("j", err, sizeof(err));
	assert_non_null(v);
	assert_string_equal(v->name, "jsonl");
}

static void test_ambiguous_prefix_names_every_candidate(void **s)
{
	(void)s;
	char err[256] = "";
	assert_null(view_find("bush", err, sizeof(err)));
	assert_non_null(strstr(err, "ambiguous"));
	assert_non_null(strstr(err, "bush-txt"));
	assert_non_null(strstr(err, "bush-png"));
	assert_non_null(strstr(err, "bush-svg"));
	assert_string_equal(err, "ambiguous view 'bush': could be bush-txt bush-png bush-svg");
	assert_null(view_find("abort-", err, sizeof(err)));
	assert_string_equal(err, "ambiguous view 'abort-': could be abort-reasons "
	                         "abort-reasons-txt abort-sites");
}

static void test_unknown_name_message(void **s)
{
	(void)s;
	char err[256] = "";
	assert_null(view_find("icicle", err, sizeof(err)));
	assert_string_equal(err, "unknown view 'icicle' (--views list shows them)");
	assert_null(view_find("traces-x", err, sizeof(err)));
	assert_string_equal(err, "unknown view 'traces-x' (--views list shows them)");
}

static void test_small_error_buffer_is_not_overrun(void **s)
{
	(void)s;
	char buf[32];
	memset(buf, '#', sizeof(buf));
	assert_null(view_find("bush", buf, 16));
	assert_int_equal(strlen(buf), 15);
	assert_memory_equal(buf, "ambiguous view ", 15);
	for (size_t i = 16; i < sizeof(buf); i++)
		assert_int_equal(buf[i], '#');
}

static void test_default_set_is_default_views_in_registry_order(void **s)
{
	(void)s;
	struct view_set set;
	char err[256];
	assert_int_equal(view_set_init(&set, NULL, 0, err, sizeof(err)), 0);
	assert_int_equal(set.n, NDEFAULTS);
	for (size_t i = 0; i < NDEFAULTS; i++) {
		assert_string_equal(set.ctx[i].view->name, defaults[i]);
		assert_true(set.ctx[i].view->is_default);
		assert_null(set.ctx[i].out);
		assert_non_null(set.ctx[i].state);
		assert_false(set.ctx[i].named);
	}
	assert_int_equal(set.needs, NEEDS_CAIRO | NEEDS_FINDINGS);
	assert_int_equal(view_set_finish(&set), 0);
	assert_null(set.ctx);
	assert_int_equal(set.n, 0);
}

static void test_list_selects_each_view_once_in_registry_order(void **s)
{
	(void)s;
	struct view_set set;
	char err[256];
	assert_int_equal(view_set_init(&set, "bush-txt,traces,traces,tr,bush-t", 0,
	                               err, sizeof(err)), 0);
	assert_int_equal(set.n, 2);
	assert_string_equal(set.ctx[0].view->name, "traces");
	assert_string_equal(set.ctx[1].view->name, "bush-txt");
	assert_int_equal(set.needs, NEEDS_TEXT);
	assert_int_equal(view_set_finish(&set), 0);
}

/* The report links the pages and pictures of those views: choosing it
 * chooses them, in registry order, once. */
/* The order comes from what the views require, not from the table: a
 * table whose requiring views come first still runs them after what they
 * require, the rest in table order; only chosen views are placed. */
static void test_order_follows_requires(void **s)
{
	(void)s;
	static const char *const needs_c[] = { "c", NULL };
	static const char *const needs_b_d[] = { "b", "d", NULL };
	static const char *const needs_a[] = { "a", NULL };
	const struct view a = { .name = "a", .requires = needs_b_d };
	const struct view b = { .name = "b", .requires = needs_c };
	const struct view c = { .name = "c" };
	const struct view d = { .name = "d" };
	const struct view e = { .name = "e", .requires = needs_a };
	const struct view *const table[] = { &a, &b, &c, &d, &e };
	size_t order[5];
	char all[5] = { 1, 1, 1, 1, 1 };
	assert_int_equal(view_order(table, 5, all, order), 5);
	/* c before b before a, d before a, e (which requires a) after it */
	size_t want[5] = { 2, 1, 3, 0, 4 };
	assert_memory_equal(order, want, sizeof(want));
	char some[5] = { 1, 0, 1, 1, 0 };       /* b and e not chosen */
	assert_int_equal(view_order(table, 5, some, order), 3);
	assert_int_equal(order[0], 3);          /* a requires b (not chosen), d */
	assert_int_equal(order[1], 0);
	assert_int_equal(order[2], 2);
	/* a loop ends, each view once: x requires y, y requires x */
	static const char *const needs_x[] = { "x", NULL }, *const needs_y[] = { "y", NULL };
	const struct view x = { .name = "x", .requires = needs_y };
	const struct view y = { .name = "y", .requires = needs_x };
	const struct view *const loop[] = { &x, &y };
	char both[2] = { 1, 1 };
	assert_int_equal(view_order(loop, 2, both, order), 2);
	assert_int_equal(order[0], 1);          /* y, which x requires, then x */
	assert_int_equal(order[1], 0);
}

/* Every name a view of the registry requires is a view of the registry. */
static void test_requires_name_views(void **s)
{
	(void)s;
	size_t n = 0;
	for (size_t i = 0; view_table[i]; i++)
		for (const char *const *r = view_table[i]->requires; r && *r; r++) {
			char err[256];
			const struct view *v = view_find(*r, err, sizeof(err));
			assert_non_null(v);
			assert_string_equal(v->name, *r);
			n++;
		}
	assert_true(n >= 2);        /* html requires source and flamegraph */
}

static void test_html_brings_source(void **s)
{
	(void)s;
	struct view_set set;
	char err[256];
	/* html draws its bushes in the browser: it no longer brings bush-svg
	 * and bush-txt; it needs the trace text, and brings the source view,
	 * whose pages its source lines link to (it requires source: source's
	 * hooks first, so its pages exist when html's finish writes
	 * index.html) */
	assert_int_equal(view_set_init(&set, "html", 0, err, sizeof(err)), 0);
	assert_int_equal(set.n, 2);
	assert_string_equal(set.ctx[0].view->name, "source");
	assert_string_equal(set.ctx[1].view->name, "html");
	assert_int_equal(set.ctx[0].named, 1);
	assert_int_equal(set.needs, NEEDS_TEXT | NEEDS_FINDINGS);
	assert_int_equal(view_set_finish(&set), 0);
	assert_int_equal(view_set_init(&set, "html,traces,bush-txt", 0, err, sizeof(err)), 0);
	assert_int_equal(set.n, 4);
	assert_string_equal(set.ctx[0].view->name, "traces");
	assert_string_equal(set.ctx[1].view->name, "bush-txt");
	assert_string_equal(set.ctx[2].view->name, "source");
	assert_string_equal(set.ctx[3].view->name, "html");
	assert_int_equal(view_set_finish(&set), 0);
	/* with a profile of stacks it brings the flame graph, which it shows
	 * (required: flamegraph before html); with a profile without
	 * stacks, not: a view comes along only when the profile fits it */
	assert_int_equal(view_set_init(&set, "html", NEEDS_PROFILE | NEEDS_STACKS, err, sizeof(err)), 0);
	assert_int_equal(set.n, 3);
	assert_string_equal(set.ctx[0].view->name, "flamegraph");
	assert_string_equal(set.ctx[1].view->name, "source");
	assert_string_equal(set.ctx[2].view->name, "html");
	assert_int_equal(view_set_finish(&set), 0);
	assert_int_equal(view_set_init(&set, "html", NEEDS_PROFILE, err, sizeof(err)), 0);
	assert_int_equal(set.n, 2);
	assert_string_equal(set.ctx[0].view->name, "source");
	assert_int_equal(view_set_finish(&set), 0);
	/* html is the only view that brings others, and they bring none
	 * (view_set_init follows one level) */
	size_t bringing = 0;
	for (size_t i = 0; view_table[i]; i++) {
		if (!view_table[i]->requires)
			continue;
		bringing++;
		assert_string_equal(view_table[i]->name, "html");
		assert_string_equal(view_table[i]->requires[0], "source");
		assert_string_equal(view_table[i]->requires[1], "flamegraph");
		assert_null(view_table[i]->requires[2]);
	}
	assert_int_equal(bringing, 1);
}

/* "default" is the default set, "all" every view the run can render:
 * the profile's views only with a profile (the flame graph with stacks).
 * A view named, or brought by "all", knows it was asked for. */
static void test_default_and_all_words(void **s)
{
	(void)s;
	struct view_set set;
	char err[256];
	assert_int_equal(view_set_init(&set, "default", 0, err, sizeof(err)), 0);
	assert_int_equal(set.n, NDEFAULTS);
	for (size_t i = 0; i < NDEFAULTS; i++) {
		assert_string_equal(set.ctx[i].view->name, defaults[i]);
		assert_false(set.ctx[i].named);
	}
	assert_int_equal(view_set_finish(&set), 0);

	assert_int_equal(view_set_init(&set, "bush-png,default,jsonl", 0, err, sizeof(err)), 0);
	assert_int_equal(set.n, NDEFAULTS + 1);
	/* registry order: ... bush-png, jsonl, ..., files */
	assert_string_equal(set.ctx[NDEFAULTS - 2].view->name, "bush-png");
	assert_true(set.ctx[NDEFAULTS - 2].named);
	assert_string_equal(set.ctx[NDEFAULTS - 1].view->name, "jsonl");
	assert_true(set.ctx[NDEFAULTS - 1].named);
	assert_string_equal(set.ctx[NDEFAULTS].view->name, "files");
	assert_false(set.ctx[NDEFAULTS].named);
	assert_false(set.ctx[0].named);
	assert_int_equal(view_set_finish(&set), 0);

	/* with a profile of stacks the default set has both profile views */
	assert_int_equal(view_set_init(&set, NULL, NEEDS_PROFILE | NEEDS_STACKS, err, sizeof(err)), 0);
	assert_int_equal(set.n, NDEFAULTS + 2);
	assert_string_equal(set.ctx[NDEFAULTS - 1].view->name, "profile");
	assert_string_equal(set.ctx[NDEFAULTS].view->name, "flamegraph");
	assert_string_equal(set.ctx[NDEFAULTS + 1].view->name, "files");
	assert_int_equal(view_set_finish(&set), 0);
	assert_int_equal(view_set_init(&set, "default", NEEDS_PROFILE, err, sizeof(err)), 0);
	assert_int_equal(set.n, NDEFAULTS + 1);
	assert_string_equal(set.ctx[NDEFAULTS - 1].view->name, "profile");
	assert_int_equal(view_set_finish(&set), 0);

	assert_int_equal(view_set_init(&set, "all", 0, err, sizeof(err)), 0);
	assert_int_equal(set.n, NREGISTRY - 3);     /* not profile, sysprof, flamegraph */
	for (size_t i = 0; i < set.n; i++)
		assert_true(set.ctx[i].named);
	assert_int_equal(view_set_finish(&set), 0);
	assert_int_equal(view_set_init(&set, "all", NEEDS_PROFILE, err, sizeof(err)), 0);
	assert_int_equal(set.n, NREGISTRY - 2);     /* not sysprof, flamegraph */
	assert_int_equal(view_set_finish(&set), 0);
	assert_int_equal(view_set_init(&set, "traces,all", NEEDS_PROFILE | NEEDS_STACKS | NEEDS_SYSPROF,
	                               err, sizeof(err)), 0);
	assert_int_equal(set.n, NREGISTRY);
	for (size_t i = 0; i < NREGISTRY; i++)
		assert_string_equal(set.ctx[i].view->name, registry[i]);
	assert_int_equal(view_set_finish(&set), 0);
	/* a sysprof profile alone: its view and the flame graph, not profile */
	assert_int_equal(view_set_init(&set, NULL, NEEDS_SYSPROF | NEEDS_STACKS, err, sizeof(err)), 0);
	assert_int_equal(set.n, NDEFAULTS + 2);
	assert_string_equal(set.ctx[NDEFAULTS - 1].view->name, "sysprof");
	assert_string_equal(set.ctx[NDEFAULTS].view->name, "flamegraph");
	assert_int_equal(view_set_finish(&set), 0);

	/* whole words only: no prefixes of them */
	assert_int_equal(view_set_init(&set, "defaults", 0, err, sizeof(err)), -1);
	assert_string_equal(err, "unknown view 'defaults' (--views list shows them)");
	assert_int_equal(view_set_init(&set, "al", 0, err, sizeof(err)), -1);
	assert_string_equal(err, "unknown view 'al' (--views list shows them)");
}

static void test_view_state_is_zeroed(void **s)
{
	(void)s;
	struct view_set set;
	char err[256];
	assert_int_equal(view_set_init(&set, "summary", 0, err, sizeof(err)), 0);
	assert_int_equal(set.n, 1);
	size_t n = set.ctx[0].view->state_size;
	const unsigned char *p = set.ctx[0].state;
	for (size_t i = 0; i < n; i++)
		assert_int_equal(p[i], 0);
	assert_int_equal(view_set_finish(&set), 0);
}

static void test_bad_lists_fail_with_message(void **s)
{
	(void)s;
	struct view_set set;
	char err[256];
	assert_int_equal(view_set_init(&set, "traces,,bush-txt", 0, err, sizeof(err)), -1);
	assert_string_equal(err, "bad view list 'traces,,bush-txt'");
	assert_int_equal(view_set_init(&set, "", 0, err, sizeof(err)), -1);
	assert_string_equal(err, "bad view list ''");
	assert_int_equal(view_set_init(&set, "traces,", 0, err, sizeof(err)), -1);
	assert_int_equal(view_set_init(&set, "traces,nope", 0, err, sizeof(err)), -1);
	assert_string_equal(err, "unknown view 'nope' (--views list shows them)");
	assert_int_equal(view_set_init(&set, "bush", 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "ambiguous"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry_order_and_names),
		cmocka_unit_test(test_exact_name_wins_over_longer_names),
		cmocka_unit_test(test_every_registered_name_finds_itself),
		cmocka_unit_test(test_unique_prefix_finds_view),
		cmocka_unit_test(test_ambiguous_prefix_names_every_candidate),
		cmocka_unit_test(test_unknown_name_message),
		cmocka_unit_test(test_small_error_buffer_is_not_overrun),
		cmocka_unit_test(test_default_set_is_default_views_in_registry_order),
		cmocka_unit_test(test_list_selects_each_view_once_in_registry_order),
		cmocka_unit_test(test_order_follows_requires),
		cmocka_unit_test(test_requires_name_views),
		cmocka_unit_test(test_html_brings_source),
		cmocka_unit_test(test_default_and_all_words),
		cmocka_unit_test(test_view_state_is_zeroed),
		cmocka_unit_test(test_bad_lists_fail_with_message),
	};
	return cmocka_run_group_tests_name("view", tests, NULL, NULL);
}
