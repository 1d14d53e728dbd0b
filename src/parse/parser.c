/* parser.c — the batch loop: data lines counted in runs of their
 * section's shape (most lines of a dump), the rest sent on to events.c;
 * the entry points of parser.h.  What the loop calls per line is inline
 * here or in shapes.h. */
#include <stdlib.h>
#include <string.h>
#include "parse/parser_state.h"
#include "parse/shapes.h"
#include "util/alloc.h"
#include "util/compiler.h"

#define FOREIGN_SHOWN 10            /* foreign lines printed with -v */
#define CHUNKNAME_MAX 40            /* longer names print as a pointer */

/* ---- the open trace's text and exits --------------------------------- */

/* n bytes of data lines from l, and a newline, go at the end of section
 * s of the open trace's text. */
static void text_append(struct parser *p, enum da_section s, const char *l, size_t n)
{
	if (p->text_cut)
		return;
	ALLOC_GROW(p->text, p->text_len + n + 1, p->text_cap);
	if (n)
		memcpy(p->text + p->text_len, l, n);
	p->text[p->text_len + n] = '\n';
	p->text_len += n + 1;
	p->tt.len[s] += n + 1;
}

/* k contiguous data lines from l, as many whole ones as fit under
 * TRACE_TEXT_MAX; the first that does not is where the text was cut
 * (trace_emit says so). */
static void text_keep(struct parser *p, enum da_section s, const struct line *l, size_t k)
{
	if (p->text_cut || !k)
		return;
	size_t fit = 0;
	while (fit < k && p->text_len + (size_t)(l[fit].p + l[fit].len - l[0].p) + 1 <= TRACE_TEXT_MAX)
		fit++;
	if (fit)
		text_append(p, s, l[0].p, (size_t)(l[fit - 1].p + l[fit - 1].len - l[0].p));
	if (fit < k)
		p->text_cut = l[fit].no;
}

/* The open trace's machine code references exit ex: kept once, in the
 * order seen (trace_emit sorts them from the bitmap). */
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

/* ---- lines ------------------------------------------------------------ */

static void foreign(struct parser *p, const struct line *l)
{
	p->counts.foreign++;
	if (p->counts.foreign <= FOREIGN_SHOWN)
		diag_verbose(p->diag, l->no, "not dump output: %.*s",
		             (int)(l->len > 120 ? 120 : l->len), l->p);
}

static int data_line(struct parser *p, const struct line *l);

/* A header whose quoted chunk name never closes: events.c takes its first
 * line as it stands, and the lines gathered after it are read again here
 * as what they are. */
static int cont_give_up(struct parser *p)
{
	struct cont_rest rest;
	int r = event_cont_give_up(p, &rest);
	uint64_t line = rest.line;
	size_t pos = 0;
	while (r >= 0 && rest.text && pos <= rest.len) {
		const char *nl = memchr(rest.text + pos, '\n', rest.len - pos);
		size_t end = nl ? (size_t)(nl - rest.text) : rest.len;
		struct line sub = { rest.text + pos, end - pos, ++line };
		p->counts.header--;
		p->counts.total--;
		int e = parser_line(p, &sub);
		if (e < 0)
			r = e;
		pos = end + 1;
		if (!nl)
			break;
	}
	free(rest.buf);
	return r;
}

/* A line longer than INPUT_LINE_MAX, which the input skipped: no dump
 * line is that long, so it is foreign, and said once.  A header waiting
 * for the rest of its chunk name never gets it. */
static DA_NOINLINE int overlong(struct parser *p, const struct line *l)
{
	int r = p->cont ? cont_give_up(p) : 0;
	p->counts.total++;
	p->counts.foreign++;
	p->quote_budget = 0;
	p->quote_line = NULL;
	int e = diag_warn(p->diag, l->no, "line longer than %u bytes: skipped", INPUT_LINE_MAX);
	return r < 0 ? r : e;
}

/* Everything but a plain data line: headers, -jv lines, blank lines,
 * register dumps, continuations.  Kept out of parser_line, whose short
 * way must not pay for this one's stack frame. */
static DA_NOINLINE int other_line(struct parser *p, const struct line *l)
{
	const char *s = l->p;
	size_t n = l->len;

	if (input_line_overlong(l))
		return overlong(p, l);
	if (p->cont) {
		if (event_cont_takes(p, l))
			return event_cont_line(p, l);
		int r = cont_give_up(p);
		if (r < 0)
			return r;
		return parser_line(p, l);
	}
	p->counts.total++;
	if (n >= 11 && s[0] == '-' && p->format != FORMAT_JV && header_is(s, n)) {
		p->format = FORMAT_DUMP;
		p->quote_budget = 0;
		p->quote_line = NULL;
		return event_header(p, s, n, l->no, 0);
	}
	if (n >= 9 && s[0] == '[' && p->format != FORMAT_DUMP) {
		struct jv_event e;
		if (jv_parse(s, n, &e) == 0) {
			p->format = FORMAT_JV;
			p->counts.header++;
			return event_jv(p, &e, l->no);
		}
	}

	if (n == 0) {
		p->counts.blank++;
		return 0;
	}
	if (p->state == ST_EXIT_REGS) {
		if (shape_exit_regs_at(s, n)) {
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
			text_keep(p, p->quote_sec, l, 1);
		return 0;
	}
	p->quote_budget = 0;
	foreign(p, l);
	return 0;
}

/* The last of k bytecode lines go into the ring: a copy of at most
 * PENDING_BC_KEEP short lines per run, whatever the run's length. */
static void bc_keep(struct parser *p, const struct line *l, size_t k)
{
	size_t from = k > PENDING_BC_KEEP ? k - PENDING_BC_KEEP : 0;
	for (size_t i = from; i < k; i++) {
		unsigned slot = p->bc.seen++ % PENDING_BC_KEEP;
		size_t n = l[i].len < BC_LINE_MAX ? l[i].len : BC_LINE_MAX;
		memcpy(p->bc.line[slot], l[i].p, n);
		p->bc.line[slot][n] = '\0';
		p->bc.len[slot] = (uint16_t)n;
	}
}

/* k data lines of section sec taken (contiguous when text is kept):
 * counted, kept, and the last one remembered for its quotes. */
static void data_taken(struct parser *p, enum da_section sec, const struct line *l, size_t k)
{
	p->counts.content += k;
	if (sec == DA_SEC_BYTECODE)
		bc_keep(p, l, k);
	if (p->keep_text)
		text_keep(p, sec, l, k);
	/* Only the last line of a run can leave a quote open. */
	p->quote_budget = 0;
	p->quote_line = sec != DA_SEC_MCODE ? l[k - 1].p : NULL;
	p->quote_len = l[k - 1].len;
	p->quote_sec = sec;
}

static size_t data_run(struct parser *p, const struct line *l, size_t n);

/* A line in a section of the open trace: counted when it has the
 * section's shape, else foreign (or the rest of a quoted chunk name). */
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
