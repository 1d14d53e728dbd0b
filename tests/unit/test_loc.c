/* test_loc.c — splitting LuaJIT source locations. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "dumpanalyze/loc.h"

static void expect_loc(const char *text, const char *file, int32_t line)
{
	struct loc l;
	loc_split(text, strlen(text), &l);
	assert_int_equal(l.file_len, strlen(file));
	assert_memory_equal(l.file, file, strlen(file));
	assert_int_equal(l.line, line);
}

static void test_plain_file_and_line(void **s)
{
	(void)s;
	expect_loc("argparse.lua:53", "argparse.lua", 53);
}

static void test_colons_in_chunk_name_split_at_last(void **s)
{
	(void)s;
	expect_loc("\"t:1:2 x\":1", "\"t:1:2 x\"", 1);
	expect_loc("[C]:weird name:12:1", "[C]:weird name:12", 1);
	expect_loc("file:with:colons.lua:2", "file:with:colons.lua", 2);
}

static void test_builtin_and_fast_functions_have_no_line(void **s)
{
	(void)s;
	expect_loc("builtin:remove", "builtin:remove", LOC_NO_LINE);
	expect_loc("pcall", "pcall", LOC_NO_LINE);
	expect_loc("string.byte", "string.byte", LOC_NO_LINE);
}

static void test_hex_after_colon_is_not_a_line(void **s)
{
	(void)s;
	expect_loc("C:7f12ab", "C:7f12ab", LOC_NO_LINE);
	expect_loc("C:40123456", "C:40123456", LOC_NO_LINE);
	expect_loc("C.lua:12", "C.lua", 12);
}

static void test_line_zero_and_edge_cases(void **s)
{
	(void)s;
	expect_loc("main.lua:0", "main.lua", 0);
	expect_loc("x.lua:", "x.lua:", LOC_NO_LINE);
	expect_loc(":5", "", 5);
	expect_loc("\"s=0\nfor i=1,9 do end\nreturn s\":2", "\"s=0\nfor i=1,9 do end\nreturn s\"", 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_file_and_line),
		cmocka_unit_test(test_colons_in_chunk_name_split_at_last),
		cmocka_unit_test(test_builtin_and_fast_functions_have_no_line),
		cmocka_unit_test(test_hex_after_colon_is_not_a_line),
		cmocka_unit_test(test_line_zero_and_edge_cases),
	};
	return cmocka_run_group_tests_name("loc", tests, NULL, NULL);
}
