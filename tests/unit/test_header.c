/* test_header.c — every "---- TRACE ..." line shape LuaJIT's jit/dump.lua
 * writes (2.0, 2.1, luajit2), and the ones that only look like it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "parse/header.h"

static enum header_result parse(const char *line, struct header *h)
{
	const char *why = "unset";
	enum header_result r = header_parse(line, strlen(line), h, &why);
	if (r == HEADER_BAD) {
		assert_non_null(why);
		assert_true(strlen(why) > 0);
	} else {
		assert_null(why);
	}
	return r;
}

/* A header that parses, of the given kind and trace number. */
static void parse_ok(const char *line, struct header *h, enum header_kind kind, uint32_t id)
{
	assert_int_equal(parse(line, h), HEADER_OK);
	assert_int_equal(h->kind, kind);
	assert_int_equal(h->id, id);
}

static void assert_span(const char *p, size_t n, const char *want)
{
	assert_non_null(p);
	assert_int_equal(n, strlen(want));
	assert_memory_equal(p, want, n);
}

/* A span that points into the line at the given offset. */
static void assert_span_at(const char *line, const char *p, size_t n, size_t off, const char *want)
{
	assert_ptr_equal(p, line + off);
	assert_span(p, n, want);
}

static void assert_bad(const char *line)
{
	struct header h;
	const char *why = NULL;
	assert_int_equal(header_parse(line, strlen(line), &h, &why), HEADER_BAD);
	assert_non_null(why);
	assert_true(strlen(why) > 0);
}

/* ---- start ------------------------------------------------------------ */

static void test_root_start_splits_location(void **s)
{
	(void)s;
	const char *line = "---- TRACE 1 start argparse.lua:53";
	struct header h;
	parse_ok(line, &h, HEADER_START, 1);
	assert_int_equal(h.parent, 0);
	assert_int_equal(h.parent_exit, PARENT_EXIT_NONE);
	assert_span_at(line, h.loc_text, h.loc_len, 19, "argparse.lua:53");
	assert_span_at(line, h.loc.file, h.loc.file_len, 19, "argparse.lua");
	assert_int_equal(h.loc.line, 53);
}

static void test_side_start_has_parent_and_exit(void **s)
{
	(void)s;
	const char *line = "---- TRACE 2 start 1/3 standards.lua:262";
	struct header h;
	parse_ok(line, &h, HEADER_START, 2);
	assert_int_equal(h.parent, 1);
	assert_int_equal(h.parent_exit, 3);
	assert_span_at(line, h.loc_text, h.loc_len, 23, "standards.lua:262");
	assert_span(h.loc.file, h.loc.file_len, "standards.lua");
	assert_int_equal(h.loc.line, 262);
}

static void test_stitch_start_has_parent_and_stitch_marker(void **s)
{
	(void)s;
	const char *line = "---- TRACE 4 start 3/stitch lapp.lua:229";
	struct header h;
	parse_ok(line, &h, HEADER_START, 4);
	assert_int_equal(h.parent, 3);
	assert_int_equal(h.parent_exit, PARENT_EXIT_STITCH);
	assert_span_at(line, h.loc_text, h.loc_len, 28, "lapp.lua:229");
	assert_span(h.loc.file, h.loc.file_len, "lapp.lua");
	assert_int_equal(h.loc.line, 229);
}

static void test_builtin_start_has_no_line(void **s)
{
	(void)s;
	struct header h;
	parse_ok("---- TRACE 65 start builtin:remove", &h, HEADER_START, 65);
	assert_int_equal(h.parent, 0);
	assert_int_equal(h.parent_exit, PARENT_EXIT_NONE);
	assert_span(h.loc_text, h.loc_len, "builtin:remove");
	assert_span(h.loc.file, h.loc.file_len, "builtin:remove");
	assert_int_equal(h.loc.line, LOC_NO_LINE);
}

static void test_side_start_at_builtin_has_parent_and_no_line(void **s)
{
	(void)s;
	struct header h;
	parse_ok("---- TRACE 30 start 29/3 builtin:remove", &h, HEADER_START, 30);
	assert_int_equal(h.parent, 29);
	assert_int_equal(h.parent_exit, 3);
	assert_span(h.loc.file, h.loc.file_len, "builtin:remove");
	assert_int_equal(h.loc.line, LOC_NO_LINE);
}

