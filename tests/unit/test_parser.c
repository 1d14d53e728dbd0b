/* test_parser.c — the line state machine, fed line sequences shaped
 * exactly like real dump output (see DUMP-FORMAT.md), with a fake event
 * sink that keeps a copy of everything it is given. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "parse/parser.h"
#include "parse/shapes.h"

#include "capture.h"

/* ---- the fake event sink ---------------------------------------------- */

#define MAX_EVENTS 32
#define TEXT_MAX 1024

/* A copy of one event: the parser reuses its buffers afterwards. */
struct seen {
	enum event_kind kind;
	uint64_t at;                /* ev->line */
	int has_trace, has_header;
	/* header */
	enum header_kind hkind;
	uint32_t hid, number, link_target;
	enum da_link link_kind;
	char reason[128], link[64];
	size_t reason_len;
	/* trace */
	uint32_t id, parent, num_bc, num_ir, num_sn, size_mc, nexits;
	int32_t parent_exit, line;
	int started, counts_known;
	uint64_t start_line;
	uint16_t exits[16];
	char loc[256], file[256];
	size_t loc_len;
	int has_text;
	unsigned present;
	char text[DA_SEC_COUNT][TEXT_MAX];
	size_t text_len[DA_SEC_COUNT];
};

struct sink {
	struct seen ev[MAX_EVENTS];
	int n;
	int fail_with;
};

static void copy_span(char *dst, size_t cap_, const char *src, size_t n)
{
	assert_true(n < cap_);
	if (n)
		memcpy(dst, src, n);
	dst[n] = '\0';
}

static int record(void *ctx, const struct event *e)
{
	struct sink *k = ctx;
	assert_true(k->n < MAX_EVENTS);
	struct seen *s = &k->ev[k->n++];
	memset(s, 0, sizeof(*s));
	s->kind = e->kind;
	s->at = e->line;
	if (e->header) {
		const struct header *h = e->header;
		s->has_header = 1;
		s->hkind = h->kind;
		s->hid = h->id;
		s->number = h->number;
		s->link_kind = h->link_kind;
		s->link_target = h->link_target;
		if (h->reason) {
			copy_span(s->reason, sizeof(s->reason), h->reason, h->reason_len);
			s->reason_len = h->reason_len;
		}
		if (h->link)
			copy_span(s->link, sizeof(s->link), h->link, h->link_len);
	}
	if (e->trace) {
		const struct pending_trace *t = e->trace;
		s->has_trace = 1;
		s->id = t->id;
		s->started = t->started;
		s->parent = t->parent;
		s->parent_exit = t->parent_exit;
		s->num_bc = t->num_bc;
		s->num_ir = t->num_ir;
		s->num_sn = t->num_sn;
		s->size_mc = t->size_mc;
		s->counts_known = t->counts_known;
		s->start_line = t->start_line;
		s->nexits = t->nexits;
		s->line = t->loc.line;
		assert_true(t->nexits <= 16);
		if (t->nexits)
			memcpy(s->exits, t->exits, t->nexits * sizeof(uint16_t));
		copy_span(s->loc, sizeof(s->loc), t->loc_text, t->loc_len);
		s->loc_len = t->loc_len;
		copy_span(s->file, sizeof(s->file), t->loc.file, t->loc.file_len);
		if (t->text) {
			s->has_text = 1;
			s->present = t->text->present;
			for (int k2 = 0; k2 < DA_SEC_COUNT; k2++) {
				s->text_len[k2] = t->text->len[k2];
				if (t->text->len[k2])
					copy_span(s->text[k2], TEXT_MAX,
					          t->text->buf + t->text->off[k2], t->text->len[k2]);
			}
		}
	}
	return k->fail_with;
}

struct run {
	struct diag diag;
	struct sink sink;
	struct parser *p;
	uint64_t last;
};

static void start(struct run *r, int keep_text)
{
	memset(r, 0, sizeof(*r));
	diag_init(&r->diag, "t.dump");
	r->diag.fn = diag_print;
	r->p = parser_new(&r->diag, keep_text, record, &r->sink);
	assert_non_null(r->p);
}

/* Feed lines (numbered on from the last one); returns the first negative
 * result, else 0. */
static int feed(struct run *r, const char *const *lines)
{
	int res = 0;
	for (size_t i = 0; lines[i]; i++) {
		struct line l = { lines[i], strlen(lines[i]), ++r->last };
		int x = parser_line(r->p, &l);
		if (x < 0 && res == 0)
			res = x;
	}
	return res;
}

static int finish(struct run *r)
{
	return parser_end(r->p, r->last);
}

/* Every line went exactly one place. */
static void assert_counts_add_up(struct run *r)
{
	const struct da_line_counts *c = parser_counts(r->p);
	assert_int_equal(c->total, r->last);
	assert_int_equal(c->total, c->header + c->content + c->exit_regs + c->foreign + c->blank);
}

static void assert_counts(struct run *r, uint64_t header, uint64_t content,
                          uint64_t exit_regs, uint64_t foreign, uint64_t blank)
{
	const struct da_line_counts *c = parser_counts(r->p);
	assert_int_equal(c->header, header);
	assert_int_equal(c->content, content);
	assert_int_equal(c->exit_regs, exit_regs);
	assert_int_equal(c->foreign, foreign);
	assert_int_equal(c->blank, blank);
	assert_counts_add_up(r);
}

/* ---- fixtures: line shapes from real dumps ---------------------------- */

static const char *const root_trace[] = {
	"---- TRACE 1 start standards.lua:262",                             /* 1 */
	"0001  GGET     6   0      ; \"type\"",
	"0002  MOV      8   1",
	"0000  . FUNCC               ; type",
	"---- TRACE 1 IR",                                                  /* 5 */
	"....              SNAP   #0   [ ---- ---- ---- ---- ]",
	"0001 rbp      fun SLOAD  #0    R",
	"0002 >  int SLOAD  #2    CI",
	"0008 ------------ LOOP ------------",
	"....              SNAP   #1   [ ---- ---- 0001 ]",                  /* 10 */
	"0009 >  int ADDOV  0001  +1",
	"---- TRACE 1 mcode 113",
	"56031dd0ff43  mov dword [r14-0xec8], 0x1",
	"56031dd0ff4e  jge 0x56031dd00014\t->3",
	"->LOOP:",                                                          /* 15 */
	"56031dd0ff58  jnz 0x56031dd0004c\t->1",
	"56031dd0ff60  jo 0x56031dd00018\t->1",
	"56031dd0ff68  jbe 0x56031dd0001c\t->3",
	"56031dd0fe0d  jle 0x56031dd0fd2f\t->LOOP",
	"---- TRACE 1 stop -> loop",                                        /* 20 */
	"",
	NULL
};

