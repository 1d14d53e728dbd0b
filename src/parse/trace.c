/* trace.c — the open trace: opened by a header, its text's sections and
 * LOC kept, its exits put in order, and handed over in events. */
#include <stdlib.h>
#include <string.h>
#include "parse/parser_state.h"
#include "util/alloc.h"

void trace_section(struct parser *p, enum da_section s)
{
	p->tt.off[s] = p->text_len;
	p->tt.len[s] = 0;
	p->tt.present |= 1u << s;
}

void trace_open(struct parser *p, uint32_t id, int started, uint64_t line)
{
	for (uint32_t i = 0; i < p->nexits; i++)
		p->exit_bits[p->exits[i] / 64] = 0;
	p->nexits = 0;
	p->exit_max = 0;
	memset(&p->tr, 0, sizeof(p->tr));
	memset(&p->tt, 0, sizeof(p->tt));
	p->text_len = 0;
	p->text_cut = 0;
	p->bc.seen = 0;
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
	trace_section(p, DA_SEC_BYTECODE);
	if (!started)
		p->tt.present = 0;
}

void trace_keep_loc(struct parser *p, const char *loc, size_t n)
{
	ALLOC_GROW(p->loc, n + 1, p->loc_cap);
	memcpy(p->loc, loc, n);
	p->loc[n] = '\0';
	p->tr.loc_text = p->loc;
	p->tr.loc_len = n;
	loc_split(p->loc, n, &p->tr.loc);
}

/* In order, from the bitmap that already holds them. */
static void sort_exits(struct parser *p)
{
	uint32_t k = 0;
	for (uint32_t w = 0; w <= p->exit_max / 64; w++)
		for (uint64_t bits = p->exit_bits[w]; bits; bits &= bits - 1)
			p->exits[k++] = (uint16_t)(w * 64 + (uint32_t)__builtin_ctzll(bits));
}

int trace_emit(struct parser *p, enum event_kind kind, uint64_t line,
               const struct header *h, int with_trace)
{
	struct event ev = { kind, line, NULL, h };
	if (with_trace) {
		if (p->nexits > 1)
			sort_exits(p);
		p->tr.exits = p->exits;
		p->tr.nexits = p->nexits;
		p->tt.buf = p->text;    /* where the text was last grown to */
		uint32_t n = p->bc.seen < PENDING_BC_KEEP ? p->bc.seen : PENDING_BC_KEEP;
		for (uint32_t i = 0; i < n; i++) {
			unsigned slot = (p->bc.seen - n + i) % PENDING_BC_KEEP;
			p->tr.bc[i] = p->bc.line[slot];
			p->tr.bc_len[i] = p->bc.len[slot];
		}
		p->tr.nbc = n;
		ev.trace = &p->tr;
		if (p->text_cut && p->text_cut != UINT64_MAX) {
			int r = diag_warn(p->diag, p->text_cut,
			                  "trace %u: its text passes %u MiB (no trace of LuaJIT's is "
			                  "that long): kept up to this line, the rest counted only",
			                  p->tr.id, TRACE_TEXT_MAX >> 20);
			p->text_cut = UINT64_MAX;      /* said; still nothing more kept */
			if (r < 0)
				return r;
		}
	}
	int e = p->emit(p->ctx, &ev);
	if (with_trace && p->text_cap > TRACE_TEXT_KEEP) {
		/* The trace is closed and the model has its copy (or, with
		 * DA_CALLBACK_ONLY, the callback is over): a long text is not
		 * held a second time until the next trace. */
		free(p->text);
		p->text = NULL;
		p->text_cap = 0;
		p->text_len = 0;
	}
	return e;
}

int trace_incomplete(struct parser *p, uint64_t line, const char *why)
{
	if (!p->active)
		return 0;
	p->active = 0;
	int r = diag_warn(p->diag, line, "trace %u (started at line %llu) is incomplete: %s",
	                  p->tr.id, (unsigned long long)p->tr.start_line, why);
	int e = trace_emit(p, EV_INCOMPLETE, line, NULL, 1);
	return e < 0 ? e : r;
}

/* When h is another trace's, the open one is incomplete and h opens a
 * trace whose start we did not see (the dump began in the middle of it). */
int trace_expect(struct parser *p, const struct header *h, uint64_t line)
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
