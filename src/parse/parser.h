/* parser.h — a state machine over dump lines that emits trace events.
 *
 * Header lines switch the state; data lines are checked against the shape
 * of the current section (bytecode, IR, snapshots, mcode, exit registers)
 * and counted there, or counted as foreign when they are not dump output
 * (the program's own prints when both go to stdout).  A -jv verbose log
 * is recognised by its first event line and gives the same events. */
#ifndef DUMPANALYZE_PARSER_H
#define DUMPANALYZE_PARSER_H

#include <stddef.h>
#include <stdint.h>
#include "dumpanalyze.h"
#include "parse/header.h"
#include "util/diag.h"
#include "input/input.h"

/* A trace's text is a struct da_trace_text (dumpanalyze.h): every section
 * is its data lines, each ending in '
', copied byte for byte. */

#define PENDING_BC_KEEP 4           /* bytecode lines kept per attempt */

/* A trace as the parser saw it, from its start header to its stop/abort
 * (or from one -jv line). */
struct pending_trace {
	uint32_t id;
	int started;                /* its start header was seen */
	uint32_t parent;
	int32_t parent_exit;
	const char *loc_text;       /* LOC as written (may hold newlines) */
	size_t loc_len;
	struct loc loc;
	uint32_t num_bc, num_ir, num_sn, size_mc;
	int counts_known;           /* 0 for a -jv log: no sections */
	uint64_t start_line;        /* line number of the start header */
	/* exits referenced by the machine code ("->N"), sorted, unique */
	const uint16_t *exits;
	uint32_t nexits;
	const struct da_trace_text *text;  /* NULL unless text is kept */
	/* its last bytecode lines, oldest first, NUL-terminated, valid
	 * during the event */
	const char *bc[PENDING_BC_KEEP];
	size_t bc_len[PENDING_BC_KEEP];
	uint32_t nbc;
};

enum event_kind {
	EV_STOP,                    /* a compiled trace: trace, header */
	EV_ABORT,                   /* an aborted attempt: trace, header */
	EV_EXIT,                    /* a taken exit: header */
	EV_FLUSH,                   /* all traces flushed: new generation */
	EV_INCOMPLETE               /* a trace that never stopped: trace */
};

struct event {
	enum event_kind kind;
	uint64_t line;              /* line number of the header */
	const struct pending_trace *trace;
	const struct header *header;
};

typedef int (*event_fn)(void *ctx, const struct event *ev);

/* Where every input line went: struct da_line_counts (dumpanalyze.h). */

enum input_format { FORMAT_UNKNOWN, FORMAT_DUMP, FORMAT_JV };

struct parser;

struct parser *parser_new(struct diag *diag, int keep_text,
                          event_fn emit, void *ctx);
/* Feed one line.  Returns 0, or the negative value an event handler
 * returned (the run stops). */
int parser_line(struct parser *p, const struct line *l);
/* The same for n lines in order (from input_next_lines). */
int parser_lines(struct parser *p, const struct line *l, size_t n);
/* End of input: an unfinished trace becomes EV_INCOMPLETE. */
int parser_end(struct parser *p, uint64_t last_line);
const struct da_line_counts *parser_counts(const struct parser *p);
enum input_format parser_format(const struct parser *p);
void parser_free(struct parser *p);

#endif
