/* test_loc.c — splitting the "FILE:LINE" locations dump.lua prints for
 * trace starts and aborts (loc_split). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "parse/loc.h"

/* Split text (strlen bytes) and check the file span and the line.  The
 * file span always starts at the text itself. */
static void expect_loc(const char *text, const char *file, int32_t line)
{
	struct loc l;
	memset(&l, 0x5a, sizeof(l));
	loc_split(text, strlen(text), &l);
	assert_ptr_equal(l.file, text);
	assert_int_equal(l.file_len, strlen(file));
	assert_memory_equal(l.file, file, strlen(file));
	assert_int_equal(l.line, line);
}

static void test_file_and_line_split_at_colon(void **s)
{
	(void)s;
	expect_loc("argparse.lua:53", "argparse.lua", 53);
	expect_loc("standards.lua:262", "standards.lua", 262);
}

static void test_quoted_chunk_name_with_colons_splits_at_last_colon(void **s)
{
	(void)s;
	expect_loc("\"t:1:2 x\":1", "\"t:1:2 x\"", 1);
	expect_loc("\"say \"hi\": ok\":2", "\"say \"hi\": ok\"", 2);
}

static void test_name_with_colons_and_digits_splits_at_last_colon(void **s)
{
	(void)s;
	expect_loc("[C]:weird name:12:1", "[C]:weird name:12", 1);
	expect_loc("file:with:colons.lua:2", "file:with:colons.lua", 2);
}

static void test_builtin_name_is_whole_file_without_line(void **s)
{
	(void)s;
	expect_loc("builtin:remove", "builtin:remove", LOC_NO_LINE);
}

static void test_fast_function_name_has_no_line(void **s)
{
	(void)s;
	expect_loc("pcall", "pcall", LOC_NO_LINE);
	expect_loc("string.byte", "string.byte", LOC_NO_LINE);
	expect_loc("(?)", "(?)", LOC_NO_LINE);
}

static void test_c_function_address_is_not_a_line(void **s)
{
	(void)s;
	expect_loc("C:7f12ab", "C:7f12ab", LOC_NO_LINE);
	/* "C:%x" may happen to print only decimal digits */
	expect_loc("C:40123456", "C:40123456", LOC_NO_LINE);
	/* a file whose name starts with C is still a file */
	expect_loc("C.lua:12", "C.lua", 12);
	expect_loc("Cx:12", "Cx", 12);
}

static void test_equals_chunk_name_keeps_its_text(void **s)
{
	(void)s;
	expect_loc("=(command line):3", "=(command line)", 3);
	expect_loc("(command line):3", "(command line)", 3);
}

static void test_colon_without_digits_has_no_line(void **s)
{
	(void)s;
	expect_loc("x.lua:", "x.lua:", LOC_NO_LINE);
	expect_loc("x.lua:1a", "x.lua:1a", LOC_NO_LINE);
	expect_loc("x.lua 12", "x.lua 12", LOC_NO_LINE);
}

static void test_empty_file_name_before_line(void **s)
{
	(void)s;
	expect_loc(":5", "", 5);
}

static void test_empty_text_has_no_file_and_no_line(void **s)
{
	(void)s;
	expect_loc("", "", LOC_NO_LINE);
}

static void test_line_zero_is_a_line(void **s)
{
	(void)s;
	expect_loc("main.lua:0", "main.lua", 0);
}

static void test_nine_digits_are_a_line_ten_are_not(void **s)
{
	(void)s;
	expect_loc("x.lua:999999999", "x.lua", 999999999);
	expect_loc("x.lua:1234567890", "x.lua:1234567890", LOC_NO_LINE);
}

static void test_multiline_quoted_chunk_name(void **s)
{
	(void)s;
	expect_loc("\"s=0\nfor i=1,99 do s=s+i end\nreturn s\":2",
	           "\"s=0\nfor i=1,99 do s=s+i end\nreturn s\"", 2);
}

static void test_only_given_length_is_read(void **s)
{
	(void)s;
	/* "x.lua:53" followed by bytes that are not part of the location */
	const char text[] = "x.lua:53 -- NYI";
	struct loc l;
	loc_split(text, 8, &l);
	assert_ptr_equal(l.file, text);
	assert_int_equal(l.file_len, 5);
	assert_int_equal(l.line, 53);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_and_line_split_at_colon),
		cmocka_unit_test(test_quoted_chunk_name_with_colons_splits_at_last_colon),
		cmocka_unit_test(test_name_with_colons_and_digits_splits_at_last_colon),
		cmocka_unit_test(test_builtin_name_is_whole_file_without_line),
		cmocka_unit_test(test_fast_function_name_has_no_line),
		cmocka_unit_test(test_c_function_address_is_not_a_line),
		cmocka_unit_test(test_equals_chunk_name_keeps_its_text),
		cmocka_unit_test(test_colon_without_digits_has_no_line),
		cmocka_unit_test(test_empty_file_name_before_line),
		cmocka_unit_test(test_empty_text_has_no_file_and_no_line),
		cmocka_unit_test(test_line_zero_is_a_line),
		cmocka_unit_test(test_nine_digits_are_a_line_ten_are_not),
		cmocka_unit_test(test_multiline_quoted_chunk_name),
		cmocka_unit_test(test_only_given_length_is_read),
	};
	return cmocka_run_group_tests_name("loc", tests, NULL, NULL);
}