/* ---- counts ----------------------------------------------------------- */

static void test_section_counts_of_a_root_trace(void **s)
{
	(void)s;
	struct run r;
	start(&r, 0);
	assert_int_equal(feed(&r, root_trace), 0);
	assert_int_equal(finish(&r), 0);
	assert_int_equal(r.sink.n, 1);
	struct seen *e = &r.sink.ev[0];
	assert_int_equal(e->kind, EV_STOP);
	assert_int_equal(e->at, 20);
	assert_int_equal(e->id, 1);
	assert_true(e->started);
	assert_true(e->counts_known);
	assert_int_equal(e->start_line, 1);
	assert_int_equal(e->parent, 0);
	assert_int_equal(e->parent_exit, PARENT_EXIT_NONE);
	assert_int_equal(e->num_bc, 3);
	assert_int_equal(e->num_ir, 4);
	assert_int_equal(e->num_sn, 2);
	assert_int_equal(e->size_mc, 113);
	assert_string_equal(e->loc, "standards.lua:262");
	assert_string_equal(e->file, "standards.lua");
	assert_int_equal(e->line, 262);
	assert_int_equal(e->hkind, HEADER_STOP);
	assert_int_equal(e->link_kind, DA_LINK_LOOP);
	assert_string_equal(e->link, "loop");
	assert_false(e->has_text);
	assert_int_equal(parser_format(r.p), FORMAT_DUMP);
	assert_counts(&r, 4, 16, 0, 0, 1);
	assert_int_equal(r.diag.warnings, 0);
	parser_free(r.p);
}

static void test_interleaved_snapshot_line_counts_as_snapshot(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 1 start x.lua:1",
		"---- TRACE 1 IR",
		"....              SNAP   #0   [ ---- ---- ---- ---- ]",
		"....              SNAP   #1   [ ---- ---- 0001 ]",
		"....              SNAP   #2   [ ---- ---- 0001 ]",
		"0001    int SLOAD  #2    CI",
		"---- TRACE 1 mcode 10",
		"---- TRACE 1 stop -> return",
		NULL
	};
	struct run r;
	start(&r, 0);
	feed(&r, lines);
	assert_int_equal(r.sink.n, 1);
	assert_int_equal(r.sink.ev[0].num_sn, 3);
	assert_int_equal(r.sink.ev[0].num_ir, 1);
	assert_counts(&r, 4, 4, 0, 0, 0);
	parser_free(r.p);
}

static void test_loop_marker_counts_as_ir_instruction(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 1 start x.lua:1",
		"---- TRACE 1 IR",
		"0001    int SLOAD  #2    CI",
		"0008 ------------ LOOP ------------",
		"---- TRACE 1 mcode 10",
		"---- TRACE 1 stop -> loop",
		NULL
	};
	struct run r;
	start(&r, 0);
	feed(&r, lines);
	assert_int_equal(r.sink.ev[0].num_ir, 2);
	assert_int_equal(r.sink.ev[0].num_sn, 0);
	assert_int_equal(parser_counts(r.p)->foreign, 0);
	parser_free(r.p);
}

static void test_snapshots_section_counts_snapshots(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 2 start 1/3 x.lua:4",
		"0010  ADDVN    1   1   0  ; 1",
		"---- TRACE 2 snapshots",
		"#0   0001 [ ---- ---- ---- ---- ---- ---- ---- ---- ]",
		"#1   0011 [ ---- ---- ---- ---- ---- ---- ---- ---- ]",
		"#2   0027 [ ---- ---- 0001 stringx.lua:311 ftsz|0016 +6   \"0\"  false true 0025 ]",
		"---- TRACE 2 mcode 40",
		"56075560ff43  mov dword [r14-0xec8], 0x1",
		"---- TRACE 2 stop -> 1",
		"",
		NULL
	};
	struct run r;
	start(&r, 0);
	feed(&r, lines);
	assert_int_equal(r.sink.n, 1);
	struct seen *e = &r.sink.ev[0];
	assert_int_equal(e->num_sn, 3);
	assert_int_equal(e->num_ir, 0);
	assert_int_equal(e->num_bc, 1);
	assert_int_equal(e->size_mc, 40);
	assert_int_equal(e->parent, 1);
	assert_int_equal(e->parent_exit, 3);
	assert_int_equal(e->link_kind, DA_LINK_ROOT);
	assert_int_equal(e->link_target, 1);
	assert_counts(&r, 4, 5, 0, 0, 1);
	parser_free(r.p);
}

/* ---- machine code exits ----------------------------------------------- */

static void test_mcode_exits_are_sorted_and_unique(void **s)
{
	(void)s;
	struct run r;
	start(&r, 0);
	feed(&r, root_trace);
	assert_int_equal(r.sink.n, 1);
	assert_int_equal(r.sink.ev[0].nexits, 2);
	assert_int_equal(r.sink.ev[0].exits[0], 1);
	assert_int_equal(r.sink.ev[0].exits[1], 3);
	parser_free(r.p);
}

/* Only "\t->N" at the very end of a line, N of 1 to 6 digits, is an
 * exit; an exit number too large to be one (EXIT_MAX) is dropped. */
static void test_mcode_exit_suffix_edges(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 1 start x.lua:1",
		"---- TRACE 1 mcode 20",
		"abcd\t->7",                           /* shortest: 8 bytes */
		"0bccff9d  jge 0xbcc0014\t->12",
		"0bccff9d  jge 0xbcc0014\t->345",
		"0bccff9d  jge 0xbcc0014\t->4567",
		"0bccff9d  jge 0xbcc0014\t->65535",
		"0bccff9d  jge 0xbcc0014\t->065536",    /* six digits, too large */
		"0bccff9d  jge 0xbcc0014\t->0000009",   /* seven digits: not one */
		"0bccff9d  jge 0xbcc0014 ->8",           /* no tab */
		"0bccff9d  jge 0xbcc0014\t-> 9",
		"0bccff9d  jge 0xbcc0014\t->10x",
		"0bccff9d  jge 0xbcc0014\t>11",
		"0bccff9d  mov eax, 0x100010",          /* ends in digits */
		"0bccff9d  jge 0xbcc0014\t->2\t->13",   /* the last one counts */
		"0bccff9d  jge 0xbcc0014\t->000014",    /* six digits */
		"---- TRACE 1 stop -> loop",
		NULL
	};
	static const uint16_t want[] = { 7, 12, 13, 14, 345, 4567, 65535 };
	struct run r;
	start(&r, 0);
	feed(&r, lines);
	assert_int_equal(r.sink.n, 1);
	assert_int_equal(r.sink.ev[0].nexits, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_int_equal(r.sink.ev[0].exits[i], want[i]);
	parser_free(r.p);
}

