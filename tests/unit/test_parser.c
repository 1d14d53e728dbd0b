/* test_parser.c — the line state machine on line sequences shaped like
 * real dump output. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <cmocka.h>
#include "dumpanalyze/parser.h"

#define MAX_EVENTS 32

/* What the fake sink saw: copies, since the parser reuses its buffers. */
struct seen {
	enum event_kind kind;
	uint32_t id, parent, num_bc, num_ir, num_sn, size_mc, nexits, number;
	int32_t parent_exit, line;
	uint16_t exits[8];
	char loc[128], text_bc[512], reason[64];
	uint64_t at;
};

struct sink {
	struct seen ev[MAX_EVENTS];
	int n;
	int fail_with;
};

static int record(void *ctx, const struct event *e)
{
	struct sink *k = ctx;
	assert_true(k->n < MAX_EVENTS);
	struct seen *s = &k->ev[k->n++];
	memset(s, 0, sizeof(*s));
	s->kind = e->kind;
	s->at = e->line;
	if (e->header) {
		s->id = e->header->id;
		s->number = e->header->number;
		if (e->header->reason)
			memcpy(s->reason, e->header->reason, e->header->reason_len);
	}
	if (e->trace) {
		const struct pending_trace *t = e->trace;
		s->id = t->id;
		s->parent = t->parent;
		s->parent_exit = t->parent_exit;
		s->num_bc = t->num_bc;
		s->num_ir = t->num_ir;
		s->num_sn = t->num_sn;
		s->size_mc = t->size_mc;
		s->nexits = t->nexits;
		s->line = t->loc.line;
		if (t->nexits)
			memcpy(s->exits, t->exits, (t->nexits < 8 ? t->nexits : 8) * sizeof(uint16_t));
		memcpy(s->loc, t->loc_text, t->loc_len < 127 ? t->loc_len : 127);
		if (t->text)
			memcpy(s->text_bc, t->text->buf + t->text->off[SEC_BYTECODE],
			       t->text->len[SEC_BYTECODE] < 511 ? t->text->len[SEC_BYTECODE] : 511);
	}
	return k->fail_with;
}

struct run {
	struct diag diag;
	struct sink sink;
	struct parser *p;
	int last;
};

static void start(struct run *r, int keep_text)
{
	memset(r, 0, sizeof(*r));
	diag_init(&r->diag, "t.dump");
	r->diag.quiet = 1;
	r->p = parser_new(&r->diag, keep_text, record, &r->sink);
}

/* Feed lines; returns the first negative result, else 0. */
static int feed(struct run *r, const char *const *lines)
{
	int res = 0;
	for (size_t i = 0; lines[i]; i++) {
		struct line l = { lines[i], strlen(lines[i]), (uint64_t)++r->last };
		int x = parser_line(r->p, &l);
		if (x < 0 && res == 0)
			res = x;
	}
	return res;
}

static void finish(struct run *r)
{
	parser_end(r->p, (uint64_t)r->last);
}

static void assert_counts_add_up(struct run *r)
{
	const struct line_counts *c = parser_counts(r->p);
	assert_int_equal(c->total, (uint64_t)r->last);
	assert_int_equal(c->total, c->header + c->content + c->exit_regs + c->foreign + c->blank);
}

static const char *const root_trace[] = {
	"---- TRACE 1 start standards.lua:262",
	"0001  KSHORT   2   1",
	"0002  FORI     1 => 0005",
	"---- TRACE 1 IR",
	"0001    int SLOAD  #2    CI",
	"....        SNAP   #1   [ ---- ---- 0001 ]",
	"0008 ------ LOOP ------------",
	"0009 >  int ADDOV  0001  +1",
	"---- TRACE 1 mcode 113",
	"0bccff9d  mov dword [0x40000410], 0x1",
	"0bccffa8  jge 0xbcc0014\t->3",
	"->LOOP:",
	"0bccffb0  jmp 0xbcc0014\t->1",
	"0bccffb8  jo 0xbcc0018\t->3",
	"---- TRACE 1 stop -> loop",
	"",
	NULL
};

