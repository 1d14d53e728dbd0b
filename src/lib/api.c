/* api.c — the public API (dumpanalyze.h): versions, errors, the sink
 * that keeps the answers (and feeds the findings), accounting and
 * closing.  Opening is open.c, reading read.c, the answers
 * answers_api.c, the findings findings_api.c. */
#include <stdlib.h>
#include <string.h>
#include "dumpanalyze.h"
#include "lib/api.h"
#include "parse/header.h"
#include "parse/parser.h"

/* The Makefile's VERSION and ABI are the header's. */
#if !defined(DA_MAKE_VERSION_NUM) || DA_MAKE_VERSION_NUM != DA_VERSION_NUM
#error "the Makefile's VERSION is not dumpanalyze.h's DA_VERSION_*"
#endif
#if !defined(DA_MAKE_ABI) || DA_MAKE_ABI != DA_ABI
#error "the Makefile's ABI is not dumpanalyze.h's DA_ABI"
#endif

/* The public link kinds are link_types.def's words, in its order. */
enum {
#define LINK(e, w) LINK_INDEX_##e,
#include "parse/link_types.def"
#undef LINK
	LINK_INDEX_COUNT
};
#define LINK(e, w) _Static_assert((int)LINK_INDEX_##e == (int)DA_LINK_##e, "link_types.def and enum da_link");
#include "parse/link_types.def"
#undef LINK
_Static_assert((int)LINK_INDEX_COUNT == (int)DA_LINK_OTHER, "link_types.def and enum da_link");
_Static_assert(DA_NO_LINE == LOC_NO_LINE, "loc.h and DA_NO_LINE");

const char *da_version(void)
{
	return DA_VERSION_STRING;
}

unsigned long da_version_number(void)
{
	return DA_VERSION_NUM;
}

const char *da_strerror(int err)
{
	switch (err) {
	case DA_OK: return "no error";
	case DA_EIO: return "cannot read the dump";
	case DA_ENOMEM: return "out of memory";
	case DA_ESTRICT: return "a warning about the input under DA_STRICT";
	case DA_ESTOPPED: return "stopped by a sink callback";
	case DA_EINVAL: return "invalid argument";
	case DA_EOPEN: return "cannot open the dump";
	case DA_EINTR: return "interrupted";
	}
	return "unknown error";
}

/* ---- answers: a sink in front of the user's ------------------------- */

static int tee_gen_begin(void *data, const struct da_gen *g)
{
	da_dump *d = data;
	return d->sink && d->sink->gen_begin ? d->sink->gen_begin(d->sink_data, g) : 0;
}

static int tee_trace(void *data, const struct da_trace *t)
{
	da_dump *d = data;
	answers_trace(d->answers, t);
	if (d->findings)
		findings_trace(d->findings, t);
	return d->sink && d->sink->trace ? d->sink->trace(d->sink_data, t) : 0;
}

static int tee_abort(void *data, const struct da_abort *a)
{
	da_dump *d = data;
	answers_abort(d->answers, a);
	if (d->findings)
		findings_abort(d->findings, a);
	return d->sink && d->sink->abort ? d->sink->abort(d->sink_data, a) : 0;
}

static int tee_exit(void *data, const struct da_exit *x)
{
	da_dump *d = data;
	return d->sink && d->sink->exit ? d->sink->exit(d->sink_data, x) : 0;
}

static int tee_gen_end(void *data, const struct da_gen *g)
{
	da_dump *d = data;
	int r = d->sink && d->sink->gen_end ? d->sink->gen_end(d->sink_data, g) : 0;
	answers_gen_end(d->answers, g);
	if (d->findings)
		findings_gen_end(d->findings, d->answers, g);
	return r;
}

const struct da_sink api_tee = DA_SINK(
	.gen_begin = tee_gen_begin, .trace = tee_trace, .abort = tee_abort, .exit = tee_exit,
	.gen_end = tee_gen_end
);

/* ---- accounting ----------------------------------------------------- */

const struct answers *api_answers(const da_dump *d)
{
	return d->answers;
}

const struct profile *api_profile(const da_dump *d)
{
	return d->profiles.jp;
}

const struct sysprof *api_sysprof(const da_dump *d)
{
	return d->profiles.sp;
}

/* A NULL handle (a failed open's) answers as an empty one. */
static const struct da_counts no_counts;
static const struct da_line_counts no_lines;

uint64_t da_bytes_read(const da_dump *d) { return d ? d->in.bytes : 0; }
uint64_t da_lines_read(const da_dump *d) { return d ? d->in.lineno : 0; }
uint64_t da_warnings(const da_dump *d) { return d ? d->diag.warnings : 0; }
uint32_t da_generations(const da_dump *d) { return d ? d->model.generations : 0; }
const struct da_counts *da_totals(const da_dump *d) { return d ? &d->model.total : &no_counts; }
const struct da_counts *da_current(const da_dump *d) { return d ? &d->model.gen.pub.n : &no_counts; }

const struct da_line_counts *da_line_counts(const da_dump *d)
{
	return d ? parser_counts(d->parser) : &no_lines;
}

const char *da_compression(const da_dump *d)
{
	return d ? input_compression(&d->in) : "plain";
}

const char *da_format(const da_dump *d)
{
	return d && parser_format(d->parser) == FORMAT_JV ? "jv" : "dump";
}

const char *da_dump_error(const da_dump *d)
{
	if (!d)
		return da_strerror(DA_EINVAL);
	return d->error[0] ? d->error : da_strerror(d->state < 0 ? d->state : DA_OK);
}

uint64_t da_gen_exit_count(const struct da_gen *g, uint32_t id, uint32_t exit)
{
	/* Keyed by the trace that held the number when the exit was taken
	 * (NULL before any did): a number used twice has several. */
	uint64_t n = tally_get(gen_exits(g), NULL, NULL, EXIT_KEY(id, exit));
	for (const struct da_trace *t = g->traces; t; t = t->next)
		if (t->id == id)
			n += tally_get(gen_exits(g), t, NULL, EXIT_KEY(id, exit));
	return n;
}

uint32_t da_gen_side_trace(const struct da_gen *g, const struct da_trace *t, uint32_t exit)
{
	return (uint32_t)tally_get(gen_sides(g), t, NULL, exit);
}

const char *da_gen_exit_resume(const struct da_gen *g, uint32_t id, uint32_t exit, int32_t *line)
{
	/* As da_gen_exit_count: by no trace, then by each that held id. */
	const struct exit_place *at = gen_resume(g, NULL, id, exit);
	for (const struct da_trace *t = g->traces; t && !at; t = t->next)
		if (t->id == id)
			at = gen_resume(g, t, id, exit);
	if (line)
		*line = at ? at->line : DA_NO_LINE;
	return at ? at->file : NULL;
}

void da_close(da_dump *d)
{
	if (!d)
		return;
	if (d->parser)
		parser_free(d->parser);
	model_free(&d->model);
	if (d->opened)
		input_close(&d->in);
	api_answers_free(d);
	if (d->answers) {
		answers_free(d->answers);
		free(d->answers);
	}
	api_findings_free(d);
	free(d->vmdef);
	free(d->name);
	free(d);
}
