/* test_csvin.c — CSV files read back without trusting them: columns by
 * header name, a missing, unknown or repeated column, rows of the wrong
 * width, numbers that are not (text, negative, past 2^63-1 or 2^31-1,
 * empty), sums past 2^63-1 across files, broken quoting, an empty file;
 * each error one message naming file, row and column.  Tiny hand-written
 * CSVs: malformed input is what is tested.  termtext's escaping too. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "capture.h"
#include "compare/csvin.h"
#include "output/termtext.h"

static char dir[] = "/tmp/test_csvin.XXXXXX";
static struct runfile_dir d;

static int setup(void **st)
{
	(void)st;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(runfile_dir_open(&d, NULL, dir), 0);
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	runfile_dir_free(&d);
	return 0;
}

static void put(const char *name, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/* What the rows said, and a running sum of COUNT. */
struct seen {
	char text[512];
	int rows;
	uint64_t sum;
	int has_normal;
};

static int on_header(void *ctx, const struct csvin *c)
{
	((struct seen *)ctx)->has_normal = csvin_has(c, CSVIN_REASONS_NORMAL_REASON);
	return 0;
}

static int on_reason(void *ctx, const struct csvin *c)
{
	struct seen *s = ctx;
	if (csvin_add(c, CSVIN_REASONS_COUNT, &s->sum) < 0)
		return -1;
	size_t n = strlen(s->text);
	snprintf(s->text + n, sizeof(s->text) - n, "[%s|%llu|%s]", csvin_text(c, CSVIN_REASONS_REASON),
	         (unsigned long long)csvin_count(c, CSVIN_REASONS_COUNT),
	         csvin_has(c, CSVIN_REASONS_NORMAL_REASON) ? csvin_text(c, CSVIN_REASONS_NORMAL_REASON)
	                                                   : "-");
	s->rows++;
	return 0;
}

/* Read name as abort-reasons.csv: the result, stderr in cap.text. */
static int read_reasons(const char *name, struct seen *s)
{
	struct csvin_reader rd = { on_header, on_reason, s };
	capture_begin();
	int r = csvin_read(&d, name, CSVIN_REASONS, 0, &rd);
	capture_end();
	return r;
}

/* The one message expected of reading text as abort-reasons.csv. */
static void expect_error(const char *text, const char *msg)
{
	struct seen s = { .rows = 0 };
	put("r.csv", text);
	assert_int_equal(read_reasons("r.csv", &s), -1);
	char want[512];
	snprintf(want, sizeof(want), "dumpanalyze: %s/r.csv: %s\n", dir, msg);
	assert_string_equal(cap.text, want);
}

static void test_columns_by_name(void **st)
{
	(void)st;
	struct seen s = { .rows = 0 };
	put("a.csv", "COUNT,NORMAL_REASON,REASON\r\n"
	             "2,x,\"down-recursion, restarting\"\r\n"
	             "3,,NYI: bytecode 51\r\n");
	assert_int_equal(read_reasons("a.csv", &s), 1);
	assert_string_equal(cap.text, "");
	assert_int_equal(s.rows, 2);
	assert_int_equal(s.sum, 5);
	assert_true(s.has_normal);
	assert_string_equal(s.text, "[down-recursion, restarting|2|x][NYI: bytecode 51|3|]");
	/* an optional column absent */
	memset(&s, 0, sizeof(s));
	put("b.csv", "REASON,COUNT\n" "leaving loop in root trace,7\n");
	assert_int_equal(read_reasons("b.csv", &s), 1);
	assert_false(s.has_normal);
	assert_string_equal(s.text, "[leaving loop in root trace|7|-]");
}

static void test_missing_file(void **st)
{
	(void)st;
	struct csvin_reader rd = { NULL, on_reason, NULL };
	assert_int_equal(csvin_read(&d, "none.csv", CSVIN_REASONS, 1, &rd), 0);
	capture_begin();
	assert_int_equal(csvin_read(&d, "none.csv", CSVIN_REASONS, 0, &rd), -1);
	capture_end();
	char want[512];
	snprintf(want, sizeof(want), "dumpanalyze: %s/none.csv: No such file or directory\n", dir);
	assert_string_equal(cap.text, want);
}