static void test_root_trace_counts(void **s)
{
	(void)s;
	struct run r;
	start(&r, 0);
	assert_int_equal(feed(&r, root_trace), 0);
	finish(&r);
	assert_int_equal(r.sink.n, 1);
	struct seen *e = &r.sink.ev[0];
	assert_int_equal(e->kind, EV_STOP);
	assert_int_equal(e->id, 1);
	assert_int_equal(e->parent_exit, PARENT_EXIT_NONE);
	assert_int_equal(e->num_bc, 2);
	assert_int_equal(e->num_ir, 3);     /* the LOOP marker counts */
	assert_int_equal(e->num_sn, 1);
	assert_int_equal(e->size_mc, 113);
	assert_string_equal(e->loc, "standards.lua:262");
	assert_int_equal(e->line, 262);
	assert_int_equal(e->at, 15);
	assert_counts_add_up(&r);
	assert_int_equal(parser_counts(r.p)->content, 11);
	assert_int_equal(parser_counts(r.p)->blank, 1);
	parser_free(r.p);
}

static void test_mcode_exits_sorted_unique(void **s)
{
	(void)s;
	struct run r;
	start(&r, 0);
	feed(&r, root_trace);
	assert_int_equal(r.sink.ev[0].nexits, 2);
	assert_int_equal(r.sink.ev[0].exits[0], 1);
	assert_int_equal(r.sink.ev[0].exits[1], 3);
	parser_free(r.p);
}

static void test_separate_snapshots_section_counts_snapshots(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 2 start 1/3 x.lua:4",
		"0010  ADDVN    1   1   0  ; 1",
		"---- TRACE 2 snapshots",
		"#0   0001 [ ---- ---- ]",
		"#1   0004 [ ---- 0003 ]",
		"---- TRACE 2 mcode 40",
		"55bbc524cec7  jmp 0x55bbc524ce26\t->LOOP",
		"---- TRACE 2 stop -> 1",
		"", NULL
	};
	struct run r;
	start(&r, 0);
	feed(&r, lines);
	struct seen *e = &r.sink.ev[0];
	assert_int_equal(e->num_sn, 2);
	assert_int_equal(e->num_ir, 0);
	assert_int_equal(e->parent, 1);
	assert_int_equal(e->parent_exit, 3);
	assert_int_equal(e->nexits, 0);     /* ->LOOP is no exit */
	parser_free(r.p);
}

static void test_program_output_is_foreign(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"hello world",
		"---- TRACE 1 start x.lua:1",
		"0001  KSHORT   2   1",
		"42",
		"0002  FORI     1 => 0005",
		"---- TRACE 1 IR",
		"io.write: ..57",
		"0001    int SLOAD  #2    CI",
		"---- TRACE 1 mcode 10",
		"total=300",
		"0bccff9d  mov dword [0x40000410], 0x1",
		"---- TRACE 1 stop -> loop",
		"",
		"bye",
		NULL
	};
	struct run r;
	start(&r, 1);
	feed(&r, lines);
	struct seen *e = &r.sink.ev[0];
	assert_int_equal(e->num_bc, 2);
	assert_int_equal(e->num_ir, 1);
	assert_string_equal(e->text_bc, "0001  KSHORT   2   1\n0002  FORI     1 => 0005\n");
	assert_int_equal(parser_counts(r.p)->foreign, 5);
	assert_counts_add_up(&r);
	parser_free(r.p);
}

static void test_exit_register_lines_then_new_trace(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 1 exit 2",
		" 000055bbc524ff81 00007f572b275a80 00007f572b2575a8 00007f572b2bc7f0",
		" 0000000000000001 0000000000000002 0000000000000003 0000000000000004",
		" 0000000000000001 0000000000000002 0000000000000003 0000000000000004",
		" 0000000000000001 0000000000000002 0000000000000003 0000000000000004",
		"               +3                +1   +94264766767503 +4.5035996273705e+15",
		"               +3                +1                +0                +0",
		"               +3                +1                +0                +0",
		"  -1.1429096284595                +1                +0                +0",
		"---- TRACE 2 start 1/2 x.lua:9",
		"0003  ADDVN    1   1   0  ; 1",
		"---- TRACE 2 abort x.lua:9 -- NYI: bytecode 71",
		"", NULL
	};
	struct run r;
	start(&r, 0);
	feed(&r, lines);
	assert_int_equal(r.sink.n, 2);
	assert_int_equal(r.sink.ev[0].kind, EV_EXIT);
	assert_int_equal(r.sink.ev[0].id, 1);
	assert_int_equal(r.sink.ev[0].number, 2);
	assert_int_equal(parser_counts(r.p)->exit_regs, 8);
	assert_int_equal(r.sink.ev[1].kind, EV_ABORT);
	assert_int_equal(r.sink.ev[1].parent, 1);       /* from the start header */
	assert_int_equal(r.sink.ev[1].parent_exit, 2);
	assert_int_equal(r.sink.ev[1].num_bc, 1);
	assert_string_equal(r.sink.ev[1].reason, "NYI: bytecode 71");
	assert_counts_add_up(&r);
	parser_free(r.p);
}

