/* test_jv.c — the lines of LuaJIT's -jv verbose log. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "parse/jv.h"

static struct jv_event parse_ok(const char *line)
{
	struct jv_event e;
	assert_int_equal(jv_parse(line, strlen(line), &e), 0);
	return e;
}

static void span(const char *p, size_t n, const char *want)
{
	assert_int_equal(n, strlen(want));
	assert_memory_equal(p, want, n);
}

static void test_root_trace_with_link_word(void **s)
{
	(void)s;
	struct jv_event e = parse_ok("[TRACE   1 standards.lua:262 loop]");
	assert_int_equal(e.kind, JV_STOP);
	assert_int_equal(e.id, 1);
	assert_int_equal(e.parent_exit, PARENT_EXIT_NONE);
	span(e.loc, e.loc_len, "standards.lua:262");
	assert_int_equal(e.link_kind, DA_LINK_LOOP);
	span(e.link, e.link_len, "loop");
}

static void test_side_trace_linking_to_root(void **s)
{
	(void)s;
	struct jv_event e = parse_ok("[TRACE   2 (1/3) standards.lua:262 -> 1]");
	assert_int_equal(e.id, 2);
	assert_int_equal(e.parent, 1);
	assert_int_equal(e.parent_exit, 3);
	assert_int_equal(e.link_kind, DA_LINK_ROOT);
	assert_int_equal(e.link_target, 1);
	span(e.link, e.link_len, "1");
	e = parse_ok("[TRACE  53 (52/stitch) argparse.lua:130 -> 47]");
	assert_int_equal(e.parent, 52);
	assert_int_equal(e.parent_exit, PARENT_EXIT_STITCH);
	assert_int_equal(e.link_target, 47);
}

static void test_stitch_names_the_function(void **s)
{
	(void)s;
	struct jv_event e = parse_ok("[TRACE  52 argparse.lua:130 stitch string.gmatch_aux]");
	assert_int_equal(e.link_kind, DA_LINK_STITCH);
	span(e.link, e.link_len, "stitch");
	span(e.loc, e.loc_len, "argparse.lua:130");
}

static void test_fallback_to_interpreter(void **s)
{
	(void)s;
	struct jv_event e = parse_ok("[TRACE  51 (46/3) argparse.lua:32 -- fallback to interpreter]");
	assert_int_equal(e.kind, JV_STOP);
	assert_int_equal(e.link_kind, DA_LINK_INTERPRETER);
	span(e.link, e.link_len, "interpreter");
	span(e.loc, e.loc_len, "argparse.lua:32");
}

static void test_abort_with_and_without_location(void **s)
{
	(void)s;
	struct jv_event e = parse_ok("[TRACE --- argparse.lua:53 -- NYI: bytecode 51 at argparse.lua:62]");
	assert_int_equal(e.kind, JV_ABORT);
	assert_int_equal(e.id, 0);
	span(e.loc, e.loc_len, "argparse.lua:53");
	span(e.reason, e.reason_len, "NYI: bytecode 51");
	span(e.abort_loc, e.abort_loc_len, "argparse.lua:62");
	e = parse_ok("[TRACE --- (43/1) argparse.lua:24 -- leaving loop in root trace]");
	assert_int_equal(e.parent, 43);
	assert_int_equal(e.parent_exit, 1);
	span(e.abort_loc, e.abort_loc_len, "argparse.lua:24");
	span(e.reason, e.reason_len, "leaving loop in root trace");
}

static void test_flush_and_non_events(void **s)
{
	(void)s;
	struct jv_event e = parse_ok("[TRACE flush]");
	assert_int_equal(e.kind, JV_FLUSH);
	assert_int_equal(jv_parse("[TRACE   1 x.lua:1", 18, &e), -1);
	assert_int_equal(jv_parse("---- TRACE 1 IR", 15, &e), -1);
	assert_int_equal(jv_parse("[TRACE 99999 x.lua:1 loop]", 26, &e), -1);
	assert_int_equal(jv_parse("[TRACE   1 ]", 12, &e), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_root_trace_with_link_word),
		cmocka_unit_test(test_side_trace_linking_to_root),
		cmocka_unit_test(test_stitch_names_the_function),
		cmocka_unit_test(test_fallback_to_interpreter),
		cmocka_unit_test(test_abort_with_and_without_location),
		cmocka_unit_test(test_flush_and_non_events),
	};
	return cmocka_run_group_tests_name("jv", tests, NULL, NULL);
}