static void test_side_start_from_exit_zero(void **s)
{
	(void)s;
	struct header h;
	parse_ok("---- TRACE 12 start 7/0 x.lua:9", &h, HEADER_START, 12);
	assert_int_equal(h.parent, 7);
	assert_int_equal(h.parent_exit, 0);
}

static void test_quoted_chunk_name_with_colons_and_spaces_is_one_location(void **s)
{
	(void)s;
	struct header h;
	parse_ok("---- TRACE 2 start \"t:1:2 x\":1", &h, HEADER_START, 2);
	assert_span(h.loc_text, h.loc_len, "\"t:1:2 x\":1");
	assert_span(h.loc.file, h.loc.file_len, "\"t:1:2 x\"");
	assert_int_equal(h.loc.line, 1);
	parse_ok("---- TRACE 3 start \"say \"hi\": ok\":2", &h, HEADER_START, 3);
	assert_span(h.loc.file, h.loc.file_len, "\"say \"hi\": ok\"");
	assert_int_equal(h.loc.line, 2);
	parse_ok("---- TRACE 5 start 4/1 \"a b:c\":7", &h, HEADER_START, 5);
	assert_int_equal(h.parent, 4);
	assert_int_equal(h.parent_exit, 1);
	assert_span(h.loc.file, h.loc.file_len, "\"a b:c\"");
	assert_int_equal(h.loc.line, 7);
}

static void test_unclosed_quoted_chunk_name_is_incomplete(void **s)
{
	(void)s;
	struct header h;
	assert_int_equal(parse("---- TRACE 3 start \"s=0", &h), HEADER_INCOMPLETE);
	assert_int_equal(h.kind, HEADER_START);
	assert_int_equal(h.id, 3);
	assert_int_equal(parse("---- TRACE 3 start \"s=0\nfor i=1,99 do s=s+i end", &h),
	                 HEADER_INCOMPLETE);
	/* a quote and a colon, but no digits yet */
	assert_int_equal(parse("---- TRACE 3 start \"x\":", &h), HEADER_INCOMPLETE);
	assert_int_equal(parse("---- TRACE 8 start 7/2 \"for i=1,99 do", &h), HEADER_INCOMPLETE);
	assert_int_equal(h.parent, 7);
	assert_int_equal(h.parent_exit, 2);
}

static void test_quoted_chunk_name_joined_over_lines_is_complete(void **s)
{
	(void)s;
	const char *line = "---- TRACE 3 start \"s=0\nfor i=1,99 do s=s+i end\nreturn s\":2";
	struct header h;
	parse_ok(line, &h, HEADER_START, 3);
	assert_span_at(line, h.loc_text, h.loc_len, 19,
	               "\"s=0\nfor i=1,99 do s=s+i end\nreturn s\":2");
	assert_span(h.loc.file, h.loc.file_len, "\"s=0\nfor i=1,99 do s=s+i end\nreturn s\"");
	assert_int_equal(h.loc.line, 2);
}

/* ---- sections --------------------------------------------------------- */

static void test_ir_header(void **s)
{
	(void)s;
	struct header h;
	parse_ok("---- TRACE 1 IR", &h, HEADER_IR, 1);
}

static void test_snapshots_header(void **s)
{
	(void)s;
	struct header h;
	parse_ok("---- TRACE 17 snapshots", &h, HEADER_SNAPSHOTS, 17);
}

static void test_mcode_header_has_size(void **s)
{
	(void)s;
	struct header h;
	parse_ok("---- TRACE 1 mcode 113", &h, HEADER_MCODE, 1);
	assert_int_equal(h.number, 113);
	parse_ok("---- TRACE 2 mcode 0", &h, HEADER_MCODE, 2);
	assert_int_equal(h.number, 0);
}

/* ---- stop ------------------------------------------------------------- */

static void test_stop_link_words_have_their_kind(void **s)
{
	(void)s;
	static const struct { const char *word; enum da_link kind; } words[] = {
		{ "loop", DA_LINK_LOOP }, { "return", DA_LINK_RETURN },
		{ "interpreter", DA_LINK_INTERPRETER }, { "stitch", DA_LINK_STITCH },
		{ "tail-recursion", DA_LINK_TAIL_RECURSION },
		{ "up-recursion", DA_LINK_UP_RECURSION },
		{ "down-recursion", DA_LINK_DOWN_RECURSION },
	};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		char line[64];
		struct header h;
		snprintf(line, sizeof(line), "---- TRACE 1 stop -> %s", words[i].word);
		parse_ok(line, &h, HEADER_STOP, 1);
		assert_int_equal(h.link_kind, words[i].kind);
		assert_int_equal(h.link_target, 0);
		assert_span_at(line, h.link, h.link_len, 21, words[i].word);
		assert_string_equal(link_kind_word(h.link_kind), words[i].word);
	}
}

