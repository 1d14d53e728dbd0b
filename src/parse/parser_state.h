/* parser_state.h — the parser's state, shared by the files that make it
 * up, and what they call of each other: parser.c reads data lines in runs
 * (the hot path) and sends the rest on; events.c acts on headers and -jv
 * lines; trace.c keeps the open trace and hands it over in events.  Calls
 * go one way: parser.c -> events.c -> trace.c. */
#ifndef DUMPANALYZE_PARSER_STATE_H
#define DUMPANALYZE_PARSER_STATE_H

#include <stddef.h>
#include <stdint.h>
#include "parse/parser.h"
#include "parse/jv.h"

#define EXIT_MAX 65536
#define BC_LINE_MAX 160             /* longer bytecode lines are cut */

/* The open trace's last few bytecode lines (PENDING_BC_KEEP), copied:
 * an abort names the bytecode it could not record as the last one. */
struct bc_ring {
	char line[PENDING_BC_KEEP][BC_LINE_MAX + 1];   /* NUL-terminated */
	uint16_t len[PENDING_BC_KEEP];
	uint32_t seen;              /* lines kept since the trace opened */
};

enum pstate {
	ST_NONE,                    /* between trace events */
	ST_BYTECODE, ST_IR, ST_SNAPSHOTS, ST_MCODE,
	ST_EXIT_REGS                /* register lines after "exit" (+X) */
};

/* The text kept of one trace: LuaJIT caps a trace at 65,536 IR
 * instructions (and its machine code at -Omaxmcode, 512 KiB by default),
 * so its whole dump, snapshots and bytecode included, stays well below
 * this; the largest trace of the samples is 50 KB.  A longer one is not
 * LuaJIT's (lines forged into the stream): its lines are still counted,
 * but text past this is dropped, with a warning, so that memory is
 * bounded per trace as it is per line. */
#define TRACE_TEXT_MAX (32u << 20)

/* A buffer kept for the next trace only up to this: a longer one is
 * given back as soon as its trace is handed on (the model holds its own
 * copy), so a long text is held twice only while it is copied. */
#define TRACE_TEXT_KEEP (1u << 20)

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
	/* text of the open trace, at most TRACE_TEXT_MAX bytes of it */
	char *text;
	size_t text_len, text_cap;
	uint64_t text_cut;          /* the first line not kept, or 0 */
	struct da_trace_text tt;
	struct bc_ring bc;
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

/* ---- trace.c: the open trace ---- */

/* Open trace id (started: its start header was seen), the last one gone. */
void trace_open(struct parser *p, uint32_t id, int started, uint64_t line);
/* Section s of its text begins here. */
void trace_section(struct parser *p, enum da_section s);
/* Its LOC, copied: the line it is in goes away. */
void trace_keep_loc(struct parser *p, const char *loc, size_t n);
/* Send an event, with the open trace when with_trace. */
int trace_emit(struct parser *p, enum event_kind kind, uint64_t line,
               const struct header *h, int with_trace);
/* The open trace, if any, ends without stop or abort (why: a warning). */
int trace_incomplete(struct parser *p, uint64_t line, const char *why);
/* A section or stop header h must belong to the open trace. */
int trace_expect(struct parser *p, const struct header *h, uint64_t line);

/* ---- events.c: lines that are events ---- */

/* A header line (force: take an unclosed chunk name as it stands). */
int event_header(struct parser *p, const char *l, size_t n, uint64_t line, int force);
/* Whether a line goes on with the header p->cont holds the start of. */
int event_cont_takes(const struct parser *p, const struct line *l);
/* A line that does: the header may be whole now. */
int event_cont_line(struct parser *p, const struct line *l);
/* The header in p->cont is never finished: its first line is taken as it
 * stands, and the lines after it are handed back to be read again as
 * ordinary lines (text: len bytes of '\n'-separated lines, the first of
 * them dump line line + 1; NULL when none); the caller frees buf. */
struct cont_rest {
	char *buf;
	const char *text;
	size_t len;
	uint64_t line;
};
int event_cont_give_up(struct parser *p, struct cont_rest *rest);
/* One -jv line: a whole event. */
int event_jv(struct parser *p, const struct jv_event *e, uint64_t line);

#endif