static void test_columns(void **st)
{
	(void)st;
	expect_error("REASON\r\nx\r\n", "row 1: no column COUNT");
	expect_error("REASON,COUNT,TOTAL\r\n", "row 1, column 3: unknown column 'TOTAL'");
	expect_error("REASON,COUNT,COUNT\r\n", "row 1, column 3: column COUNT again");
	expect_error("REASON,COUNT,\"\x1b]0;pwned\x07\"\r\n",
	             "row 1, column 3: unknown column '\\x1b]0;pwned\\x07'");
	expect_error("", "empty, not even a header row");
	/* the columns of another file */
	expect_error("ID,PARENT,LINK_TYPE,NUM_BC,NUM_IR,NUM_SN,SIZE_MC\r\n",
	             "row 1, column 1: unknown column 'ID'");
}

static void test_rows(void **st)
{
	(void)st;
	expect_error("REASON,COUNT\r\na,1\r\nb\r\n", "row 3: 1 field, the header has 2");
	expect_error("REASON,COUNT\r\na,1,2\r\n", "row 2: 3 fields, the header has 2");
	expect_error("REASON,COUNT\r\n\"a,1\r\n", "row 2: not valid CSV (error parsing data while strict checking enabled)");
	expect_error("REASON,COUNT\r\na\"b,1\r\n", "row 2: not valid CSV (error parsing data while strict checking enabled)");
}

static void test_numbers(void **st)
{
	(void)st;
	expect_error("REASON,COUNT\r\na,-5\r\n", "row 2, column COUNT: '-5' is negative");
	expect_error("REASON,COUNT\r\na,x12\r\n", "row 2, column COUNT: 'x12' is not a number");
	expect_error("REASON,COUNT\r\na,1.5\r\n", "row 2, column COUNT: '1.5' is not a number");
	expect_error("REASON,COUNT\r\na,\r\n", "row 2, column COUNT: '' is empty, not a number");
	expect_error("REASON,COUNT\r\na,9223372036854775808\r\n",
	             "row 2, column COUNT: '9223372036854775808' is more than 2^63-1");
	expect_error("REASON,COUNT\r\na,18446744073709551621\r\n",
	             "row 2, column COUNT: '18446744073709551621' is more than 2^63-1");
	/* 2^63-1 itself is a count; one more in the sum is not */
	expect_error("REASON,COUNT\r\na,9223372036854775807\r\nb,1\r\n",
	             "row 3, column COUNT: the counts sum past 2^63-1");
}

static int on_site(void *ctx, const struct csvin *c)
{
	uint64_t *sum = ctx;
	return csvin_add(c, CSVIN_SITES_COUNT, sum);
}

static int on_profile(void *ctx, const struct csvin *c)
{
	double *v = ctx;
	v[0] += csvin_amount(c, CSVIN_PROFILE_SAMPLES);
	v[1] = csvin_amount(c, CSVIN_PROFILE_INTERPRETED);
	return 0;
}

static void test_lines_and_amounts(void **st)
{
	(void)st;
	uint64_t sum = 0;
	struct csvin_reader rd = { NULL, on_site, &sum };
	put("s.csv", "FILE,LINE,REASON,COUNT\r\na.lua,,r,1\r\na.lua,2147483647,r,2\r\n");
	assert_int_equal(csvin_read(&d, "s.csv", CSVIN_SITES, 0, &rd), 1);
	assert_int_equal(sum, 3);
	put("s.csv", "FILE,LINE,REASON,COUNT\r\na.lua,2147483648,r,1\r\n");
	capture_begin();
	assert_int_equal(csvin_read(&d, "s.csv", CSVIN_SITES, 0, &rd), -1);
	capture_end();
	char want[512];
	snprintf(want, sizeof(want), "dumpanalyze: %s/s.csv: row 2, column LINE: '2147483648' is "
	         "more than 2^31-1\n", dir);
	assert_string_equal(cap.text, want);
	/* a sum kept across files: the second file passes it */
	sum = 9223372036854775800u;
	put("s.csv", "FILE,LINE,REASON,COUNT\r\na.lua,1,r,7\r\na.lua,2,r,1\r\n");
	capture_begin();
	assert_int_equal(csvin_read(&d, "s.csv", CSVIN_SITES, 0, &rd), -1);
	capture_end();
	snprintf(want, sizeof(want), "dumpanalyze: %s/s.csv: row 3, column COUNT: the counts sum "
	         "past 2^63-1\n", dir);
	assert_string_equal(cap.text, want);

	double v[2] = { 0, 0 };
	struct csvin_reader rp = { NULL, on_profile, v };
	put("p.csv", "FILE,LINE,SAMPLES,INTERPRETED\r\na.lua,1,12.50,\r\nb.lua,,3,1.25\r\n");
	assert_int_equal(csvin_read(&d, "p.csv", CSVIN_PROFILE, 0, &rp), 1);
	assert_true(v[0] == 15.5 && v[1] == 1.25);
	put("p.csv", "FILE,LINE,SAMPLES,INTERPRETED\r\na.lua,1,1e5,\r\n");
	capture_begin();
	assert_int_equal(csvin_read(&d, "p.csv", CSVIN_PROFILE, 0, &rp), -1);
	capture_end();
	snprintf(want, sizeof(want), "dumpanalyze: %s/p.csv: row 2, column SAMPLES: '1e5' is not a "
	         "number\n", dir);
	assert_string_equal(cap.text, want);
	put("p.csv", "FILE,LINE,SAMPLES,INTERPRETED\r\na.lua,1,3,-0.5\r\n");
	capture_begin();
	assert_int_equal(csvin_read(&d, "p.csv", CSVIN_PROFILE, 0, &rp), -1);
	capture_end();
	snprintf(want, sizeof(want), "dumpanalyze: %s/p.csv: row 2, column INTERPRETED: '-0.5' is "
	         "negative\n", dir);
	assert_string_equal(cap.text, want);
}