static void test_stop_to_trace_number_is_root_link(void **s)
{
	(void)s;
	struct header h;
	parse_ok("---- TRACE 6 stop -> 5", &h, HEADER_STOP, 6);
	assert_int_equal(h.link_kind, DA_LINK_ROOT);
	assert_int_equal(h.link_target, 5);
	assert_span(h.link, h.link_len, "5");
}

static void test_stop_to_trace_number_with_word_keeps_both(void **s)
{
	(void)s;
	struct header h;
	parse_ok("---- TRACE 6 stop -> 5 stitch", &h, HEADER_STOP, 6);
	assert_int_equal(h.link_kind, DA_LINK_STITCH);
	assert_int_equal(h.link_target, 5);
	assert_span(h.link, h.link_len, "5 stitch");
	parse_ok("---- TRACE 53 stop -> 47 stitch", &h, HEADER_STOP, 53);
	assert_int_equal(h.link_kind, DA_LINK_STITCH);
	assert_int_equal(h.link_target, 47);
}

static void test_unknown_link_word_is_other_and_kept(void **s)
{
	(void)s;
	struct header h;
	parse_ok("---- TRACE 6 stop -> someday", &h, HEADER_STOP, 6);
	assert_int_equal(h.link_kind, DA_LINK_OTHER);
	assert_int_equal(h.link_target, 0);
	assert_span(h.link, h.link_len, "someday");
	assert_string_equal(link_kind_word(DA_LINK_OTHER), "other");
	/* a prefix of a known word is not that word */
	parse_ok("---- TRACE 6 stop -> loo", &h, HEADER_STOP, 6);
	assert_int_equal(h.link_kind, DA_LINK_OTHER);
	assert_span(h.link, h.link_len, "loo");
}

/* ---- abort ------------------------------------------------------------ */

static void test_abort_at_file_and_line(void **s)
{
	(void)s;
	const char *line = "---- TRACE 1 abort markdown.lua:188 -- leaving loop in root trace";
	struct header h;
	parse_ok(line, &h, HEADER_ABORT, 1);
	assert_span_at(line, h.loc_text, h.loc_len, 19, "markdown.lua:188");
	assert_span(h.loc.file, h.loc.file_len, "markdown.lua");
	assert_int_equal(h.loc.line, 188);
	assert_span_at(line, h.reason, h.reason_len, 39, "leaving loop in root trace");
}

static void test_abort_in_fast_function_has_no_line(void **s)
{
	(void)s;
	struct header h;
	parse_ok("---- TRACE 75 abort string.byte -- leaving loop in root trace", &h,
	         HEADER_ABORT, 75);
	assert_span(h.loc_text, h.loc_len, "string.byte");
	assert_span(h.loc.file, h.loc.file_len, "string.byte");
	assert_int_equal(h.loc.line, LOC_NO_LINE);
	assert_span(h.reason, h.reason_len, "leaving loop in root trace");
}

static void test_abort_reason_keeps_trailing_spaces(void **s)
{
	(void)s;
	struct header h;
	parse_ok("---- TRACE 9 abort x.lua:5 -- NYI: bytecode VARG  ", &h, HEADER_ABORT, 9);
	assert_span(h.reason, h.reason_len, "NYI: bytecode VARG  ");
	assert_int_equal(h.reason_len, 20);
	assert_span(h.loc.file, h.loc.file_len, "x.lua");
	assert_int_equal(h.loc.line, 5);
}

static void test_abort_chunk_name_containing_separator(void **s)
{
	(void)s;
	struct header h;
	parse_ok("---- TRACE 7 abort evil -- name.lua:2 -- NYI: bytecode 51", &h, HEADER_ABORT, 7);
	assert_span(h.loc_text, h.loc_len, "evil -- name.lua:2");
	assert_span(h.loc.file, h.loc.file_len, "evil -- name.lua");
	assert_int_equal(h.loc.line, 2);
	assert_span(h.reason, h.reason_len, "NYI: bytecode 51");
}

