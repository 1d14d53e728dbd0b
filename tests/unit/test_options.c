/* test_options.c — the getopt table and what is made of it: getopt's
 * short options, --help's exit codes (from docs/exit-status.md). */
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
	assert_string_equal(buf, ":d:o:p:V:j:qvh");
}

static void test_short_options_every_letter_once(void **s)
{
	(void)s;
	char buf[64];
	assert_int_equal(cli_short_options(buf, sizeof(buf)), 0);
	size_t letters = 0;
	for (size_t i = 0; i < cli_noptions; i++) {
		const struct option *o = &cli_options[i];
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_options_from_the_table),
		cmocka_unit_test(test_short_options_every_letter_once),
		cmocka_unit_test(test_short_options_buffer_too_small),
		cmocka_unit_test(test_usage_exit_codes_plain),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
