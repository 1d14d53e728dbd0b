/* parser.c — the line state machine; see parser.h. */
#include <stdlib.h>
#include <string.h>
#include "parse/parser.h"
#include "util/arena.h"
#include "parse/jv.h"
#include "util/compiler.h"

#define FOREIGN_SHOWN 10            /* foreign lines printed with -v */
#define CONT_MAX_LINES 42           /* chunk names are at most 40 bytes */
#define EXIT_MAX 65536
#define CHUNKNAME_MAX 40            /* longer names print as a pointer */

enum pstate {
	ST_NONE,                    /* between trace events */
	ST_BYTECODE, ST_IR, ST_SNAPSHOTS, ST_MCODE,
	ST_EXIT_REGS                /* register lines after "exit" (+X) */
};

struct parser {
	struct diag *diag;
	int keep_text;
	event_fn emit;
	void *ctx;
	enum input_format format;   /* set by the first event line */
	enum pstate state, resume;
	int active;                 /* a trace is open */
	struct pending_trace tr;
	struct da_line_counts counts;
	/* text of the open trace */
	char *text;
	size_t text_len, text_cap;
	struct da_trace_text tt;
	/* LOC of the open trace (the line buffer moves on) */
	char *loc;
	size_t loc_cap;
	/* exits referenced by the open trace's mcode */
	uint64_t exit_bits[EXIT_MAX / 64];
	uint16_t *exits;
	uint32_t nexits, exit_max;
	size_t exits_cap;
	/* a data line whose quoted chunk name goes on on the next line
	 * ("; \"for i=1,9 do" / "end\":2" after FNEW): bytes still allowed */
	size_t quote_budget;
	enum da_section quote_sec;
	/* the last data line, whose quotes are counted only when a line
	 * after it needs to know (or before its bytes go away) */
	const char *quote_line;
	size_t quote_len;
	/* a header whose quoted chunk name goes on over several lines */
	char *cont;
	size_t cont_len, cont_cap;
	int cont_lines;
	uint64_t cont_line;
};

/* ---- line shapes ------------------------------------------------------ */

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static size_t count_digits(const char *p, size_t n)
{
	size_t i = 0;
	while (i < n && is_digit(p[i]))
		i++;
	return i;
}

/* Whether p[0..3] are all decimal digits, tested as one word: a byte is
 * one when its high nibble is 3, and still 3 with 6 added (low nibble at
 * most 9).  A carry into the next byte needs a byte of 0xfa or more,
 * which fails by itself, so the test is exact, in either byte order. */
static inline int four_digits(const char *p)
{
	uint32_t x;
	memcpy(&x, p, 4);
	return ((x & 0xf0f0f0f0u) | ((x + 0x06060606u) & 0xf0f0f0f0u) >> 4) == 0x33333333u;
}

/* "0027  GGET ..." — the pc as %04d, then a space. */
static inline int shape_bytecode_at(const char *p, size_t n)
{
	if (n < 5 || !four_digits(p))
		return 0;
	if (p[4] == ' ')
		return 1;
	size_t d = 4 + count_digits(p + 4, n - 4);
	return d < n && p[d] == ' ';
}

/* "0001 >  int SLOAD ..." is an instruction (the LOOP marker too);
 * "....        SNAP   #1 [ ... ]" is an interleaved snapshot. */
static inline int shape_ir_at(const char *p, size_t n)
{
	if (n > 5 && memcmp(p, ".... ", 5) == 0)
		return 2;
	return shape_bytecode_at(p, n) ? 1 : 0;
}

/* "#0   0001 [ ---- ]" in a separate snapshots section. */
static inline int shape_snapshot_at(const char *p, size_t n)
{
	return n >= 2 && p[0] == '#' && is_digit(p[1]);
}