static void test_exit_inside_bytecode_resumes_section(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 3 start y.lua:2",
		"0001  KSHORT   2   1",
		"---- TRACE 1 exit 0",
		"0002  FORI     1 => 0005",
		"---- TRACE 3 IR",
		"---- TRACE 3 mcode 5",
		"---- TRACE 3 stop -> return",
		NULL
	};
	struct run r;
	start(&r, 0);
	feed(&r, lines);
	assert_int_equal(r.sink.n, 2);
	assert_int_equal(r.sink.ev[1].kind, EV_STOP);
	assert_int_equal(r.sink.ev[1].num_bc, 2);
	assert_int_equal(parser_counts(r.p)->foreign, 0);
	parser_free(r.p);
}

static void test_multiline_chunk_name_in_start(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 6 start \"s=0",
		"for i=1,99 do s=s+i end",
		"return s\":2",
		"0007  GGET     4   0      ; \"s\"",
		"0008  ADDVV    4   4   3",
		"0005  FNEW     4   0      ; \"for i=1,99 do",
		"local f=function()end end\":2",
		"---- TRACE 6 IR",
		"---- TRACE 6 mcode 5",
		"---- TRACE 6 stop -> loop",
		NULL
	};
	struct run r;
	start(&r, 1);
	feed(&r, lines);
	assert_int_equal(r.sink.n, 1);
	struct seen *e = &r.sink.ev[0];
	assert_string_equal(e->loc, "\"s=0\nfor i=1,99 do s=s+i end\nreturn s\":2");
	assert_int_equal(e->line, 2);
	assert_int_equal(e->num_bc, 3);
	assert_string_equal(e->text_bc,
	                    "0007  GGET     4   0      ; \"s\"\n0008  ADDVV    4   4   3\n"
	                    "0005  FNEW     4   0      ; \"for i=1,99 do\nlocal f=function()end end\":2\n");
	assert_int_equal(parser_counts(r.p)->header, 6);
	assert_int_equal(parser_counts(r.p)->foreign, 0);
	assert_counts_add_up(&r);
	parser_free(r.p);
}

static void test_unclosed_chunk_name_gives_up_and_refeeds(void **s)
{
	(void)s;
	const char *lines[60];
	size_t k = 0;
	lines[k++] = "---- TRACE 6 start \"never closed";
	for (int i = 0; i < 45; i++)
		lines[k++] = "x";
	lines[k++] = NULL;
	struct run r;
	start(&r, 0);
	feed(&r, lines);
	finish(&r);
	assert_true(r.diag.warnings >= 1);
	assert_counts_add_up(&r);
	assert_true(parser_counts(r.p)->foreign >= 3);
	parser_free(r.p);
}

static void test_stop_of_other_trace_makes_open_one_incomplete(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 4 start z.lua:1",
		"0001  KSHORT   2   1",
		"---- TRACE 5 IR",
		"---- TRACE 5 mcode 7",
		"---- TRACE 5 stop -> loop",
		NULL
	};
	struct run r;
	start(&r, 0);
	feed(&r, lines);
	assert_int_equal(r.sink.n, 2);
	assert_int_equal(r.sink.ev[0].kind, EV_INCOMPLETE);
	assert_int_equal(r.sink.ev[0].id, 4);
	assert_int_equal(r.sink.ev[1].kind, EV_STOP);
	assert_int_equal(r.sink.ev[1].id, 5);
	assert_string_equal(r.sink.ev[1].loc, "(?)");
	assert_int_equal(r.diag.warnings, 1);
	parser_free(r.p);
}

