/* test_csvout.c — CSV rows exactly as Python's csv module writes them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "dumpanalyze/csvout.h"

/* Write one row of string fields, return the bytes (caller frees). */
static char *row(const char *const *fields, size_t *len)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);
	struct csv_row r;
	csv_row_begin(&r, fp);
	for (size_t i = 0; fields[i]; i++)
		csv_field_str(&r, fields[i]);
	csv_row_end(&r);
	fclose(fp);
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

static void test_plain_fields_unquoted_crlf(void **s)
{
	(void)s;
	const char *const f[] = { "NYI: bytecode 51", "14", NULL };
	expect_row(f, "NYI: bytecode 51,14\r\n");
}

static void test_special_fields_quoted(void **s)
{
	(void)s;
	const char *const comma[] = { "a,b", "1", NULL };
	expect_row(comma, "\"a,b\",1\r\n");
	const char *const quote[] = { "say \"hi\"", "2", NULL };
	expect_row(quote, "\"say \"\"hi\"\"\",2\r\n");
	const char *const newline[] = { "s=0\nreturn s", "3", NULL };
	expect_row(newline, "\"s=0\nreturn s\",3\r\n");
	const char *const cr[] = { "a\rb", NULL };
	expect_row(cr, "\"a\rb\"\r\n");
}

static void test_spaces_and_empty_unquoted(void **s)
{
	(void)s;
	const char *const f[] = { "NYI: bytecode VARG  ", "", "x", NULL };
	expect_row(f, "NYI: bytecode VARG  ,,x\r\n");
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
	csv_row_end(&r);
	fclose(fp);
	assert_string_equal(buf, "18446744073709551615,-1,0\r\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_fields_unquoted_crlf),
		cmocka_unit_test(test_special_fields_quoted),
		cmocka_unit_test(test_spaces_and_empty_unquoted),
		cmocka_unit_test(test_numbers),
	};
	return cmocka_run_group_tests_name("csvout", tests, NULL, NULL);
}