static void test_abort_quoted_chunk_name_containing_separator(void **s)
{
	(void)s;
	struct header h;
	parse_ok("---- TRACE 7 abort \"a -- b:1\":3 -- NYI: bytecode 51", &h, HEADER_ABORT, 7);
	assert_span(h.loc.file, h.loc.file_len, "\"a -- b:1\"");
	assert_int_equal(h.loc.line, 3);
	assert_span(h.reason, h.reason_len, "NYI: bytecode 51");
}

static void test_abort_reason_containing_separator(void **s)
{
	(void)s;
	struct header h;
	parse_ok("---- TRACE 7 abort x.lua:5 -- error -- twice", &h, HEADER_ABORT, 7);
	assert_span(h.loc_text, h.loc_len, "x.lua:5");
	assert_span(h.reason, h.reason_len, "error -- twice");
}

static void test_abort_quoted_chunk_name_over_lines(void **s)
{
	(void)s;
	struct header h;
	assert_int_equal(parse("---- TRACE 7 abort \"for i=1,99 do", &h), HEADER_INCOMPLETE);
	parse_ok("---- TRACE 7 abort \"for i=1,99 do\nlocal f=function()end end\":2 -- NYI: bytecode 51",
	         &h, HEADER_ABORT, 7);
	assert_span(h.loc.file, h.loc.file_len, "\"for i=1,99 do\nlocal f=function()end end\"");
	assert_int_equal(h.loc.line, 2);
	assert_span(h.reason, h.reason_len, "NYI: bytecode 51");
}

/* ---- exit and flush --------------------------------------------------- */

static void test_exit_header_has_exit_number(void **s)
{
	(void)s;
	struct header h;
	parse_ok("---- TRACE 1 exit 0", &h, HEADER_EXIT, 1);
	assert_int_equal(h.number, 0);
	parse_ok("---- TRACE 12 exit 17", &h, HEADER_EXIT, 12);
	assert_int_equal(h.number, 17);
}

static void test_flush_header_has_no_number(void **s)
{
	(void)s;
	struct header h;
	parse_ok("---- TRACE flush", &h, HEADER_FLUSH, 0);
}

static void test_largest_trace_number_is_accepted(void **s)
{
	(void)s;
	struct header h;
	parse_ok("---- TRACE 65535 IR", &h, HEADER_IR, 65535);
}

/* ---- bad and not headers ---------------------------------------------- */

static void test_missing_trace_number_is_bad(void **s)
{
	(void)s;
	assert_bad("---- TRACE IR");
	assert_bad("---- TRACE one IR");
	assert_bad("---- TRACE 1");
	assert_bad("---- TRACE ");
	assert_bad("---- TRACE 99999999999999999999 IR");
}

static void test_trace_number_above_16_bits_is_bad(void **s)
{
	(void)s;
	assert_bad("---- TRACE 65536 IR");
	assert_bad("---- TRACE 70000 start x.lua:1");
}

static void test_unknown_kind_is_bad(void **s)
{
	(void)s;
	assert_bad("---- TRACE 1 bogus");
	assert_bad("---- TRACE 1 Start x.lua:1");
	assert_bad("---- TRACE 1 flush");
}

static void test_mcode_without_size_is_bad(void **s)
{
	(void)s;
	assert_bad("---- TRACE 1 mcode");
	assert_bad("---- TRACE 1 mcode ");
	assert_bad("---- TRACE 1 mcode 12x");
}

static void test_stop_without_arrow_is_bad(void **s)
{
	(void)s;
	assert_bad("---- TRACE 1 stop loop");
	assert_bad("---- TRACE 1 stop");
	assert_bad("---- TRACE 1 stop -> ");
}

static void test_abort_without_separator_is_bad(void **s)
{
	(void)s;
	assert_bad("---- TRACE 1 abort x.lua:3 NYI");
	assert_bad("---- TRACE 1 abort x.lua:3");
}

static void test_other_malformed_headers_are_bad(void **s)
{
	(void)s;
	assert_bad("---- TRACE 1 start");
	assert_bad("---- TRACE 1 exit");
	assert_bad("---- TRACE 1 exit x");
	assert_bad("---- TRACE 1 IR extra");
	assert_bad("---- TRACE 1 snapshots x");
}

static void test_header_is_checks_the_prefix(void **s)
{
	(void)s;
	assert_true(header_is("---- TRACE 1 IR", 15));
	assert_true(header_is("---- TRACE ", 11));
	assert_false(header_is("---- TRACE", 10));
	assert_false(header_is("--- TRACE 1 IR", 14));
	assert_false(header_is("---- trace 1 IR", 15));
	/* only the given length counts */
	assert_false(header_is("---- TRACE 1 IR", 8));
	assert_false(header_is("", 0));
}