static void expect_text(const char *in, const char *out)
{
	char *t = term_text(in);
	assert_string_equal(t, out);
	free(t);
}

static void test_termtext(void **st)
{
	(void)st;
	expect_text("plain.lua:12", "plain.lua:12");
	expect_text("\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m");
	expect_text("a\nFAIL: b\tc\rd", "a\\nFAIL: b\\tc\\rd");
	expect_text("del\x7f", "del\\x7f");
	/* C1 controls: UTF-8 U+009B (CSI) and a lone 8-bit CSI byte */
	expect_text("x\xc2\x9b" "31m", "x\\xc2\\x9b31m");
	expect_text("x\x9b" "31m", "x\\x9b31m");
	/* UTF-8 text stays text; a cut sequence does not */
	expect_text("caf\xc3\xa9 \xe2\x82\xac \xc2\xa0", "caf\xc3\xa9 \xe2\x82\xac \xc2\xa0");
	expect_text("\xe2\x82", "\\xe2\\x82");
	expect_text("C:\\lua\\x.lua", "C:\\lua\\x.lua");
	char *t = term_textn("ab\0c", 4);
	assert_string_equal(t, "ab\\x00c");
	free(t);
	/* bidi controls and separators: RLO, LRI, PDI, LRM, RLM, ALM, LS, PS;
	 * their neighbours (U+202F, U+2065, U+206A, U+200D) stay */
	expect_text("a\xe2\x80\xaez", "a\\u202ez");
	expect_text("\xe2\x81\xa6x\xe2\x81\xa9", "\\u2066x\\u2069");
	expect_text("\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c", "\\u200e\\u200f\\u061c");
	expect_text("\xe2\x80\xa8\xe2\x80\xa9", "\\u2028\\u2029");
	expect_text("\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa\xe2\x80\x8d",
	            "\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa\xe2\x80\x8d");
	/* the flags: CR and LF kept for --annotate, a tab for source text */
	t = term_textn_flags("a\r\nb\t\x07", 6, TERM_KEEP_LINES);
	assert_string_equal(t, "a\r\nb\\t\\x07");
	free(t);
	t = term_textn_flags("a\r\tb", 4, TERM_KEEP_TABS);
	assert_string_equal(t, "a\\r\tb");
	free(t);
	/* escaping is idempotent: an escaped name printed again (a message
	 * quoting it) is the same bytes */
	const char *hostile = "cr\r::error ::x\xc2\x9b\xe2\x80\xae\xff";
	char *once = term_text(hostile), *twice = term_text(once);
	assert_string_equal(once, "cr\\r::error ::x\\xc2\\x9b\\u202e\\xff");
	assert_string_equal(twice, once);
	free(once);
	free(twice);
	/* the stream form writes the same bytes */
	char buf[64] = "";
	FILE *fp = fmemopen(buf, sizeof(buf), "w");
	assert_non_null(fp);
	term_putn(fp, hostile, strlen(hostile));
	fclose(fp);
	assert_string_equal(buf, "cr\\r::error ::x\\xc2\\x9b\\u202e\\xff");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_columns_by_name, restore_stderr),
		cmocka_unit_test_teardown(test_missing_file, restore_stderr),
		cmocka_unit_test_teardown(test_columns, restore_stderr),
		cmocka_unit_test_teardown(test_rows, restore_stderr),
		cmocka_unit_test_teardown(test_numbers, restore_stderr),
		cmocka_unit_test_teardown(test_lines_and_amounts, restore_stderr),
		cmocka_unit_test(test_termtext),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
