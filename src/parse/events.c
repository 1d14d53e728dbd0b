/* events.c — the lines that are events: a header switches the section
 * and opens, ends or hands over a trace; a header whose quoted chunk name
 * runs over several lines is gathered first; a -jv line is a whole event. */
#include <stdlib.h>
#include <string.h>
#include "parse/parser_state.h"
#include "util/alloc.h"

/* A quoted chunk name is at most 40 bytes (longer ones print as an
 * address), so a header it breaks spans 42 lines at most; joined, it is
 * held to the cap of one line. */
#define CONT_MAX_LINES 42

/* What a header does to the section and the open trace. */
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
		trace_keep_loc(p, h->loc_text, h->loc_len);
		p->state = ST_BYTECODE;
		return r;
	case HEADER_IR:
	case HEADER_SNAPSHOTS:
	case HEADER_MCODE:
		r = trace_expect(p, h, line);
		if (h->kind == HEADER_IR) {
			trace_section(p, DA_SEC_IR);
			p->state = ST_IR;
		} else if (h->kind == HEADER_SNAPSHOTS) {
			trace_section(p, DA_SEC_SNAPSHOTS);
			p->state = ST_SNAPSHOTS;
		} else {
			trace_section(p, DA_SEC_MCODE);
			p->tr.size_mc = h->number;
			p->state = ST_MCODE;
		}
		return r;
	case HEADER_STOP:
		r = trace_expect(p, h, line);
		p->active = 0;
		p->state = ST_NONE;
		e = trace_emit(p, EV_STOP, line, h, 1);
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
		e = trace_emit(p, EV_ABORT, line, h, 1);
		return e < 0 ? e : r;
	case HEADER_EXIT:
		if (p->state != ST_EXIT_REGS)
			p->resume = p->state;
		p->state = ST_EXIT_REGS;
		return trace_emit(p, EV_EXIT, line, h, 0);
	case HEADER_FLUSH:
		r = trace_incomplete(p, line, "the traces were flushed");
		p->state = ST_NONE;
		e = trace_emit(p, EV_FLUSH, line, h, 0);
		return e < 0 ? e : r;
	default:
		return 0;
	}
}

int event_header(struct parser *p, const char *l, size_t n, uint64_t line, int force)
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

/* Give up on a header's continuation: its first line is parsed alone;
 * the lines gathered after it go back to the caller in *rest, to be read
 * again as ordinary lines, by parser.c. */
int event_cont_give_up(struct parser *p, struct cont_rest *rest)
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
	int e = event_header(p, buf, first, line, 1);
	if (e < 0)
		r = e;
	rest->buf = buf;
	rest->text = nl ? nl + 1 : NULL;
	rest->len = nl ? len - first - 1 : 0;
	rest->line = line;
	return r;
}

/* Whether l goes on with the header in p->cont: not when it is a header
 * itself, or past the lines or bytes a chunk name can take (then the
 * header never ends: event_cont_give_up). */
int event_cont_takes(const struct parser *p, const struct line *l)
{
	return !header_is(l->p, l->len) && p->cont_lines < CONT_MAX_LINES &&
	       p->cont_len + 1 + l->len <= INPUT_LINE_MAX;
}

/* A line after the start of a header, the rest of its quoted chunk name. */
int event_cont_line(struct parser *p, const struct line *l)
{
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
	int r = event_header(p, buf, len, p->cont_line, 0);
	free(buf);
	return r;
}

/* One -jv line is a whole event: a trace that stopped or an attempt that
 * aborted, with what the log says of it. */
int event_jv(struct parser *p, const struct jv_event *e, uint64_t line)
{
	struct header h;
	memset(&h, 0, sizeof(h));
	h.id = e->id;
	switch (e->kind) {
	case JV_FLUSH:
		h.kind = HEADER_FLUSH;
		return trace_emit(p, EV_FLUSH, line, &h, 0);
	case JV_STOP:
	case JV_ABORT:
		trace_open(p, e->id, 1, line);
		p->active = 0;
		p->tr.counts_known = 0;
		p->tr.text = NULL;
		p->tr.parent = e->parent;
		p->tr.parent_exit = e->parent_exit;
		trace_keep_loc(p, e->loc, e->loc_len);
		if (e->kind == JV_STOP) {
			h.kind = HEADER_STOP;
			h.link = e->link;
			h.link_len = e->link_len;
			h.link_kind = e->link_kind;
			h.link_target = e->link_target;
			return trace_emit(p, EV_STOP, line, &h, 1);
		}
		h.kind = HEADER_ABORT;
		h.loc_text = e->abort_loc;
		h.loc_len = e->abort_loc_len;
		loc_split(e->abort_loc, e->abort_loc_len, &h.loc);
		h.reason = e->reason;
		h.reason_len = e->reason_len;
		return trace_emit(p, EV_ABORT, line, &h, 1);
	default:
		return 0;
	}
}