static void test_loop_label_is_content_not_exit(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 1 start x.lua:1",
		"---- TRACE 1 mcode 20",
		"->LOOP:",
		"56031dd0fe0d  jle 0x56031dd0fd2f\t->LOOP",
		"---- TRACE 1 stop -> loop",
		NULL
	};
	struct run r;
	start(&r, 1);
	feed(&r, lines);
	assert_int_equal(r.sink.n, 1);
	assert_int_equal(r.sink.ev[0].nexits, 0);
	assert_string_equal(r.sink.ev[0].text[DA_SEC_MCODE],
	                    "->LOOP:\n56031dd0fe0d  jle 0x56031dd0fd2f\t->LOOP\n");
	assert_counts(&r, 3, 2, 0, 0, 0);
	parser_free(r.p);
}

static void test_exits_do_not_carry_over_to_next_trace(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 2 start x.lua:9",
		"---- TRACE 2 mcode 20",
		"56031dd0ff68  jbe 0x56031dd0001c\t->7",
		"---- TRACE 2 stop -> return",
		NULL
	};
	struct run r;
	start(&r, 0);
	feed(&r, root_trace);
	feed(&r, lines);
	assert_int_equal(r.sink.n, 2);
	assert_int_equal(r.sink.ev[1].nexits, 1);
	assert_int_equal(r.sink.ev[1].exits[0], 7);
	parser_free(r.p);
}

/* ---- foreign lines ---------------------------------------------------- */

static void test_program_output_inside_sections_is_foreign(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 1 start x.lua:1",
		"0001  KSHORT   2   1",
		"hello world",
		"42",
		"0002  FORI     1 => 0005",
		"---- TRACE 1 IR",
		"hello world",
		"0001    int SLOAD  #2    CI",
		"42",
		"---- TRACE 1 mcode 10",
		"56031dd0ff43  mov dword [r14-0xec8], 0x1",
		"---- TRACE 1 stop -> loop",
		NULL
	};
	struct run r;
	start(&r, 1);
	feed(&r, lines);
	assert_int_equal(r.sink.n, 1);
	struct seen *e = &r.sink.ev[0];
	assert_int_equal(e->num_bc, 2);
	assert_int_equal(e->num_ir, 1);
	assert_int_equal(e->num_sn, 0);
	assert_string_equal(e->text[DA_SEC_BYTECODE], "0001  KSHORT   2   1\n0002  FORI     1 => 0005\n");
	assert_string_equal(e->text[DA_SEC_IR], "0001    int SLOAD  #2    CI\n");
	assert_counts(&r, 4, 4, 0, 4, 0);
	parser_free(r.p);
}

static void test_program_output_between_traces_is_foreign(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"mixed: start",
		"print: ..20",
		"42",
		NULL
	};
	static const char *const after[] = { "hello world", "io.write: ..55", "", NULL };
	struct run r;
	start(&r, 0);
	feed(&r, lines);
	feed(&r, root_trace);
	feed(&r, after);
	assert_int_equal(finish(&r), 0);
	assert_int_equal(r.sink.n, 1);
	assert_int_equal(r.sink.ev[0].kind, EV_STOP);
	assert_int_equal(r.sink.ev[0].num_bc, 3);
	assert_int_equal(r.sink.ev[0].num_ir, 4);
	assert_int_equal(r.sink.ev[0].num_sn, 2);
	assert_counts(&r, 4, 16, 0, 5, 2);
	parser_free(r.p);
}

static void test_line_accounting_adds_up(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"starting",                                         /* foreign */
		"",                                                 /* blank */
		"---- TRACE 1 start x.lua:1",                       /* header */
		"0001  KSHORT   2   1",                             /* content */
		"---- TRACE 1 exit 0",                              /* header */
		" 000056031dd0ff43 00007ff102914ba8 00007ff1029103f8 00007ff10293c7f0",
		"                +2                +0 +4.9406564584125e-324 +3.95252516673e-323",
		"0002  FORI     1 => 0005",                         /* content */
		"---- TRACE 1 IR",
		"0001    int SLOAD  #2    CI",
		"---- TRACE 1 mcode 10",
		"56031dd0ff43  mov dword [r14-0xec8], 0x1",
		"---- TRACE 1 stop -> loop",
		"",
		"---- TRACE flush",
		"",
		"done",
		NULL
	};
	struct run r;
	start(&r, 0);
	feed(&r, lines);
	finish(&r);
	assert_int_equal(parser_counts(r.p)->total, 17);
	assert_counts(&r, 6, 4, 2, 2, 3);
	parser_free(r.p);
}

/* ---- exits taken (+x, +X) --------------------------------------------- */

static void test_exit_registers_then_new_trace(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 1 exit 0",
		" 000056031dd0ff43 00007ff102914ba8 00007ff1029103f8 00007ff10293c7f0",
		" 00007ffc7840c0e0 00007ff10293c930 00000000000009b6 0000000000008030",
		" 00000000000021c8 0000000000000001 6b2e01e8e711f400 fffffffffffffff7",
		" 0000000000000000 00007ff102939380 00007ff10293a360 00007ff10293c930",
		"                +2                +0 +4.9406564584125e-324 +3.95252516673e-323",
		"          +5636929   +94571975631247 +6.950174952254e-310 +6.9501749437739e-310",
		"                +0                +0 -0.66666666666667  +0.7999999995324",
		"  -1.1429096284595                +0                +0                +0",
		"---- TRACE 2 start 1/0 x.lua:9",
		"0003  ADDVN    1   1   0  ; 1",
		"---- TRACE 2 IR",
		"0001    int SLOAD  #2    CI",
		"---- TRACE 2 mcode 20",
		"56031dd0ff43  mov dword [r14-0xec8], 0x1",
		"---- TRACE 2 stop -> 1",
		"",
		NULL
	};
	struct run r;
	start(&r, 0);
	feed(&r, lines);
	assert_int_equal(r.sink.n, 2);
	struct seen *x = &r.sink.ev[0];
	assert_int_equal(x->kind, EV_EXIT);
	assert_int_equal(x->at, 1);
	assert_false(x->has_trace);
	assert_int_equal(x->hkind, HEADER_EXIT);
	assert_int_equal(x->hid, 1);
	assert_int_equal(x->number, 0);
	struct seen *e = &r.sink.ev[1];
	assert_int_equal(e->kind, EV_STOP);
	assert_int_equal(e->id, 2);
	assert_int_equal(e->parent, 1);
	assert_int_equal(e->parent_exit, 0);
	assert_int_equal(e->num_bc, 1);
	assert_int_equal(e->num_ir, 1);
	assert_counts(&r, 5, 3, 8, 0, 1);
	assert_int_equal(r.diag.warnings, 0);
	parser_free(r.p);
}

