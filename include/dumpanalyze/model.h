/* model.h — traces, bushes, aborts, exits and generations built from the
 * parser's events.  Records live in an arena that is reset at the end of
 * each generation; strings are interned for the whole run. */
#ifndef DUMPANALYZE_MODEL_H
#define DUMPANALYZE_MODEL_H

#include <stdint.h>
#include "dumpanalyze/arena.h"
#include "dumpanalyze/intern.h"
#include "dumpanalyze/parser.h"
#include "dumpanalyze/tally.h"

struct bush;

struct trace {
	struct trace *next;         /* this generation, in stop order */
	struct trace *next_in_bush; /* root first, then side traces */
	struct bush *bush;
	const struct trace *parent_trace;   /* NULL: root, stitch or orphan */
	uint32_t id, gen;
	uint32_t parent;            /* trace number from the start header */
	int32_t parent_exit;        /* or PARENT_EXIT_NONE / PARENT_EXIT_STITCH */
	const char *loc;            /* LOC as written (interned) */
	const char *file;           /* interned */
	int32_t line;               /* LOC_NO_LINE when there is none */
	const char *link;           /* text after "stop -> " (interned) */
	enum link_kind link_kind;
	uint32_t link_target;
	uint32_t num_bc, num_ir, num_sn, size_mc;
	int counts_known;           /* 0: from a -jv log, the sizes are unknown */
	uint32_t seq;               /* 0-based stop order in the generation */
	uint32_t nexits;
	const uint16_t *exits;      /* exits referenced by its machine code */
	uint64_t start_line, stop_line;
	/* Set only while views see the trace (NULL unless a view needs it). */
	const struct trace_text *text;
};

struct bush {
	struct bush *next;          /* this generation, in order of roots */
	struct trace *root, *last;
	uint32_t seq;               /* 0-based */
	uint32_t dup;               /* 1, or K for the K-th bush whose root
	                               has this number in the generation */
	uint32_t ntraces;
	uint64_t mcode_bytes;
};

struct abort_rec {
	uint32_t id, gen;
	uint32_t parent;
	int32_t parent_exit;
	const char *loc;            /* where it aborted, as written */
	const char *file;
	int32_t line;
	const char *reason;         /* byte-exact */
	const char *start_file;     /* where the attempt started, or NULL */
	int32_t start_line;
	uint64_t line_no;
};

struct exit_rec {
	uint32_t id, exit, gen;
	const struct trace *trace;  /* holder of that number now, or NULL */
	uint64_t line_no;
};

struct gen_counts {
	uint64_t traces, root, side, stitched, orphans;
	uint64_t aborts, exits, incomplete, bushes;
};

/* to += n, field by field. */
void gen_counts_add(struct gen_counts *to, const struct gen_counts *n);

/* Exit tallies: key a = the trace (NULL when its number holds no trace of
 * this generation), c = EXIT_KEY(id, exit). */
#define EXIT_KEY(id, exit) (((int64_t)(id) << 32) | (int64_t)(exit))
#define EXIT_KEY_ID(c) ((uint32_t)((uint64_t)(c) >> 32))
#define EXIT_KEY_EXIT(c) ((uint32_t)(c))

struct gen {
	uint32_t number;            /* 1-based */
	struct tally exits;         /* times each (trace, exit) was taken */
	struct tally sides;         /* (parent trace, NULL, exit) -> the id of
	                               the first side trace grown there */
	struct trace *traces, *traces_last;
	struct bush *bushes, *bushes_last;
	struct gen_counts n;
	uint64_t first_line, last_line;
};

struct view_set;

struct model {
	struct arena arena;         /* records of the current generation */
	struct intern strings;
	struct diag *diag;
	struct view_set *views;
	struct gen gen;
	struct gen_counts total;
	uint32_t generations;       /* completed */
	/* trace number -> the trace holding it in this generation */
	struct trace **holder;
	uint32_t nholder;
	/* root number -> bushes with that root so far in this generation */
	uint32_t *root_uses;
	uint32_t nroot_uses;
	int started;                /* gen_begin sent to the views */
};

void model_init(struct model *m, struct diag *diag, struct view_set *views);
/* The parser's event sink (an event_fn). */
int model_event(void *model, const struct event *ev);
/* End of input: closes the last generation. */
int model_finish(struct model *m, uint64_t last_line);
void model_free(struct model *m);

#endif