static void test_end_of_input_inside_trace_is_incomplete(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 10 start z.lua:1",
		"0001  KSHORT   2   1",
		"---- TRACE 10 IR",
		"0007    int FL",
		NULL
	};
	struct run r;
	start(&r, 0);
	feed(&r, lines);
	assert_int_equal(r.sink.n, 0);
	finish(&r);
	assert_int_equal(r.sink.n, 1);
	assert_int_equal(r.sink.ev[0].kind, EV_INCOMPLETE);
	assert_int_equal(r.sink.ev[0].id, 10);
	assert_int_equal(r.sink.ev[0].num_ir, 1);
	parser_free(r.p);
}

static void test_flush_event(void **s)
{
	(void)s;
	static const char *const lines[] = { "---- TRACE flush", "", "---- TRACE flush", "", NULL };
	struct run r;
	start(&r, 0);
	feed(&r, lines);
	assert_int_equal(r.sink.n, 2);
	assert_int_equal(r.sink.ev[0].kind, EV_FLUSH);
	assert_int_equal(r.sink.ev[1].kind, EV_FLUSH);
	assert_int_equal(parser_counts(r.p)->blank, 2);
	parser_free(r.p);
}

static void test_strict_first_warning_is_fatal(void **s)
{
	(void)s;
	static const char *const lines[] = { "---- TRACE x IR", NULL };
	struct run r;
	start(&r, 0);
	r.diag.strict = 1;
	/* The error message goes to a muted stderr. */
	fflush(stderr);
	int saved = dup(2), null = open("/dev/null", O_WRONLY);
	dup2(null, 2);
	int res = feed(&r, lines);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(null);
	assert_true(res < 0);
	assert_int_equal(r.diag.failed, 1);
	parser_free(r.p);
}

static void test_handler_failure_stops_the_run(void **s)
{
	(void)s;
	struct run r;
	start(&r, 0);
	r.sink.fail_with = -7;
	assert_int_equal(feed(&r, root_trace), -7);
	parser_free(r.p);
}

static void test_line_shapes(void **s)
{
	(void)s;
	assert_true(shape_bytecode("0027  GGET     4   2      ; \"unpack\"", 36));
	assert_true(shape_bytecode("10027  GGET", 11));
	assert_false(shape_bytecode("027  GGET", 9));
	assert_false(shape_bytecode("0027", 4));
	assert_int_equal(shape_ir("0001 rbp      int SLOAD  #2    CI", 33), 1);
	assert_int_equal(shape_ir("....              SNAP   #1   [ ---- ]", 38), 2);
	assert_int_equal(shape_ir("hello", 5), 0);
	assert_true(shape_snapshot("#0   0001 [ ---- ]", 18));
	assert_false(shape_snapshot("#x", 2));
	assert_true(shape_mcode("0bccff9d  jge 0xbcc0014", 23));
	assert_true(shape_mcode("->LOOP:", 7));
	assert_false(shape_mcode("total=300", 9));
	assert_true(shape_exit_regs(" 000055bbc524ff81 00007f572b275a80", 34));
	assert_true(shape_exit_regs("rax = 0x0000000000000001", 24));
	assert_false(shape_exit_regs("0001  KSHORT", 12));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_root_trace_counts),
		cmocka_unit_test(test_mcode_exits_sorted_unique),
		cmocka_unit_test(test_separate_snapshots_section_counts_snapshots),
		cmocka_unit_test(test_program_output_is_foreign),
		cmocka_unit_test(test_exit_register_lines_then_new_trace),
		cmocka_unit_test(test_exit_inside_bytecode_resumes_section),
		cmocka_unit_test(test_multiline_chunk_name_in_start),
		cmocka_unit_test(test_unclosed_chunk_name_gives_up_and_refeeds),
		cmocka_unit_test(test_stop_of_other_trace_makes_open_one_incomplete),
		cmocka_unit_test(test_end_of_input_inside_trace_is_incomplete),
		cmocka_unit_test(test_flush_event),
		cmocka_unit_test(test_strict_first_warning_is_fatal),
		cmocka_unit_test(test_handler_failure_stops_the_run),
		cmocka_unit_test(test_line_shapes),
	};
	return cmocka_run_group_tests_name("parser", tests, NULL, NULL);
}