static void test_exit_inside_bytecode_resumes_bytecode_section(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 3 start y.lua:2",
		"0001  KSHORT   2   1",
		"---- TRACE 1 exit 2",
		" 000056031dd0ff43 00007ff102914ba8 00007ff1029103f8 00007ff10293c7f0",
		"0002  FORI     1 => 0005",
		"---- TRACE 1 exit 3",
		"0003  ADDVN    1   1   0  ; 1",
		"---- TRACE 3 IR",
		"0001    int SLOAD  #2    CI",
		"---- TRACE 3 mcode 5",
		"---- TRACE 3 stop -> return",
		NULL
	};
	struct run r;
	start(&r, 1);
	feed(&r, lines);
	assert_int_equal(r.sink.n, 3);
	assert_int_equal(r.sink.ev[0].kind, EV_EXIT);
	assert_int_equal(r.sink.ev[0].number, 2);
	assert_int_equal(r.sink.ev[1].kind, EV_EXIT);
	assert_int_equal(r.sink.ev[1].number, 3);
	struct seen *e = &r.sink.ev[2];
	assert_int_equal(e->kind, EV_STOP);
	assert_int_equal(e->id, 3);
	assert_int_equal(e->num_bc, 3);
	assert_int_equal(e->num_ir, 1);
	assert_string_equal(e->text[DA_SEC_BYTECODE],
	                    "0001  KSHORT   2   1\n0002  FORI     1 => 0005\n"
	                    "0003  ADDVN    1   1   0  ; 1\n");
	assert_counts(&r, 6, 4, 1, 0, 0);
	assert_int_equal(r.diag.warnings, 0);
	parser_free(r.p);
}

/* ---- chunk names with newlines ---------------------------------------- */

static void test_multiline_chunk_name_start_is_one_start(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 7 start \"s=0",
		"for i=1,99 do s=s+i end",
		"return s\":2",
		"0007  GGET     4   0      ; \"s\"",
		"0008  ADDVV    4   4   3",
		"---- TRACE 7 IR",
		"0001    int SLOAD  #2    CI",
		"---- TRACE 7 mcode 5",
		"---- TRACE 7 stop -> loop",
		"",
		NULL
	};
	struct run r;
	start(&r, 1);
	feed(&r, lines);
	assert_int_equal(r.sink.n, 1);
	struct seen *e = &r.sink.ev[0];
	assert_int_equal(e->kind, EV_STOP);
	assert_int_equal(e->id, 7);
	assert_int_equal(e->start_line, 1);
	assert_string_equal(e->loc, "\"s=0\nfor i=1,99 do s=s+i end\nreturn s\":2");
	assert_int_equal(e->loc_len, strlen("\"s=0\nfor i=1,99 do s=s+i end\nreturn s\":2"));
	assert_string_equal(e->file, "\"s=0\nfor i=1,99 do s=s+i end\nreturn s\"");
	assert_int_equal(e->line, 2);
	assert_int_equal(e->num_bc, 2);
	assert_int_equal(e->num_ir, 1);
	assert_string_equal(e->text[DA_SEC_BYTECODE],
	                    "0007  GGET     4   0      ; \"s\"\n0008  ADDVV    4   4   3\n");
	assert_counts(&r, 6, 3, 0, 0, 1);
	assert_int_equal(r.diag.warnings, 0);
	parser_free(r.p);
}

static void test_function_constant_chunk_name_over_lines_is_bytecode(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 8 start \"for i=1,99 do",
		"local f=function()end end\":1",
		"0005  FNEW     4   0      ; \"for i=1,99 do",
		"local f=function()end end\":2",
		"0006  FORL     0 => 0005",
		"---- TRACE 8 IR",
		"---- TRACE 8 mcode 5",
		"---- TRACE 8 stop -> loop",
		NULL
	};
	struct run r;
	start(&r, 1);
	feed(&r, lines);
	assert_int_equal(r.sink.n, 1);
	struct seen *e = &r.sink.ev[0];
	assert_int_equal(e->line, 1);
	assert_int_equal(e->num_bc, 2);
	assert_string_equal(e->text[DA_SEC_BYTECODE],
	                    "0005  FNEW     4   0      ; \"for i=1,99 do\n"
	                    "local f=function()end end\":2\n0006  FORL     0 => 0005\n");
	assert_counts(&r, 5, 3, 0, 0, 0);
	parser_free(r.p);
}

static void test_abort_with_chunk_name_over_lines(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 9 start x.lua:1",
		"---- TRACE 9 abort \"for i=1,99 do",
		"local f=function()end end\":2 -- NYI: bytecode 51",
		"",
		NULL
	};
	struct run r;
	start(&r, 0);
	feed(&r, lines);
	assert_int_equal(r.sink.n, 1);
	assert_int_equal(r.sink.ev[0].kind, EV_ABORT);
	assert_int_equal(r.sink.ev[0].at, 2);
	assert_string_equal(r.sink.ev[0].reason, "NYI: bytecode 51");
	assert_counts(&r, 3, 0, 0, 0, 1);
	parser_free(r.p);
}

static void test_never_closed_chunk_name_is_given_up_and_refed(void **s)
{
	(void)s;
	const char *lines[64];
	size_t k = 0;
	lines[k++] = "---- TRACE 6 start \"never closed";
	for (int i = 0; i < 45; i++)
		lines[k++] = "x";
	lines[k] = NULL;
	struct run r;
	start(&r, 0);
	capture_begin();
	feed(&r, lines);
	finish(&r);
	capture_end();
	/* the start is taken as it stands, the rest are foreign lines */
	assert_int_equal(r.sink.n, 1);
	assert_int_equal(r.sink.ev[0].kind, EV_INCOMPLETE);
	assert_int_equal(r.sink.ev[0].id, 6);
	assert_string_equal(r.sink.ev[0].loc, "\"never closed");
	assert_int_equal(r.diag.warnings, 2);
	assert_non_null(strstr(cap.text, "t.dump:1: warning: quoted chunk name is never closed"));
	assert_counts(&r, 1, 0, 0, 45, 0);
	parser_free(r.p);
}

/* ---- lines past the cap (input skips them: input_overlong) ------------ */

/* A run of the lines to the dump's end, its messages captured. */
static void run_captured(struct run *r, int keep_text, const char *const *lines)
{
	start(r, keep_text);
	capture_begin();
	feed(r, lines);
	finish(r);
	capture_end();
}

