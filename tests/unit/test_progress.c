/* test_progress.c — the progress line's text (progress_format), with and
 * without a known input size. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "cli/progress.h"

static void test_known_size_has_percent_and_time_left(void **s)
{
	(void)s;
	char buf[256];
	/* 200 of 800 MB in 2 s: 100 MB/s, 6 s left. */
	progress_format(buf, sizeof(buf), 200000000, 800000000, 2.0, 4711, 3);
	assert_string_equal(buf, "25% of 800 MB, 100 MB/s, 6 s left, 4711 traces, generation 3");
}

static void test_unknown_size_has_megabytes_read(void **s)
{
	(void)s;
	char buf[256];
	progress_format(buf, sizeof(buf), 52000000, 0, 4.0, 12, 1);
	assert_string_equal(buf, "52 MB, 13 MB/s, 12 traces, generation 1");
}

static void test_file_grown_past_its_size_is_read_as_unknown(void **s)
{
	(void)s;
	char buf[256];
	/* A log still being written: more read than its size at the start. */
	progress_format(buf, sizeof(buf), 3000000, 2000000, 1.0, 0, 1);
	assert_string_equal(buf, "3 MB, 3 MB/s, 0 traces, generation 1");
}

static void test_no_time_yet_is_no_rate(void **s)
{
	(void)s;
	char buf[256];
	progress_format(buf, sizeof(buf), 1000000, 4000000, 0.0, 1, 1);
	assert_string_equal(buf, "25% of 4 MB, 0 MB/s, 0 s left, 1 traces, generation 1");
}

static void test_small_buffer_is_cut_not_overrun(void **s)
{
	(void)s;
	char buf[12];
	memset(buf, 'x', sizeof(buf));
	progress_format(buf, sizeof(buf), 200000000, 800000000, 2.0, 4711, 3);
	assert_string_equal(buf, "25% of 800 ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_size_has_percent_and_time_left),
		cmocka_unit_test(test_unknown_size_has_megabytes_read),
		cmocka_unit_test(test_file_grown_past_its_size_is_read_as_unknown),
		cmocka_unit_test(test_no_time_yet_is_no_rate),
		cmocka_unit_test(test_small_buffer_is_cut_not_overrun),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
