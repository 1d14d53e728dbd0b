/* model.h — traces, bushes, aborts, exits and generations built from the
 * parser's events, handed to a struct da_sink.  Records live in an arena that is reset at the end of
 * each generation; strings are interned for the whole run. */
#ifndef DUMPANALYZE_MODEL_H
#define DUMPANALYZE_MODEL_H

#include <stdint.h>
#include "dumpanalyze.h"
#include "util/arena.h"
#include "util/intern.h"
#include "parse/parser.h"
#include "util/tally.h"
#include "luajit/explain.h"
#include "luajit/vmdef.h"

/* The records are the public ones (dumpanalyze.h); a generation's exit
 * tallies are the model's own, behind the public struct. */

/* to += n, field by field. */
void gen_counts_add(struct da_counts *to, const struct da_counts *n);

/* Exit tallies: key a = the trace (NULL when its number holds no trace of
 * this generation), c = EXIT_KEY(id, exit). */
#define EXIT_KEY(id, exit) (((int64_t)(id) << 32) | (int64_t)(exit))
#define EXIT_KEY_ID(c) ((uint32_t)((uint64_t)(c) >> 32))
#define EXIT_KEY_EXIT(c) ((uint32_t)(c))

/* Where an exit resumes: the start of a side trace or attempt from it. */
struct exit_place {
	const char *file;
	int32_t line;
};

struct gen_state {
	struct da_gen pub;          /* what sinks see */
	struct tally exits;         /* times each (trace, exit) was taken */
	struct tally sides;         /* (parent trace, NULL, exit) -> the id of
	                               the first side trace grown there */
	struct tally resume;        /* (trace, NULL, EXIT_KEY) -> 1 + the index
	                               of its place in places */
	struct exit_place *places;
	size_t nplaces, places_cap;
};

/* The tallies of a generation the model handed out. */
static inline const struct tally *gen_exits(const struct da_gen *g)
{
	return &((const struct gen_state *)(const void *)g)->exits;
}
static inline const struct tally *gen_sides(const struct da_gen *g)
{
	return &((const struct gen_state *)(const void *)g)->sides;
}
/* Where exit `exit` of trace `id` resumes, its number held by t (NULL: by
 * no trace of this generation), as far as the generation showed it; NULL
 * when nothing started there yet. */
static inline const struct exit_place *gen_resume(const struct da_gen *g, const struct da_trace *t,
                                                  uint32_t id, uint32_t exit)
{
	const struct gen_state *gs = (const struct gen_state *)(const void *)g;
	uint64_t k = tally_get(&gs->resume, t, NULL, EXIT_KEY(id, exit));
	return k ? &gs->places[k - 1] : NULL;
}

struct model {
	struct arena arena;         /* records of the current generation */
	struct arena brief;         /* with callback_only: the record and
	                               text of one callback */
	int callback_only;          /* DA_CALLBACK_ONLY */
	struct intern strings;
	struct diag *diag;
	const struct da_sink *sink;
	void *sink_data;
	struct gen_state gen;
	struct da_counts total;
	uint32_t generations;       /* completed */
	/* trace number -> the trace holding it in this generation */
	struct da_trace **holder;
	uint32_t nholder;
	/* root number -> bushes with that root so far in this generation */
	uint32_t *root_uses;
	uint32_t nroot_uses;
	/* trace number -> its exits without a trace were warned about */
	uint8_t *exit_warned;
	uint32_t nexit_warned;
	/* what the dump so far says of its bytecode numbering, and a
	 * build's own numbering (--luajit-vmdef) that overrides it */
	struct explain_evidence evidence;
	const struct vmdef *vmdef;  /* NULL: guessed from the evidence */
	int started;                /* gen_begin sent to the sink */
	int stopped;                /* the sink asked to stop */
};

/* Records go to sink (whose hooks may be NULL) with data as first
 * argument; they live until the generation's gen_end returns, or with
 * callback_only set (after model_init), aborts, exits and text only
 * during their callback. */
void model_init(struct model *m, struct diag *diag, const struct da_sink *sink, void *data);
/* The parser's event sink (an event_fn). */
int model_event(void *model, const struct event *ev);
/* End of input: closes the last generation. */
int model_finish(struct model *m, uint64_t last_line);
void model_free(struct model *m);

#endif