static void test_overlong_line_in_a_trace_is_foreign_and_said(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 1 start x.lua:1",
		"0001  FORI     1 => 0005",
		input_overlong,
		"0002  ADDVV    4   4   3",
		"---- TRACE 1 stop -> loop",
		NULL
	};
	struct run r;
	run_captured(&r, 1, lines);
	assert_int_equal(r.sink.n, 1);
	assert_int_equal(r.sink.ev[0].kind, EV_STOP);
	assert_int_equal(r.sink.ev[0].num_bc, 2);
	assert_string_equal(r.sink.ev[0].text[DA_SEC_BYTECODE],
	                    "0001  FORI     1 => 0005\n0002  ADDVV    4   4   3\n");
	assert_int_equal(r.diag.warnings, 1);
	assert_string_equal(cap.text, "t.dump:3: warning: line longer than 1048576 bytes: skipped\n");
	assert_counts(&r, 2, 2, 0, 1, 0);
	parser_free(r.p);
}

/* A header waiting for the rest of its chunk name does not get it from a
 * skipped line: given up at once, and its lines fed again. */
static void test_overlong_line_ends_a_header_over_lines(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 6 start \"s=0",
		"for i=1,99 do",
		input_overlong,
		"---- TRACE 7 start x.lua:1",
		"---- TRACE 7 stop -> loop",
		NULL
	};
	struct run r;
	run_captured(&r, 0, lines);
	assert_int_equal(r.sink.n, 2);
	assert_int_equal(r.sink.ev[0].kind, EV_INCOMPLETE);
	assert_int_equal(r.sink.ev[0].id, 6);
	assert_int_equal(r.sink.ev[1].kind, EV_STOP);
	assert_int_equal(r.sink.ev[1].id, 7);
	assert_non_null(strstr(cap.text, "t.dump:1: warning: quoted chunk name is never closed\n"));
	assert_non_null(strstr(cap.text, "t.dump:3: warning: line longer than 1048576 bytes: skipped\n"));
	assert_int_equal(r.diag.warnings, 3);     /* and trace 6 incomplete */
	assert_counts(&r, 3, 0, 0, 2, 0);
	parser_free(r.p);
}

/* Lines joined to a header stop at the cap of one line. */
static void test_header_over_lines_is_joined_up_to_the_cap(void **s)
{
	(void)s;
	size_t n = INPUT_LINE_MAX / 2;
	char *half = malloc(n + 1);
	assert_non_null(half);
	memset(half, 'q', n);
	half[n] = '\0';
	const char *lines[] = { "---- TRACE 6 start \"never closed", half, half, half,
	                        "---- TRACE 7 start x.lua:1", "---- TRACE 7 stop -> loop", NULL };
	struct run r;
	run_captured(&r, 0, lines);
	/* the second half would pass the cap: the header is given up there */
	assert_non_null(strstr(cap.text, "t.dump:1: warning: quoted chunk name is never closed\n"));
	assert_int_equal(r.sink.n, 2);
	assert_int_equal(r.sink.ev[0].kind, EV_INCOMPLETE);
	assert_string_equal(r.sink.ev[0].loc, "\"never closed");
	assert_int_equal(r.sink.ev[1].kind, EV_STOP);
	assert_counts(&r, 3, 0, 0, 3, 0);
	free(half);
	parser_free(r.p);
}

/* ---- aborts, incomplete traces, flushes ------------------------------- */

static void test_abort_after_start_carries_the_start_parent(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 2 start 1/3 x.lua:9",
		"0003  ADDVN    1   1   0  ; 1",
		"0004  VARG     11   0   2",
		"---- TRACE 2 abort x.lua:10 -- NYI: bytecode VARG  ",
		"",
		NULL
	};
	struct run r;
	start(&r, 0);
	feed(&r, lines);
	assert_int_equal(r.sink.n, 1);
	struct seen *e = &r.sink.ev[0];
	assert_int_equal(e->kind, EV_ABORT);
	assert_int_equal(e->at, 4);
	assert_int_equal(e->id, 2);
	assert_true(e->started);
	assert_int_equal(e->parent, 1);
	assert_int_equal(e->parent_exit, 3);
	assert_string_equal(e->loc, "x.lua:9");      /* where it started */
	assert_int_equal(e->num_bc, 2);
	assert_int_equal(e->hkind, HEADER_ABORT);
	assert_string_equal(e->reason, "NYI: bytecode VARG  ");
	assert_int_equal(e->reason_len, 20);
	assert_int_equal(r.diag.warnings, 0);
	parser_free(r.p);
}

static void test_abort_with_ir_section_counts_ir(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 1 start tablex.lua:331",
		"0020  ITERN    6   3   3",
		"0015  MOV      8   0",
		"---- TRACE 1 IR",
		"0002 >  tab SLOAD  #6    T",
		"0003    int SLOAD  #7    K",
		"0007 >  num VLOAD  0005  #1  ",
		"---- TRACE 1 abort tablex.lua:332 -- NYI: bytecode 71",
		"",
		NULL
	};
	struct run r;
	start(&r, 0);
	feed(&r, lines);
	assert_int_equal(r.sink.n, 1);
	assert_int_equal(r.sink.ev[0].kind, EV_ABORT);
	assert_int_equal(r.sink.ev[0].num_bc, 2);
	assert_int_equal(r.sink.ev[0].num_ir, 3);
	assert_int_equal(r.sink.ev[0].size_mc, 0);
	assert_counts(&r, 3, 5, 0, 0, 1);
	parser_free(r.p);
}

static void test_abort_of_unseen_start_has_no_parent(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 4 start 2/1 z.lua:1",
		"0001  KSHORT   2   1",
		"---- TRACE 5 abort z.lua:8 -- leaving loop in root trace",
		NULL
	};
	struct run r;
	start(&r, 0);
	capture_begin();
	feed(&r, lines);
	capture_end();
	assert_int_equal(r.sink.n, 2);
	assert_int_equal(r.sink.ev[0].kind, EV_INCOMPLETE);
	assert_int_equal(r.sink.ev[0].id, 4);
	assert_int_equal(r.sink.ev[0].parent, 2);
	assert_int_equal(r.sink.ev[1].kind, EV_ABORT);
	assert_int_equal(r.sink.ev[1].id, 5);
	assert_false(r.sink.ev[1].started);
	assert_int_equal(r.sink.ev[1].parent, 0);
	assert_int_equal(r.sink.ev[1].parent_exit, PARENT_EXIT_NONE);
	assert_string_equal(r.sink.ev[1].reason, "leaving loop in root trace");
	assert_int_equal(r.diag.warnings, 1);
	parser_free(r.p);
}