/* Hex digits, for the addresses that start machine code lines. */
static const unsigned char hex_digit[256] = {
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1,
	['7'] = 1, ['8'] = 1, ['9'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1,
	['e'] = 1, ['f'] = 1, ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1,
	['F'] = 1,
};

/* An address of at least 4 hex digits: enough, as nothing else is
 * printed while LuaJIT writes a trace's machine code, and cheap, as most
 * lines of a dump are machine code. */
static inline int shape_mcode_address(const char *p, size_t n)
{
	const unsigned char *u = (const unsigned char *)p;
	return n > 5 && hex_digit[u[0]] & hex_digit[u[1]] & hex_digit[u[2]] & hex_digit[u[3]];
}

/* "0bccff9d  jge 0xbcc0014\t->1", "55bbc524cec7  jmp ...", "->LOOP:". */
static inline int shape_mcode_at(const char *p, size_t n)
{
	if (n >= 3 && p[0] == '-' && p[1] == '>')
		return 1;
	return shape_mcode_address(p, n);
}

/* The same, for tests. */
int shape_bytecode(const char *p, size_t n) { return shape_bytecode_at(p, n); }
int shape_ir(const char *p, size_t n) { return shape_ir_at(p, n); }
int shape_snapshot(const char *p, size_t n) { return shape_snapshot_at(p, n); }
int shape_mcode(const char *p, size_t n) { return shape_mcode_at(p, n); }

/* " 000055bbc524ff81 ..." (+X, current) or "rax = 0x..." (old builds). */
int shape_exit_regs(const char *p, size_t n)
{
	if (n >= 2 && p[0] == ' ')
		return 1;
	size_t i = 0;
	while (i < n && ((p[i] >= 'a' && p[i] <= 'z') || is_digit(p[i])))
		i++;
	return i > 0 && n - i >= 3 && memcmp(p + i, " = ", 3) == 0;
}

/* ---- the open trace --------------------------------------------------- */

static void text_append(struct parser *p, enum da_section s, const char *l, size_t n)
{
	ALLOC_GROW(p->text, p->text_len + n + 1, p->text_cap);
	if (n)
		memcpy(p->text + p->text_len, l, n);
	p->text[p->text_len + n] = '\n';
	p->text_len += n + 1;
	p->tt.len[s] += n + 1;
}

static void section_begin(struct parser *p, enum da_section s)
{
	p->tt.off[s] = p->text_len;
	p->tt.len[s] = 0;
	p->tt.present |= 1u << s;
}

static void trace_open(struct parser *p, uint32_t id, int started, uint64_t line)
{
	for (uint32_t i = 0; i < p->nexits; i++)
		p->exit_bits[p->exits[i] / 64] = 0;
	p->nexits = 0;
	p->exit_max = 0;
	memset(&p->tr, 0, sizeof(p->tr));
	memset(&p->tt, 0, sizeof(p->tt));
	p->text_len = 0;
	p->tr.id = id;
	p->tr.started = started;
	p->tr.parent_exit = PARENT_EXIT_NONE;
	/* Until a start header says otherwise, the location is unknown:
	 * "(?)", as LuaJIT itself prints one it cannot name. */
	p->tr.loc.line = LOC_NO_LINE;
	p->tr.loc_text = p->tr.loc.file = "(?)";
	p->tr.loc_len = p->tr.loc.file_len = 3;
	p->tr.start_line = line;
	p->tr.counts_known = 1;
	p->tr.text = p->keep_text ? &p->tt : NULL;
	p->active = 1;
	section_begin(p, DA_SEC_BYTECODE);
	if (!started)
		p->tt.present = 0;
}

/* In order, from the bitmap that already holds them. */
static void sort_exits(struct parser *p)
{
	uint32_t k = 0;
	for (uint32_t w = 0; w <= p->exit_max / 64; w++)
		for (uint64_t bits = p->exit_bits[w]; bits; bits &= bits - 1)
			p->exits[k++] = (uint16_t)(w * 64 + (uint32_t)__builtin_ctzll(bits));
}

static int emit(struct parser *p, enum event_kind kind, uint64_t line,
                const struct header *h, int with_trace)
{
	struct event ev = { kind, line, NULL, h };
	if (with_trace) {
		if (p->nexits > 1)
			sort_exits(p);
		p->tr.exits = p->exits;
		p->tr.nexits = p->nexits;
		p->tt.buf = p->text;    /* where text_append left it */
		ev.trace = &p->tr;
	}
	return p->emit(p->ctx, &ev);
}

/* The open trace ends without stop or abort. */
static int trace_incomplete(struct parser *p, uint64_t line, const char *why)
{
	if (!p->active)
		return 0;
	p->active = 0;
	int r = diag_warn(p->diag, line, "trace %u (started at line %llu) is incomplete: %s",
	                  p->tr.id, (unsigned long long)p->tr.start_line, why);
	int e = emit(p, EV_INCOMPLETE, line, NULL, 1);
	return e < 0 ? e : r;
}

/* A section or stop header must belong to the open trace; when it does
 * not, the open one is incomplete and the header opens a trace whose
 * start we did not see (the dump began in the middle of it). */
static int expect_trace(struct parser *p, const struct header *h, uint64_t line)
{
	if (p->active && p->tr.id == h->id)
		return 0;
	int r = 0;
	if (p->active) {
		r = trace_incomplete(p, line, "another trace's header follows");
	} else {
		r = diag_warn(p->diag, line, "trace %u: \"%s\" header without a start header",
		              h->id, header_kind_word(h->kind));
	}
	trace_open(p, h->id, 0, line);
	return r;
}

static void note_exit(struct parser *p, uint32_t ex)
{
	if (ex >= EXIT_MAX)
		return;
	uint64_t bit = 1ull << (ex % 64);
	if (p->exit_bits[ex / 64] & bit)
		return;
	p->exit_bits[ex / 64] |= bit;
	if (ex > p->exit_max)
		p->exit_max = ex;
	ALLOC_GROW(p->exits, p->nexits + 1, p->exits_cap);
	p->exits[p->nexits++] = (uint16_t)ex;
}

/* The disassembler appends "\t->N" when an instruction targets exit N:
 * look at the end of the line, not through all of it.  N has 1 to 6
 * digits, so its '>' is among the 6 bytes before the last; those are
 * compared at once, as a word, and most lines (no '>' there) stop at
 * that, with no loop over their trailing digits.  A line shorter than 8
 * bytes cannot hold an address of 4 digits and the suffix. */
static inline void scan_mcode_exit(struct parser *p, const char *l, size_t n)
{
	if (n < 8)
		return;
	uint64_t x;
	memcpy(&x, l + n - 8, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);   /* byte i of x is l[n - 8 + i] */
#endif
	/* the top bit of each byte that equals '>', exactly (no carries
	 * between bytes), for bytes 1-6: l[n - 7] to l[n - 2] */
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
	uint64_t t = x ^ 0x3e3e3e3e3e3e3e3eull;
	uint64_t gt = ~(((t & low7) + low7) | t) & 0x0080808080808000ull;
	if (!gt)
		return;
	/* the last '>', which only digits may follow */
	const char *q = l + n - 8 + (63 - __builtin_clzll(gt)) / 8 + 1, *end = l + n;
	if (q - l < 3 || q[-2] != '-' || q[-3] != '\t')
		return;
	uint32_t v = 0;
	for (; q < end; q++) {
		if (!is_digit(*q))
			return;
		v = v * 10 + (uint32_t)(*q - '0');
	}
	note_exit(p, v);
}

/* A quoted chunk name printed with its newlines (a function constant's
 * location) leaves an odd number of '"' on the line. */
static int quote_left_open(const char *l, size_t n)
{
	int open = 0;
	const char *q = l, *end = l + n;
	while ((q = memchr(q, '"', (size_t)(end - q))) != NULL) {
		open = !open;
		q++;
	}
	return open;
}

/* Most data lines are followed by another, so whether one leaves a quoted
 * chunk name open is worked out only when the next line does not fit its
 * section (or the line is about to go away). */
static void quotes_of_last_line(struct parser *p)
{
	if (!p->quote_line)
		return;
	if (memchr(p->quote_line, '"', p->quote_len) && quote_left_open(p->quote_line, p->quote_len))
		p->quote_budget = CHUNKNAME_MAX + 2;
	p->quote_line = NULL;
}

/* ---- headers ---------------------------------------------------------- */

/* The open trace's LOC, copied: the line it is in goes away. */
static void keep_loc(struct parser *p, const char *loc, size_t n)
{
	ALLOC_GROW(p->loc, n + 1, p->loc_cap);
	memcpy(p->loc, loc, n);
	p->loc[n] = '\0';
	p->tr.loc_text = p->loc;
	p->tr.loc_len = n;
	loc_split(p->loc, n, &p->tr.loc);
}

static int on_header(struct parser *p, const struct header *h, uint64_t line)
{
	int r = 0, e;
	switch (h->kind) {
	case HEADER_START:
		if (p->active)
			r = trace_incomplete(p, line, "a new trace starts");
		trace_open(p, h->id, 1, line);
		p->tr.parent = h->parent;
		p->tr.parent_exit = h->parent_exit;
		keep_loc(p, h->loc_text, h->loc_len);
		p->state = ST_BYTECODE;
		return r;
	case HEADER_IR:
	case HEADER_SNAPSHOTS:
	case HEADER_MCODE:
		r = expect_trace(p, h, line);
		if (h->kind == HEADER_IR) {
			section_begin(p, DA_SEC_IR);
			p->state = ST_IR;
		} else if (h->kind == HEADER_SNAPSHOTS) {
			section_begin(p, DA_SEC_SNAPSHOTS);
			p->state = ST_SNAPSHOTS;
		} else {
			section_begin(p, DA_SEC_MCODE);
			p->tr.size_mc = h->number;
			p->state = ST_MCODE;
		}
		return r;
	case HEADER_STOP:
		r = expect_trace(p, h, line);
		p->active = 0;
		p->state = ST_NONE;
		e = emit(p, EV_STOP, line, h, 1);
		return e < 0 ? e : r;
	case HEADER_ABORT:
		/* An abort of a trace we never saw start is still an abort;
		 * an abort of another number leaves the open one unfinished. */
		if (p->active && p->tr.id != h->id)
			r = trace_incomplete(p, line, "another trace's abort follows");
		if (!p->active)
			trace_open(p, h->id, 0, line);
		p->active = 0;
		p->state = ST_NONE;
		e = emit(p, EV_ABORT, line, h, 1);
		return e < 0 ? e : r;
	case HEADER_EXIT:
		if (p->state != ST_EXIT_REGS)
			p->resume = p->state;
		p->state = ST_EXIT_REGS;
		return emit(p, EV_EXIT, line, h, 0);
	case HEADER_FLUSH:
		r = trace_incomplete(p, line, "the traces were flushed");
		p->state = ST_NONE;
		e = emit(p, EV_FLUSH, line, h, 0);
		return e < 0 ? e : r;
	default:
		return 0;
	}
}

static int header_line(struct parser *p, const char *l, size_t n,
                       uint64_t line, int force);

/* Give up on a header's continuation: parse its first line alone and
 * feed the collected lines again as ordinary lines. */
static int cont_give_up(struct parser *p)
{
	char *buf = p->cont;
	size_t len = p->cont_len;
	uint64_t line = p->cont_line;
	p->cont = NULL;
	p->cont_len = p->cont_cap = 0;
	p->cont_lines = 0;
	int r = diag_warn(p->diag, line, "quoted chunk name is never closed");
	char *nl = memchr(buf, '\n', len);
	size_t first = nl ? (size_t)(nl - buf) : len;
	p->counts.header--;     /* counted again below */
	int e = header_line(p, buf, first, line, 1);
	if (e < 0)
		r = e;
	size_t pos = nl ? first + 1 : len;
	while (r >= 0 && pos <= len && nl) {
		nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len;
		struct line sub = { buf + pos, end - pos, ++line };
		p->counts.header--;
		p->counts.total--;
		e = parser_line(p, &sub);
		if (e < 0)
			r = e;
		pos = end + 1;
	}
	free(buf);
	return r;
}

static int header_line(struct parser *p, const char *l, size_t n,
                       uint64_t line, int force)
{
	struct header h;
	const char *why;
	p->counts.header++;
	enum header_result res = header_parse(l, n, &h, &why);
	if (res == HEADER_INCOMPLETE && force) {
		/* Take the LOC as it stands. */
		res = HEADER_OK;
		if (h.kind == HEADER_ABORT) {
			why = "abort without \" -- reason\"";
			res = HEADER_BAD;
		} else {
			loc_split(h.loc_text, h.loc_len, &h.loc);
		}
	}
	if (res == HEADER_INCOMPLETE) {
		ALLOC_GROW(p->cont, n, p->cont_cap);
		memcpy(p->cont, l, n);
		p->cont_len = n;
		p->cont_lines = 0;
		p->cont_line = line;
		return 0;
	}
	if (res == HEADER_BAD) {
		p->counts.header--;
		p->counts.foreign++;
		return diag_warn(p->diag, line, "%s: %.*s", why,
		                 (int)(n > 120 ? 120 : n), l);
	}
	return on_header(p, &h, line);
}

/* ---- -jv logs --------------------------------------------------------- */

/* One -jv line is a whole event: a trace that stopped or an attempt that
 * aborted, with what the log says of it. */
static int jv_line(struct parser *p, const struct jv_event *e, uint64_t line)
{
	struct header h;
	memset(&h, 0, sizeof(h));
	h.id = e->id;
	switch (e->kind) {
	case JV_FLUSH:
		h.kind = HEADER_FLUSH;
		return emit(p, EV_FLUSH, line, &h, 0);
	case JV_STOP:
	case JV_ABORT:
		trace_open(p, e->id, 1, line);
		p->active = 0;
		p->tr.counts_known = 0;
		p->tr.text = NULL;
		p->tr.parent = e->parent;
		p->tr.parent_exit = e->parent_exit;
		keep_loc(p, e->loc, e->loc_len);
		if (e->kind == JV_STOP) {
			h.kind = HEADER_STOP;
			h.link = e->link;
			h.link_len = e->link_len;
			h.link_kind = e->link_kind;
			h.link_target = e->link_target;
			return emit(p, EV_STOP, line, &h, 1);
		}
		h.kind = HEADER_ABORT;
		h.loc_text = e->abort_loc;
		h.loc_len = e->abort_loc_len;
		loc_split(e->abort_loc, e->abort_loc_len, &h.loc);
		h.reason = e->reason;
		h.reason_len = e->reason_len;
		return emit(p, EV_ABORT, line, &h, 1);
	default:
		return 0;
	}
}

/* ---- lines ------------------------------------------------------------ */

static int cont_line(struct parser *p, const struct line *l)
{
	if (header_is(l->p, l->len) || p->cont_lines >= CONT_MAX_LINES) {
		int r = cont_give_up(p);
		if (r < 0)
			return r;
		return parser_line(p, l);
	}
	p->counts.total++;
	p->counts.header++;
	ALLOC_GROW(p->cont, p->cont_len + 1 + l->len, p->cont_cap);
	p->cont[p->cont_len++] = '\n';
	memcpy(p->cont + p->cont_len, l->p, l->len);
	p->cont_len += l->len;
	p->cont_lines++;
	struct header h;
	const char *why;
	if (header_parse(p->cont, p->cont_len, &h, &why) == HEADER_INCOMPLETE)
		return 0;
	char *buf = p->cont;
	size_t len = p->cont_len;
	p->cont = NULL;
	p->cont_len = p->cont_cap = 0;
	p->counts.header--;     /* the whole header counted once per line */
	int r = header_line(p, buf, len, p->cont_line, 0);
	free(buf);
	return r;
}

static void foreign(struct parser *p, const struct line *l)
{
	p->counts.foreign++;
	if (p->counts.foreign <= FOREIGN_SHOWN)
		diag_verbose(p->diag, l->no, "not dump output: %.*s",
		             (int)(l->len > 120 ? 120 : l->len), l->p);
}

static int data_line(struct parser *p, const struct line *l);

/* Everything but a plain data line: headers, -jv lines, blank lines,
 * register dumps, continuations.  Kept out of parser_line, whose short
 * way must not pay for this one's stack frame. */
static DA_NOINLINE int other_line(struct parser *p, const struct line *l)
{
	const char *s = l->p;
	size_t n = l->len;

	if (p->cont)
		return cont_line(p, l);
	p->counts.total++;
	if (n >= 11 && s[0] == '-' && p->format != FORMAT_JV && header_is(s, n)) {
		p->format = FORMAT_DUMP;
		p->quote_budget = 0;
		p->quote_line = NULL;
		return header_line(p, s, n, l->no, 0);
	}
	if (n >= 9 && s[0] == '[' && p->format != FORMAT_DUMP) {
		struct jv_event e;
		if (jv_parse(s, n, &e) == 0) {
			p->format = FORMAT_JV;
			p->counts.header++;
			return jv_line(p, &e, l->no);
		}
	}

	if (n == 0) {
		p->counts.blank++;
		return 0;
	}
	if (p->state == ST_EXIT_REGS) {
		if (shape_exit_regs(s, n)) {
			p->counts.exit_regs++;
			return 0;
		}
		p->state = p->resume;
	}
	return data_line(p, l);
}

/* A line without its section's shape: the rest of a quoted chunk name
 * that holds newlines, or foreign. */
static DA_NOINLINE int not_data(struct parser *p, const struct line *l)
{
	const char *s = l->p;
	size_t n = l->len;
	quotes_of_last_line(p);
	if (p->quote_budget && n < p->quote_budget && p->active) {
		p->quote_budget = quote_left_open(s, n) ? 0 : p->quote_budget - n - 1;
		p->counts.content++;
		if (p->keep_text)
			text_append(p, p->quote_sec, s, n);
		return 0;
	}
	p->quote_budget = 0;
	foreign(p, l);
	return 0;
}

/* A line in a section of the open trace: counted when it has the
 * section's shape, else foreign (or the rest of a quoted chunk name). */
/* k data lines of section sec taken (contiguous when text is kept):
 * counted, kept, and the last one remembered for its quotes. */
static void data_taken(struct parser *p, enum da_section sec, const struct line *l, size_t k)
{
	p->counts.content += k;
	if (p->keep_text)
		text_append(p, sec, l[0].p, (size_t)(l[k - 1].p + l[k - 1].len - l[0].p));
	/* Only the last line of a run can leave a quote open. */
	p->quote_budget = 0;
	p->quote_line = sec != DA_SEC_MCODE ? l[k - 1].p : NULL;
	p->quote_len = l[k - 1].len;
	p->quote_sec = sec;
}

static size_t data_run(struct parser *p, const struct line *l, size_t n);

static inline int data_line(struct parser *p, const struct line *l)
{
	if (data_run(p, l, 1))
		return 0;
	/* What runs do not take: snapshots sections, "->LOOP:" labels. */
	enum da_section sec;
	if (p->state == ST_SNAPSHOTS && shape_snapshot_at(l->p, l->len)) {
		p->tr.num_sn++;
		sec = DA_SEC_SNAPSHOTS;
	} else if (p->state == ST_MCODE && shape_mcode_at(l->p, l->len)) {
		scan_mcode_exit(p, l->p, l->len);
		sec = DA_SEC_MCODE;
	} else {
		return not_data(p, l);
	}
	data_taken(p, sec, l, 1);
	return 0;
}

static inline int one_line(struct parser *p, const struct line *l)
{
	/* Most lines are data lines, and a hex digit first rules out
	 * headers, -jv lines and register dumps: the short way for them. */
	if (!p->cont && p->state != ST_EXIT_REGS && l->len > 5 &&
	    hex_digit[(unsigned char)l->p[0]]) {
		p->counts.total++;
		return data_line(p, l);
	}
	return other_line(p, l);
}

int parser_line(struct parser *p, const struct line *l)
{
	int r = one_line(p, l);
	quotes_of_last_line(p);     /* its bytes go away now */
	return r;
}

/* Runs of data lines in the open section, counted in tight loops: most
 * lines of a dump come this way.  With trace text kept, a run also stops
 * where the next line does not follow in the input buffer (a CR was
 * dropped), so that the run is one span to copy. */
static inline int follows(const struct line *l, size_t i, int text)
{
	return !text || i == 0 || l[i].p == l[i - 1].p + l[i - 1].len + 1;
}

static inline size_t mcode_run(struct parser *p, const struct line *l, size_t n, int text)
{
	size_t i = 0;
	while (i < n && follows(l, i, text) && shape_mcode_address(l[i].p, l[i].len)) {
		scan_mcode_exit(p, l[i].p, l[i].len);
		i++;
	}
	return i;
}

static inline size_t bytecode_run(struct parser *p, const struct line *l, size_t n, int text)
{
	size_t i = 0;
	while (i < n && follows(l, i, text) && shape_bytecode_at(l[i].p, l[i].len))
		i++;
	p->tr.num_bc += (uint32_t)i;
	return i;
}

/* IR lines, with interleaved snapshots counted apart. */
static inline size_t ir_run(struct parser *p, const struct line *l, size_t n, int text)
{
	size_t i = 0;
	int k;
	while (i < n && follows(l, i, text) && (k = shape_ir_at(l[i].p, l[i].len)) != 0) {
		if (k == 2)
			p->tr.num_sn++;
		else
			p->tr.num_ir++;
		i++;
	}
	return i;
}

static size_t data_run(struct parser *p, const struct line *l, size_t n)
{
	size_t k;
	enum da_section sec;
	int text = p->keep_text;
	switch (p->state) {
	/* text as a constant in each call: a loop without the check */
	case ST_MCODE:
		k = text ? mcode_run(p, l, n, 1) : mcode_run(p, l, n, 0);
		sec = DA_SEC_MCODE;
		break;
	case ST_BYTECODE:
		k = text ? bytecode_run(p, l, n, 1) : bytecode_run(p, l, n, 0);
		sec = DA_SEC_BYTECODE;
		break;
	case ST_IR:
		k = text ? ir_run(p, l, n, 1) : ir_run(p, l, n, 0);
		sec = DA_SEC_IR;
		break;
	default:
		return 0;
	}
	if (k)
		data_taken(p, sec, l, k);
	return k;
}

int parser_lines(struct parser *p, const struct line *l, size_t n)
{
	for (size_t i = 0; i < n;) {
		if (!p->cont) {
			size_t k = data_run(p, l + i, n - i);
			p->counts.total += k;
			i += k;
			if (i == n)
				break;
		}
		int r = one_line(p, &l[i++]);
		if (r < 0)
			return r;
	}
	quotes_of_last_line(p);     /* the batch's bytes go away now */
	return 0;
}

int parser_end(struct parser *p, uint64_t last_line)
{
	int r = 0;
	if (p->cont)
		r = cont_give_up(p);
	int e = trace_incomplete(p, last_line, "the dump ends inside it");
	return r < 0 ? r : e;
}

struct parser *parser_new(struct diag *diag, int keep_text, event_fn emit_fn, void *ctx)
{
	struct parser *p = xrealloc(NULL, sizeof(*p));
	memset(p, 0, sizeof(*p));
	p->diag = diag;
	p->keep_text = keep_text;
	p->emit = emit_fn;
	p->ctx = ctx;
	p->state = ST_NONE;
	return p;
}

enum input_format parser_format(const struct parser *p)
{
	return p->format;
}

const struct da_line_counts *parser_counts(const struct parser *p)
{
	return &p->counts;
}

void parser_free(struct parser *p)
{
	if (!p)
		return;
	free(p->text);
	free(p->loc);
	free(p->exits);
	free(p->cont);
	free(p);
}
