/* test_header.c — every header line shape LuaJIT's jit/dump.lua writes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "dumpanalyze/header.h"

static enum header_result parse(const char *line, struct header *h)
{
	const char *why;
	enum header_result r = header_parse(line, strlen(line), h, &why);
	if (r == HEADER_BAD)
		assert_non_null(why);
	return r;
}

static void assert_span(const char *p, size_t n, const char *want)
{
	assert_int_equal(n, strlen(want));
	assert_memory_equal(p, want, n);
}

static void test_root_start(void **s)
{
	(void)s;
	struct header h;
	assert_int_equal(parse("---- TRACE 1 start argparse.lua:53", &h), HEADER_OK);
	assert_int_equal(h.kind, HEADER_START);
	assert_int_equal(h.id, 1);
	assert_int_equal(h.parent, 0);
	assert_int_equal(h.parent_exit, PARENT_EXIT_NONE);
	assert_span(h.loc_text, h.loc_len, "argparse.lua:53");
	assert_span(h.loc.file, h.loc.file_len, "argparse.lua");
	assert_int_equal(h.loc.line, 53);
}

static void test_side_trace_start_has_parent_and_exit(void **s)
{
	(void)s;
	struct header h;
	assert_int_equal(parse("---- TRACE 2 start 1/3 standards.lua:262", &h), HEADER_OK);
	assert_int_equal(h.id, 2);
	assert_int_equal(h.parent, 1);
	assert_int_equal(h.parent_exit, 3);
	assert_span(h.loc.file, h.loc.file_len, "standards.lua");
	assert_int_equal(h.loc.line, 262);
}

static void test_stitch_start_keeps_origin(void **s)
{
	(void)s;
	struct header h;
	assert_int_equal(parse("---- TRACE 4 start 3/stitch lapp.lua:229", &h), HEADER_OK);
	assert_int_equal(h.parent, 3);
	assert_int_equal(h.parent_exit, PARENT_EXIT_STITCH);
	assert_span(h.loc.file, h.loc.file_len, "lapp.lua");
	assert_int_equal(h.loc.line, 229);
}

static void test_builtin_start_has_no_line(void **s)
{
	(void)s;
	struct header h;
	assert_int_equal(parse("---- TRACE 65 start builtin:remove", &h), HEADER_OK);
	assert_int_equal(h.parent_exit, PARENT_EXIT_NONE);
	assert_span(h.loc.file, h.loc.file_len, "builtin:remove");
	assert_int_equal(h.loc.line, LOC_NO_LINE);
	assert_int_equal(parse("---- TRACE 30 start 29/3 builtin:remove", &h), HEADER_OK);
	assert_int_equal(h.parent, 29);
	assert_int_equal(h.parent_exit, 3);
	assert_int_equal(h.loc.line, LOC_NO_LINE);
}

static void test_quoted_chunk_name_with_colons_and_spaces(void **s)
{
	(void)s;
	struct header h;
	assert_int_equal(parse("---- TRACE 2 start \"t:1:2 x\":1", &h), HEADER_OK);
	assert_span(h.loc.file, h.loc.file_len, "\"t:1:2 x\"");
	assert_int_equal(h.loc.line, 1);
}

static void test_quoted_chunk_name_spanning_lines(void **s)
{
	(void)s;
	struct header h;
	assert_int_equal(parse("---- TRACE 3 start \"s=0", &h), HEADER_INCOMPLETE);
	assert_int_equal(parse("---- TRACE 3 start \"s=0\nfor i=1,99 do s=s+i end", &h),
	                 HEADER_INCOMPLETE);
	assert_int_equal(parse("---- TRACE 3 start \"s=0\nfor i=1,99 do s=s+i end\nreturn s\":2", &h),
	                 HEADER_OK);
	assert_span(h.loc.file, h.loc.file_len, "\"s=0\nfor i=1,99 do s=s+i end\nreturn s\"");
	assert_int_equal(h.loc.line, 2);
	assert_int_equal(parse("---- TRACE 7 abort \"for i=1,99 do", &h), HEADER_INCOMPLETE);
	assert_int_equal(parse("---- TRACE 7 abort \"for i=1,99 do\nlocal f=function()end end\":2 -- NYI: bytecode 51", &h),
	                 HEADER_OK);
	assert_int_equal(h.loc.line, 2);
	assert_span(h.reason, h.reason_len, "NYI: bytecode 51");
}

static void test_section_headers(void **s)
{
	(void)s;
	struct header h;
	assert_int_equal(parse("---- TRACE 1 IR", &h), HEADER_OK);
	assert_int_equal(h.kind, HEADER_IR);
	assert_int_equal(parse("---- TRACE 1 snapshots", &h), HEADER_OK);
	assert_int_equal(h.kind, HEADER_SNAPSHOTS);
	assert_int_equal(parse("---- TRACE 1 mcode 113", &h), HEADER_OK);
	assert_int_equal(h.kind, HEADER_MCODE);
	assert_int_equal(h.number, 113);
	assert_int_equal(parse("---- TRACE 12 exit 0", &h), HEADER_OK);
	assert_int_equal(h.kind, HEADER_EXIT);
	assert_int_equal(h.id, 12);
	assert_int_equal(h.number, 0);
	assert_int_equal(parse("---- TRACE flush", &h), HEADER_OK);
	assert_int_equal(h.kind, HEADER_FLUSH);
	assert_int_equal(h.id, 0);
}

static void test_stop_link_words(void **s)
{
	(void)s;
	static const struct { const char *word; enum link_kind kind; } words[] = {
		{ "loop", LINK_LOOP }, { "return", LINK_RETURN },
		{ "interpreter", LINK_INTERPRETER }, { "stitch", LINK_STITCH },
		{ "tail-recursion", LINK_TAIL_RECURSION },
		{ "up-recursion", LINK_UP_RECURSION },
		{ "down-recursion", LINK_DOWN_RECURSION },
	};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		char line[64];
		struct header h;
		snprintf(line, sizeof(line), "---- TRACE 1 stop -> %s", words[i].word);
		assert_int_equal(parse(line, &h), HEADER_OK);
		assert_int_equal(h.kind, HEADER_STOP);
		assert_int_equal(h.link_kind, words[i].kind);
		assert_int_equal(h.link_target, 0);
		assert_span(h.link, h.link_len, words[i].word);
		assert_string_equal(link_kind_word(h.link_kind), words[i].word);
	}
}

static void test_stop_links_to_other_traces(void **s)
{
	(void)s;
	struct header h;
	assert_int_equal(parse("---- TRACE 6 stop -> 5", &h), HEADER_OK);
	assert_int_equal(h.link_kind, LINK_ROOT);
	assert_int_equal(h.link_target, 5);
	assert_span(h.link, h.link_len, "5");
	assert_int_equal(parse("---- TRACE 53 stop -> 47 stitch", &h), HEADER_OK);
	assert_int_equal(h.link_kind, LINK_STITCH);
	assert_int_equal(h.link_target, 47);
	assert_span(h.link, h.link_len, "47 stitch");
	assert_int_equal(parse("---- TRACE 6 stop -> someday", &h), HEADER_OK);
	assert_int_equal(h.link_kind, LINK_OTHER);
	assert_span(h.link, h.link_len, "someday");
}

static void test_abort_reason_is_byte_exact(void **s)
{
	(void)s;
	struct header h;
	assert_int_equal(parse("---- TRACE 1 abort markdown.lua:188 -- leaving loop in root trace", &h),
	                 HEADER_OK);
	assert_int_equal(h.kind, HEADER_ABORT);
	assert_span(h.loc.file, h.loc.file_len, "markdown.lua");
	assert_int_equal(h.loc.line, 188);
	assert_span(h.reason, h.reason_len, "leaving loop in root trace");
	assert_int_equal(parse("---- TRACE 9 abort x.lua:5 -- NYI: bytecode VARG  ", &h), HEADER_OK);
	assert_span(h.reason, h.reason_len, "NYI: bytecode VARG  ");
}

static void test_abort_in_fast_function(void **s)
{
	(void)s;
	struct header h;
	assert_int_equal(parse("---- TRACE 75 abort string.byte -- leaving loop in root trace", &h),
	                 HEADER_OK);
	assert_span(h.loc.file, h.loc.file_len, "string.byte");
	assert_int_equal(h.loc.line, LOC_NO_LINE);
	assert_span(h.reason, h.reason_len, "leaving loop in root trace");
}

static void test_abort_chunk_name_with_separator(void **s)
{
	(void)s;
	struct header h;
	assert_int_equal(parse("---- TRACE 7 abort evil -- name:2 -- NYI: bytecode 51", &h), HEADER_OK);
	assert_span(h.loc.file, h.loc.file_len, "evil -- name");
	assert_int_equal(h.loc.line, 2);
	assert_span(h.reason, h.reason_len, "NYI: bytecode 51");
}

static void test_malformed_headers_are_bad(void **s)
{
	(void)s;
	struct header h;
	assert_int_equal(parse("---- TRACE one IR", &h), HEADER_BAD);
	assert_int_equal(parse("---- TRACE 1 bogus", &h), HEADER_BAD);
	assert_int_equal(parse("---- TRACE 1 mcode", &h), HEADER_BAD);
	assert_int_equal(parse("---- TRACE 1 mcode 12x", &h), HEADER_BAD);
	assert_int_equal(parse("---- TRACE 1 stop loop", &h), HEADER_BAD);
	assert_int_equal(parse("---- TRACE 1 abort x.lua:3 NYI", &h), HEADER_BAD);
	assert_int_equal(parse("---- TRACE 1 start", &h), HEADER_BAD);
	assert_int_equal(parse("---- TRACE 1 exit", &h), HEADER_BAD);
	assert_int_equal(parse("---- TRACE 1 IR extra", &h), HEADER_BAD);
	assert_int_equal(parse("---- TRACE 70000 start x.lua:1", &h), HEADER_BAD);
	assert_int_equal(parse("---- TRACE 99999999999999999999 IR", &h), HEADER_BAD);
	assert_int_equal(parse("---- TRACE ", &h), HEADER_BAD);
}

static void test_other_lines_are_not_headers(void **s)
{
	(void)s;
	struct header h;
	assert_int_equal(parse("0001  FORI  1 => 2", &h), HEADER_NOT);
	assert_int_equal(parse("---- TRACE", &h), HEADER_NOT);
	assert_int_equal(parse("[TRACE   1 standards.lua:262 loop]", &h), HEADER_NOT);
	assert_true(header_is("---- TRACE 1 IR", 15));
	assert_false(header_is("--- TRACE 1 IR", 14));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_root_start),
		cmocka_unit_test(test_side_trace_start_has_parent_and_exit),
		cmocka_unit_test(test_stitch_start_keeps_origin),
		cmocka_unit_test(test_builtin_start_has_no_line),
		cmocka_unit_test(test_quoted_chunk_name_with_colons_and_spaces),
		cmocka_unit_test(test_quoted_chunk_name_spanning_lines),
		cmocka_unit_test(test_section_headers),
		cmocka_unit_test(test_stop_link_words),
		cmocka_unit_test(test_stop_links_to_other_traces),
		cmocka_unit_test(test_abort_reason_is_byte_exact),
		cmocka_unit_test(test_abort_in_fast_function),
		cmocka_unit_test(test_abort_chunk_name_with_separator),
		cmocka_unit_test(test_malformed_headers_are_bad),
		cmocka_unit_test(test_other_lines_are_not_headers),
	};
	return cmocka_run_group_tests_name("header", tests, NULL, NULL);
}