static void test_stop_of_other_trace_reports_open_one_incomplete(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 4 start z.lua:1",
		"0001  KSHORT   2   1",
		"---- TRACE 5 IR",
		"0001    int SLOAD  #2    CI",
		"---- TRACE 5 mcode 7",
		"---- TRACE 5 stop -> loop",
		NULL
	};
	struct run r;
	start(&r, 0);
	capture_begin();
	feed(&r, lines);
	assert_int_equal(finish(&r), 0);
	capture_end();
	assert_int_equal(r.sink.n, 2);
	assert_int_equal(r.sink.ev[0].kind, EV_INCOMPLETE);
	assert_int_equal(r.sink.ev[0].id, 4);
	assert_int_equal(r.sink.ev[0].at, 3);
	assert_int_equal(r.sink.ev[0].num_bc, 1);
	assert_false(r.sink.ev[0].has_header);
	assert_int_equal(r.sink.ev[1].kind, EV_STOP);
	assert_int_equal(r.sink.ev[1].id, 5);
	assert_false(r.sink.ev[1].started);
	assert_int_equal(r.sink.ev[1].num_ir, 1);
	assert_int_equal(r.sink.ev[1].size_mc, 7);
	assert_string_equal(r.sink.ev[1].loc, "(?)");
	assert_int_equal(r.sink.ev[1].line, LOC_NO_LINE);
	assert_int_equal(r.diag.warnings, 1);
	assert_non_null(strstr(cap.text, "t.dump:3: warning: trace 4"));
	parser_free(r.p);
}

static void test_stop_of_other_trace_with_stop_header_only(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 4 start z.lua:1",
		"---- TRACE 5 stop -> return",
		NULL
	};
	struct run r;
	start(&r, 0);
	capture_begin();
	feed(&r, lines);
	capture_end();
	assert_int_equal(r.sink.n, 2);
	assert_int_equal(r.sink.ev[0].kind, EV_INCOMPLETE);
	assert_int_equal(r.sink.ev[0].id, 4);
	assert_int_equal(r.sink.ev[1].kind, EV_STOP);
	assert_int_equal(r.sink.ev[1].id, 5);
	parser_free(r.p);
}

static void test_end_of_input_inside_trace_is_incomplete(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 10 start z.lua:1",
		"0001  KSHORT   2   1",
		"---- TRACE 10 IR",
		"0001    int SLOAD  #2    CI",
		NULL
	};
	struct run r;
	start(&r, 0);
	feed(&r, lines);
	assert_int_equal(r.sink.n, 0);
	capture_begin();
	assert_int_equal(finish(&r), 0);
	capture_end();
	assert_int_equal(r.sink.n, 1);
	struct seen *e = &r.sink.ev[0];
	assert_int_equal(e->kind, EV_INCOMPLETE);
	assert_int_equal(e->at, 4);
	assert_int_equal(e->id, 10);
	assert_int_equal(e->num_bc, 1);
	assert_int_equal(e->num_ir, 1);
	assert_string_equal(e->loc, "z.lua:1");
	assert_int_equal(r.diag.warnings, 1);
	assert_non_null(strstr(cap.text, "incomplete"));
	parser_free(r.p);
}

static void test_end_of_input_after_stop_emits_nothing(void **s)
{
	(void)s;
	struct run r;
	start(&r, 0);
	feed(&r, root_trace);
	assert_int_equal(finish(&r), 0);
	assert_int_equal(r.sink.n, 1);
	assert_int_equal(r.diag.warnings, 0);
	parser_free(r.p);
}

static void test_flush_emits_flush_event(void **s)
{
	(void)s;
	static const char *const lines[] = { "---- TRACE flush", "", "---- TRACE flush", "", NULL };
	struct run r;
	start(&r, 0);
	feed(&r, lines);
	assert_int_equal(r.sink.n, 2);
	assert_int_equal(r.sink.ev[0].kind, EV_FLUSH);
	assert_int_equal(r.sink.ev[0].at, 1);
	assert_int_equal(r.sink.ev[0].hkind, HEADER_FLUSH);
	assert_false(r.sink.ev[0].has_trace);
	assert_int_equal(r.sink.ev[1].kind, EV_FLUSH);
	assert_int_equal(r.sink.ev[1].at, 3);
	assert_counts(&r, 2, 0, 0, 0, 2);
	assert_int_equal(r.diag.warnings, 0);
	parser_free(r.p);
}

static void test_flush_inside_trace_makes_it_incomplete(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 3 start x.lua:1",
		"0001  KSHORT   2   1",
		"---- TRACE flush",
		"",
		NULL
	};
	struct run r;
	start(&r, 0);
	capture_begin();
	feed(&r, lines);
	assert_int_equal(finish(&r), 0);
	capture_end();
	assert_int_equal(r.sink.n, 2);
	assert_int_equal(r.sink.ev[0].kind, EV_INCOMPLETE);
	assert_int_equal(r.sink.ev[0].id, 3);
	assert_int_equal(r.sink.ev[1].kind, EV_FLUSH);
	assert_int_equal(r.diag.warnings, 1);
	parser_free(r.p);
}

/* ---- strictness and handler results ----------------------------------- */

static void test_strict_mode_first_warning_is_fatal(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 4 start z.lua:1",
		"---- TRACE 5 IR",
		NULL
	};
	struct run r;
	start(&r, 0);
	r.diag.strict = 1;
	capture_begin();
	int res = feed(&r, lines);
	capture_end();
	assert_true(res < 0);
	assert_int_equal(r.diag.failed, 1);
	assert_int_equal(r.diag.warnings, 1);
	assert_non_null(strstr(cap.text, "t.dump:2: error: "));
	parser_free(r.p);
}

static void test_strict_mode_bad_header_is_fatal(void **s)
{
	(void)s;
	static const char *const lines[] = { "---- TRACE x IR", NULL };
	struct run r;
	start(&r, 0);
	r.diag.strict = 1;
	capture_begin();
	int res = feed(&r, lines);
	capture_end();
	assert_true(res < 0);
	assert_int_equal(r.diag.failed, 1);
	/* a header that does not parse is not dump output */
	assert_counts(&r, 0, 0, 0, 1, 0);
	parser_free(r.p);
}

