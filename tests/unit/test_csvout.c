/* test_csvout.c — CSV rows byte for byte as Python's csv module writes
 * them (QUOTE_MINIMAL, "\r\n" row ends). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "output/csvout.h"

/* One row of string fields (NULL-terminated list), as bytes. */
static char *row(const char *const *fields, size_t *len)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);
	assert_non_null(fp);
	struct csv_row r;
	csv_row_begin(&r, fp);
	for (size_t i = 0; fields[i]; i++)
		csv_field_str(&r, fields[i]);
	csv_row_end(&r);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static void expect_row(const char *const *fields, const char *want)
{
	size_t n;
	char *got = row(fields, &n);
	assert_int_equal(n, strlen(want));
	assert_memory_equal(got, want, n);
	free(got);
}

static void test_plain_fields_are_unquoted_and_row_ends_crlf(void **s)
{
	(void)s;
	const char *const f[] = { "NYI: bytecode 51", "argparse.lua", "14", NULL };
	expect_row(f, "NYI: bytecode 51,argparse.lua,14\r\n");
}

static void test_field_with_comma_is_quoted(void **s)
{
	(void)s;
	const char *const f[] = { "a,b", "1", NULL };
	expect_row(f, "\"a,b\",1\r\n");
}

static void test_field_with_quote_is_quoted_and_quote_doubled(void **s)
{
	(void)s;
	const char *const f[] = { "say \"hi\"", "2", NULL };
	expect_row(f, "\"say \"\"hi\"\"\",2\r\n");
	const char *const only[] = { "\"", NULL };
	expect_row(only, "\"\"\"\"\r\n");
	const char *const chunk[] = { "\"t:1:2 x\"", "1", NULL };
	expect_row(chunk, "\"\"\"t:1:2 x\"\"\",1\r\n");
}

static void test_field_with_newline_is_quoted(void **s)
{
	(void)s;
	const char *const f[] = { "\"s=0\nreturn s\"", "3", NULL };
	expect_row(f, "\"\"\"s=0\nreturn s\"\"\",3\r\n");
	const char *const cr[] = { "a\rb", "4", NULL };
	expect_row(cr, "\"a\rb\",4\r\n");
}

static void test_field_with_everything_is_quoted_once(void **s)
{
	(void)s;
	const char *const f[] = { "x,\"y\"\nz", NULL };
	expect_row(f, "\"x,\"\"y\"\"\nz\"\r\n");
}

static void test_spaces_and_empty_fields_are_unquoted(void **s)
{
	(void)s;
	const char *const f[] = { "NYI: bytecode VARG  ", "", " x ", "", NULL };
	expect_row(f, "NYI: bytecode VARG  ,, x ,\r\n");
}

static void test_field_length_is_taken_as_given(void **s)
{
	(void)s;
	char *buf = NULL;
	size_t n;
	FILE *fp = open_memstream(&buf, &n);
	struct csv_row r;
	csv_row_begin(&r, fp);
	csv_field(&r, "abc,def", 3);        /* the comma is not part of it */
	csv_field(&r, "x\0y", 3);
	csv_field(&r, "", 0);
	csv_row_end(&r);
	fclose(fp);
	assert_int_equal(n, 10);
	assert_memory_equal(buf, "abc,x\0y,\r\n", 10);
	free(buf);
}

static void test_numbers(void **s)
{
	(void)s;
	char *buf = NULL;
	size_t n;
	FILE *fp = open_memstream(&buf, &n);
	struct csv_row r;
	csv_row_begin(&r, fp);
	csv_field_u64(&r, 18446744073709551615ull);
	csv_field_i64(&r, -1);
	csv_field_u64(&r, 0);
	csv_field_i64(&r, INT64_MIN);
	csv_field_i64(&r, 262);
	csv_row_end(&r);
	fclose(fp);
	assert_string_equal(buf, "18446744073709551615,-1,0,-9223372036854775808,262\r\n");
	assert_int_equal(n, strlen(buf));
	free(buf);
}

static void test_rows_follow_each_other_in_a_file(void **s)
{
	(void)s;
	FILE *fp = tmpfile();
	assert_non_null(fp);
	struct csv_row r;
	csv_row_begin(&r, fp);
	csv_field_str(&r, "trace");
	csv_field_str(&r, "link");
	csv_row_end(&r);
	assert_int_equal(r.nfields, 2);
	csv_row_begin(&r, fp);
	assert_int_equal(r.nfields, 0);
	csv_field_u64(&r, 1);
	csv_field_str(&r, "loop");
	csv_row_end(&r);
	rewind(fp);
	char got[64];
	size_t n = fread(got, 1, sizeof(got), fp);
	fclose(fp);
	const char *want = "trace,link\r\n1,loop\r\n";
	assert_int_equal(n, strlen(want));
	assert_memory_equal(got, want, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_fields_are_unquoted_and_row_ends_crlf),
		cmocka_unit_test(test_field_with_comma_is_quoted),
		cmocka_unit_test(test_field_with_quote_is_quoted_and_quote_doubled),
		cmocka_unit_test(test_field_with_newline_is_quoted),
		cmocka_unit_test(test_field_with_everything_is_quoted_once),
		cmocka_unit_test(test_spaces_and_empty_fields_are_unquoted),
		cmocka_unit_test(test_field_length_is_taken_as_given),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_rows_follow_each_other_in_a_file),
	};
	return cmocka_run_group_tests_name("csvout", tests, NULL, NULL);
}