static void test_non_header_lines_are_not_headers(void **s)
{
	(void)s;
	struct header h;
	assert_int_equal(parse("0001  FORI     1 => 0005", &h), HEADER_NOT);
	assert_int_equal(parse("---- TRACE", &h), HEADER_NOT);
	assert_int_equal(parse(" ---- TRACE 1 IR", &h), HEADER_NOT);
	assert_int_equal(parse("[TRACE   1 standards.lua:262 loop]", &h), HEADER_NOT);
	assert_int_equal(parse("", &h), HEADER_NOT);
	assert_int_equal(parse("hello world", &h), HEADER_NOT);
}

static void test_kind_words(void **s)
{
	(void)s;
	assert_string_equal(header_kind_word(HEADER_START), "start");
	assert_string_equal(header_kind_word(HEADER_IR), "IR");
	assert_string_equal(header_kind_word(HEADER_SNAPSHOTS), "snapshots");
	assert_string_equal(header_kind_word(HEADER_MCODE), "mcode");
	assert_string_equal(header_kind_word(HEADER_STOP), "stop");
	assert_string_equal(header_kind_word(HEADER_ABORT), "abort");
	assert_string_equal(header_kind_word(HEADER_EXIT), "exit");
	assert_string_equal(header_kind_word(HEADER_FLUSH), "flush");
	assert_string_equal(header_kind_word(HEADER_KIND_COUNT), "?");
	assert_string_equal(link_kind_word(DA_LINK_ROOT), "root");
	assert_string_equal(link_kind_word(DA_LINK_COUNT), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_root_start_splits_location),
		cmocka_unit_test(test_side_start_has_parent_and_exit),
		cmocka_unit_test(test_stitch_start_has_parent_and_stitch_marker),
		cmocka_unit_test(test_builtin_start_has_no_line),
		cmocka_unit_test(test_side_start_at_builtin_has_parent_and_no_line),
		cmocka_unit_test(test_side_start_from_exit_zero),
		cmocka_unit_test(test_quoted_chunk_name_with_colons_and_spaces_is_one_location),
		cmocka_unit_test(test_unclosed_quoted_chunk_name_is_incomplete),
		cmocka_unit_test(test_quoted_chunk_name_joined_over_lines_is_complete),
		cmocka_unit_test(test_ir_header),
		cmocka_unit_test(test_snapshots_header),
		cmocka_unit_test(test_mcode_header_has_size),
		cmocka_unit_test(test_stop_link_words_have_their_kind),
		cmocka_unit_test(test_stop_to_trace_number_is_root_link),
		cmocka_unit_test(test_stop_to_trace_number_with_word_keeps_both),
		cmocka_unit_test(test_unknown_link_word_is_other_and_kept),
		cmocka_unit_test(test_abort_at_file_and_line),
		cmocka_unit_test(test_abort_in_fast_function_has_no_line),
		cmocka_unit_test(test_abort_reason_keeps_trailing_spaces),
		cmocka_unit_test(test_abort_chunk_name_containing_separator),
		cmocka_unit_test(test_abort_quoted_chunk_name_containing_separator),
		cmocka_unit_test(test_abort_reason_containing_separator),
		cmocka_unit_test(test_abort_quoted_chunk_name_over_lines),
		cmocka_unit_test(test_exit_header_has_exit_number),
		cmocka_unit_test(test_flush_header_has_no_number),
		cmocka_unit_test(test_largest_trace_number_is_accepted),
		cmocka_unit_test(test_missing_trace_number_is_bad),
		cmocka_unit_test(test_trace_number_above_16_bits_is_bad),
		cmocka_unit_test(test_unknown_kind_is_bad),
		cmocka_unit_test(test_mcode_without_size_is_bad),
		cmocka_unit_test(test_stop_without_arrow_is_bad),
		cmocka_unit_test(test_abort_without_separator_is_bad),
		cmocka_unit_test(test_other_malformed_headers_are_bad),
		cmocka_unit_test(test_header_is_checks_the_prefix),
		cmocka_unit_test(test_non_header_lines_are_not_headers),
		cmocka_unit_test(test_kind_words),
	};
	return cmocka_run_group_tests_name("header", tests, NULL, NULL);
}