static void test_warning_without_strict_goes_on(void **s)
{
	(void)s;
	static const char *const lines[] = { "---- TRACE x IR", NULL };
	struct run r;
	start(&r, 0);
	capture_begin();
	int res = feed(&r, lines);
	capture_end();
	assert_int_equal(res, 0);
	assert_int_equal(r.diag.failed, 0);
	assert_int_equal(r.diag.warnings, 1);
	assert_non_null(strstr(cap.text, "t.dump:1: warning: "));
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

/* ---- trace text ------------------------------------------------------- */

static void test_keep_text_sections_are_byte_exact(void **s)
{
	(void)s;
	struct run r;
	start(&r, 1);
	feed(&r, root_trace);
	assert_int_equal(r.sink.n, 1);
	struct seen *e = &r.sink.ev[0];
	assert_true(e->has_text);
	assert_int_equal(e->present, (1u << DA_SEC_BYTECODE) | (1u << DA_SEC_IR) | (1u << DA_SEC_MCODE));
	const char *bc = "0001  GGET     6   0      ; \"type\"\n"
	                 "0002  MOV      8   1\n"
	                 "0000  . FUNCC               ; type\n";
	assert_int_equal(e->text_len[DA_SEC_BYTECODE], strlen(bc));
	assert_string_equal(e->text[DA_SEC_BYTECODE], bc);
	const char *ir = "....              SNAP   #0   [ ---- ---- ---- ---- ]\n"
	                 "0001 rbp      fun SLOAD  #0    R\n"
	                 "0002 >  int SLOAD  #2    CI\n"
	                 "0008 ------------ LOOP ------------\n"
	                 "....              SNAP   #1   [ ---- ---- 0001 ]\n"
	                 "0009 >  int ADDOV  0001  +1\n";
	assert_string_equal(e->text[DA_SEC_IR], ir);
	const char *mc = "56031dd0ff43  mov dword [r14-0xec8], 0x1\n"
	                 "56031dd0ff4e  jge 0x56031dd00014\t->3\n"
	                 "->LOOP:\n"
	                 "56031dd0ff58  jnz 0x56031dd0004c\t->1\n"
	                 "56031dd0ff60  jo 0x56031dd00018\t->1\n"
	                 "56031dd0ff68  jbe 0x56031dd0001c\t->3\n"
	                 "56031dd0fe0d  jle 0x56031dd0fd2f\t->LOOP\n";
	assert_string_equal(e->text[DA_SEC_MCODE], mc);
	assert_int_equal(e->text_len[DA_SEC_SNAPSHOTS], 0);
	parser_free(r.p);
}

static void test_keep_text_keeps_trailing_spaces_and_snapshots(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 1 start x.lua:1",
		"0001  KSHORT   2   1  ",
		"---- TRACE 1 IR",
		"0007 >  num VLOAD  0005  #1  ",
		"---- TRACE 1 snapshots",
		"#0   0001 [ ---- ---- ]",
		"---- TRACE 1 mcode 5",
		"---- TRACE 1 stop -> loop",
		NULL
	};
	struct run r;
	start(&r, 1);
	feed(&r, lines);
	struct seen *e = &r.sink.ev[0];
	assert_string_equal(e->text[DA_SEC_BYTECODE], "0001  KSHORT   2   1  \n");
	assert_string_equal(e->text[DA_SEC_IR], "0007 >  num VLOAD  0005  #1  \n");
	assert_string_equal(e->text[DA_SEC_SNAPSHOTS], "#0   0001 [ ---- ---- ]\n");
	assert_int_equal(e->text_len[DA_SEC_MCODE], 0);
	assert_int_equal(e->present, 0xfu);
	parser_free(r.p);
}

static void test_text_of_second_trace_is_its_own(void **s)
{
	(void)s;
	static const char *const lines[] = {
		"---- TRACE 2 start x.lua:9",
		"0042  RET0     0   1",
		"---- TRACE 2 IR",
		"---- TRACE 2 mcode 5",
		"---- TRACE 2 stop -> return",
		NULL
	};
	struct run r;
	start(&r, 1);
	feed(&r, root_trace);
	feed(&r, lines);
	assert_int_equal(r.sink.n, 2);
	assert_string_equal(r.sink.ev[1].text[DA_SEC_BYTECODE], "0042  RET0     0   1\n");
	assert_int_equal(r.sink.ev[1].text_len[DA_SEC_IR], 0);
	assert_int_equal(r.sink.ev[1].text_len[DA_SEC_MCODE], 0);
	parser_free(r.p);
}

/* ---- line shapes ------------------------------------------------------ */

static int shape(int (*f)(const char *, size_t), const char *l)
{
	return f(l, strlen(l));
}

/* The pc's four digits are tested as one word: every pair of byte values
 * at every pair of the four places (the rest '0') gives what a test of
 * each byte gives. */
static void test_bytecode_pc_digits_every_byte_pair(void **s)
{
	(void)s;
	for (int i = 0; i < 4; i++)
		for (int j = i + 1; j < 4; j++)
			for (int a = 0; a < 256; a++)
				for (int b = 0; b < 256; b++) {
					char l[] = "0000 x";
					l[i] = (char)a;
					l[j] = (char)b;
					int want = a >= '0' && a <= '9' && b >= '0' && b <= '9';
					if (shape_bytecode(l, 6) != want)
						fail_msg("bytes %d, %d at %d, %d", a, b, i, j);
				}
}

static void test_line_shapes(void **s)
{
	(void)s;
	assert_true(shape(shape_bytecode, "0027  GGET     4   2      ; \"unpack\""));
	assert_true(shape(shape_bytecode, "0000  . FUNCC               ; string.match"));
	assert_true(shape(shape_bytecode, "10027  GGET"));
	assert_false(shape(shape_bytecode, "027  GGET"));
	assert_false(shape(shape_bytecode, "0027"));
	assert_false(shape(shape_bytecode, "42"));
	assert_int_equal(shape(shape_ir, "0001 rbp      int SLOAD  #2    CI"), 1);
	assert_int_equal(shape(shape_ir, "0008 ------------ LOOP ------------"), 1);
	assert_int_equal(shape(shape_ir, "....              SNAP   #1   [ ---- ]"), 2);
	assert_int_equal(shape(shape_ir, "hello world"), 0);
	assert_true(shape(shape_snapshot, "#0   0001 [ ---- ]"));
	assert_false(shape(shape_snapshot, "#x"));
	assert_true(shape(shape_mcode, "0bccff9d  jge 0xbcc0014\t->1"));
	assert_true(shape(shape_mcode, "55bbc524cec7  jmp 0x55bbc524ce26\t->LOOP"));
	assert_true(shape(shape_mcode, "->LOOP:"));
	assert_false(shape(shape_mcode, "total=300"));
	assert_false(shape(shape_mcode, "hello world"));
	assert_true(shape(shape_exit_regs, " 000055bbc524ff81 00007f572b275a80"));
	assert_true(shape(shape_exit_regs, "               +3                +1"));
	assert_true(shape(shape_exit_regs, "rax = 0x0000000000000001"));
	assert_false(shape(shape_exit_regs, "0001  KSHORT"));
}

