/* test_options.c — the option table and what is made of it: getopt's
 * short options, --help's exit codes, the man page's generated troff. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cli/cli.h"
#include "cli/record.h"
#include "views/view.h"
#include "capture.h"

/* What fn printed into a memory stream (free it). */
static char *printed(void (*fn)(FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	fn(fp);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static void test_short_options_from_the_table(void **s)
{
	(void)s;
	char buf[64];
	assert_int_equal(cli_short_options(buf, sizeof(buf)), 0);
	/* -h takes nothing: --help's optional format is the long form's. */
	assert_string_equal(buf, ":d:o:p:V:j:qvh");
}

static void test_short_options_every_letter_once(void **s)
{
	(void)s;
	char buf[64];
	assert_int_equal(cli_short_options(buf, sizeof(buf)), 0);
	size_t letters = 0;
	for (size_t i = 0; i < cli_noptions; i++) {
		const struct option *o = &cli_options[i].opt;
		if (o->val >= 256)
			continue;
		const char *at = strchr(buf + 1, o->val);
		assert_non_null(at);
		assert_null(strchr(at + 1, o->val));
		assert_int_equal(at[1] == ':', o->has_arg == required_argument);
		letters++;
	}
	assert_int_equal(letters, 8);
}

static void test_short_options_buffer_too_small(void **s)
{
	(void)s;
	char buf[64];
	size_t need = strlen(":d:o:p:V:j:qvh") + 1;
	assert_int_equal(cli_short_options(buf, need), 0);
	assert_string_equal(buf, ":d:o:p:V:j:qvh");
	assert_int_equal(cli_short_options(buf, need - 1), -1);
	assert_int_equal(cli_short_options(buf, 1), -1);
	/* What main.c gives it is always enough. */
	char shorts[2 * cli_noptions + 2];
	assert_int_equal(cli_short_options(shorts, sizeof(shorts)), 0);
}

static void test_usage_exit_codes_plain(void **s)
{
	(void)s;
	char *text = printed(cli_usage);
	const char *want =
		"\nExit status:\n"
		"  0  Success (warnings allowed).\n"
		"  1  Usage error: unknown option or view, missing argument, no dump; with "
		"--compare, also a --fail-on rule crossed.\n"
		"  2  Input or output error: a dump or profile that cannot be read, corrupt "
		"compressed data, a sysprof profile malformed or cut short (the byte is named), "
		"a failed write, or no memory to be had (the message then says \"out of memory\"); "
		"the output directory in use by another run "
		"(without --wait), a lock file there that is not a regular file of one name, "
		"a dump or profile the run would write over, one pipe given twice as --dump; "
		"with --recover, "
		"a commit that can be neither finished nor undone; with --compare, a directory that is not "
		"dumpanalyze output or holds a file that is not what its run wrote, a side whose "
		"run saw no JIT event, or a --fail-on rule that cannot be evaluated; with record, "
		"a run of the workload that failed.\n"
		"  3  Input rejected under --strict (also an input with no JIT event), or a "
		"--profile file that is not a profile dumpanalyze reads (a sysprof or symbol table "
		"format version it does not know, a memprof profile).\n"
		"See dumpanalyze(1).\n";
	const char *at = strstr(text, "\nExit status:\n");
	assert_non_null(at);
	assert_string_equal(at, want);
	assert_non_null(strstr(text, "\n  -h, --help               this help\n"));
	free(text);
}

static void help_man(FILE *fp) { assert_int_equal(cli_help_doc(fp, "man"), 0); }
static void help_readme(FILE *fp) { assert_int_equal(cli_help_doc(fp, "readme"), 0); }

static size_t count(const char *text, const char *word)
{
	size_t n = 0;
	for (const char *p = text; (p = strstr(p, word)); p += strlen(word))
		n++;
	return n;
}

static void test_man_entries(void **s)
{
	(void)s;
	char *text = printed(help_man);
	size_t nviews = 0;
	while (view_table[nviews])
		nviews++;
	assert_int_equal(cli_noptions, 25);
	assert_int_equal(record_noptions, 9);
	assert_int_equal(nviews, 21);
	/* A paragraph per option, view, exit code, record option and rule of
	 * the catalogue (51). */
	assert_int_equal(count(text, ".TP\n"), 25 + 21 + 4 + 9 + 51);
	assert_int_equal(count(text, "BEGIN GENERATED "), 5);
	assert_int_equal(count(text, "END GENERATED "), 5);
	assert_non_null(strstr(text, ".\\\" BEGIN GENERATED record-options: made from "
	                             "src/cli/record_options.c by make docs\n.TP\n.BI \\-\\-runs \" N\"\n"));
	assert_non_null(strstr(text, ".TP\n.B DA203 closure\\-in\\-loop\n(costly) "));
	/* The tag forms: short and long with an argument, long alone. */
	assert_non_null(strstr(text, ".TP\n.BR \\-o \", \" \\-\\-out\\-dir \" \\fIDIR\\fR\"\n"
	                             "Where the files go;"));
	assert_non_null(strstr(text, ".TP\n.BR \\-q \", \" \\-\\-quiet\nNo summary"));
	assert_non_null(strstr(text, ".TP\n.B \\-\\-strict\nThe first warning"));
	assert_non_null(strstr(text, ".TP\n.BI \\-\\-fail\\-on \" RULES\"\nWith\n"));
	assert_non_null(strstr(text, ".TP\n.B abort\\-reasons\\-txt\n.BI gen\\- N \\-abort\\-reasons.txt :\n"));
	/* Non-default views say so, once each, after their paragraph. */
	assert_int_equal(count(text, "Not part of the default views.\n"), 11);
	assert_non_null(strstr(text, "glyph outlines).\nNot part of the default views.\n"));
	assert_non_null(strstr(text, ".TP\n.B 3\nInput rejected under \\fB\\-\\-strict\\fR (also an input with "
	                             "no JIT event), or a "
	                             "\\fB\\-\\-profile\\fR file that is not a profile dumpanalyze reads "
	                             "(a sysprof or symbol table format version it does not know, a "
	                             "memprof profile).\n"
	                             ".\\\" END GENERATED exit-status\n"));
	free(text);
}

static void test_readme_table(void **s)
{
	(void)s;
	char *text = printed(help_readme);
	assert_int_equal(count(text, "\n| `"), 21);
	assert_non_null(strstr(text, "\n| `profile` | `profile-lines.csv`, `profile-coverage.csv`, `profile-callees.csv` | with `--profile`: "));
	assert_non_null(strstr(text, "\n| `bush-svg` | `gen-N-bush-ROOT.svg` | the same picture as SVG (not default) |\n"));
	assert_non_null(strstr(text, "\n| `traces` | `gen-N-traces.csv` | `ID,PARENT,LINK_TYPE,NUM_BC,NUM_IR,NUM_SN,SIZE_MC`, "
	                             "one row per compiled trace in stop order |\n"));
	assert_int_equal(count(text, "(not default)"), 11);
	free(text);
}

static void test_unknown_format(void **s)
{
	(void)s;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	capture_begin();
	int r = cli_help_doc(fp, "html");
	capture_end();
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(r, -1);
	assert_int_equal(len, 0);
	assert_string_equal(cap.text, "dumpanalyze: unknown --help format 'html' (man or readme)\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_options_from_the_table),
		cmocka_unit_test(test_short_options_every_letter_once),
		cmocka_unit_test(test_short_options_buffer_too_small),
		cmocka_unit_test(test_usage_exit_codes_plain),
		cmocka_unit_test(test_man_entries),
		cmocka_unit_test(test_readme_table),
		cmocka_unit_test_teardown(test_unknown_format, restore_stderr),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