/* ---- batches ---------------------------------------------------------- */

/* Everything the events say, folded into one number. */
static int digest_event(void *ctx, const struct event *e)
{
	uint64_t *d = ctx, v = (uint64_t)e->kind * 1000003u + e->line;
	if (e->trace) {
		const struct pending_trace *t = e->trace;
		v = v * 31 + t->id;
		v = v * 31 + t->num_bc;
		v = v * 31 + t->num_ir;
		v = v * 31 + t->num_sn;
		v = v * 31 + t->size_mc;
		v = v * 31 + t->nexits;
		for (uint32_t i = 0; i < t->nexits; i++)
			v = v * 31 + t->exits[i];
		if (t->text)
			for (int k = 0; k < DA_SEC_COUNT; k++) {
				v = v * 31 + t->text->len[k];
				for (size_t b = 0; b < t->text->len[k]; b++)
					v = v * 131 + (unsigned char)t->text->buf[t->text->off[k] + b];
			}
	}
	*d = *d * 1099511628211u + v;
	return 0;
}

struct run_result { uint64_t digest; struct da_line_counts c; };

/* A sample's lines through parser_lines in batches of n (0: parser_line
 * one by one); each batch is copied to a scratch buffer that is wiped
 * after the call, as the input's buffer moves on after a batch. */
static struct run_result run_in_batches(const char *text, size_t len, size_t n, int keep_text,
                                        const char *sep)
{
	struct diag d;
	diag_init(&d, "t.dump");
	d.fn = diag_print;
	struct run_result res = { 0, { 0 } };
	struct parser *p = parser_new(&d, keep_text, digest_event, &res.digest);
	struct line batch[64];
	char *scratch = malloc(2 * len + 2);
	size_t nb = 0, used = 0, from = 0, pos = 0;
	uint64_t no = 0;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - text) - pos : len - pos;
		memcpy(scratch + used, text + pos, l);
		batch[nb++] = (struct line){ scratch + used, l, ++no };
		used += l;
		/* as in the input buffer: the line end follows (a CR in it
		 * breaks the lines' contiguity, as input drops it) */
		memcpy(scratch + used, sep, strlen(sep));
		used += strlen(sep);
		pos += l + 1;
		if (n == 0 || nb == n || pos >= len) {
			if (n == 0)
				assert_int_equal(parser_line(p, &batch[0]), 0);
			else
				assert_int_equal(parser_lines(p, batch, nb), 0);
			memset(scratch + from, 'X', used - from);    /* and never reused */
			nb = 0;
			from = used;
		}
	}
	assert_int_equal(parser_end(p, no), 0);
	res.c = *parser_counts(p);
	parser_free(p);
	free(scratch);
	return res;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	long n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

/* Batches give what lines one by one give, wherever a batch ends: in
 * particular inside a chunk name quoted over two lines, whose first line
 * is gone when the second is read. */
static void test_batches_equal_lines_one_by_one(void **s)
{
	(void)s;
	static const char *const samples[] = {
		"samples/chunknames.dump", "samples/mixed-stdout.dump", "samples/rsx.dump",
		"samples/penlight-x.dump",
	};
	static const size_t sizes[] = { 1, 2, 3, 5, 64 };
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		size_t len;
		char *text = slurp(samples[i], &len);
		for (int keep = 0; keep < 2; keep++) {
			struct run_result one = run_in_batches(text, len, 0, keep, "\n");
			for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
				for (int crlf = 0; crlf < 2; crlf++) {
					struct run_result b = run_in_batches(text, len, sizes[k], keep,
					                                     crlf ? "\r\n" : "\n");
					if (b.digest != one.digest || memcmp(&b.c, &one.c, sizeof(b.c)) != 0)
						fail_msg("%s, batches of %zu, text %d, crlf %d: differs",
						         samples[i], sizes[k], keep, crlf);
				}
			if (i == 0)
				assert_int_equal(one.c.foreign, 0);     /* every 2-line chunk name joined */
		}
		free(text);
	}
}

#define T(f) cmocka_unit_test_teardown(f, restore_stderr)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_batches_equal_lines_one_by_one),
		T(test_section_counts_of_a_root_trace),
		T(test_interleaved_snapshot_line_counts_as_snapshot),
		T(test_loop_marker_counts_as_ir_instruction),
		T(test_snapshots_section_counts_snapshots),
		T(test_mcode_exits_are_sorted_and_unique),
		T(test_mcode_exit_suffix_edges),
		T(test_loop_label_is_content_not_exit),
		T(test_exits_do_not_carry_over_to_next_trace),
		T(test_program_output_inside_sections_is_foreign),
		T(test_program_output_between_traces_is_foreign),
		T(test_line_accounting_adds_up),
		T(test_exit_registers_then_new_trace),
		T(test_exit_inside_bytecode_resumes_bytecode_section),
		T(test_multiline_chunk_name_start_is_one_start),
		T(test_function_constant_chunk_name_over_lines_is_bytecode),
		T(test_abort_with_chunk_name_over_lines),
		T(test_never_closed_chunk_name_is_given_up_and_refed),
		T(test_overlong_line_in_a_trace_is_foreign_and_said),
		T(test_overlong_line_ends_a_header_over_lines),
		T(test_header_over_lines_is_joined_up_to_the_cap),
		T(test_abort_after_start_carries_the_start_parent),
		T(test_abort_with_ir_section_counts_ir),
		T(test_abort_of_unseen_start_has_no_parent),
		T(test_stop_of_other_trace_reports_open_one_incomplete),
		T(test_stop_of_other_trace_with_stop_header_only),
		T(test_end_of_input_inside_trace_is_incomplete),
		T(test_end_of_input_after_stop_emits_nothing),
		T(test_flush_emits_flush_event),
		T(test_flush_inside_trace_makes_it_incomplete),
		T(test_strict_mode_first_warning_is_fatal),
		T(test_strict_mode_bad_header_is_fatal),
		T(test_warning_without_strict_goes_on),
		T(test_handler_failure_stops_the_run),
		T(test_keep_text_sections_are_byte_exact),
		T(test_keep_text_keeps_trailing_spaces_and_snapshots),
		T(test_text_of_second_trace_is_its_own),
		T(test_bytecode_pc_digits_every_byte_pair),
		T(test_line_shapes),
	};
	return cmocka_run_group_tests_name("parser", tests, NULL, NULL);
}
