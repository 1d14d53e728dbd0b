/* api.c — the public API (dumpanalyze.h): a dump handle that wires
 * input -> parser -> model, with the whole-run answers when asked. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dumpanalyze.h"
#include "analysis/answers.h"
#include "findings/findings.h"
#include "input/input.h"
#include "model/model.h"
#include "parse/header.h"
#include "parse/parser.h"
#include "util/alloc.h"
#include "util/diag.h"
#include "lib/api.h"

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

struct da_dump {
	struct input in;
	struct diag diag;
	struct model model;
	struct parser *parser;
	int opened;                 /* in holds a reader to close */
	unsigned flags;
	const struct da_sink *sink; /* &sink_copy, or NULL */
	struct da_sink sink_copy;   /* the user's, so theirs may go after open */
	void *sink_data;
	struct answers *answers;    /* with DA_ANSWERS */
	struct findings *findings;  /* with DA_FINDINGS */
	struct profile *profile;    /* da_use_profile */
	struct source_finder finder;    /* da_use_source_root's directories */
	int stepped;                /* da_step was called: too late to add */
	struct vmdef *vmdef;        /* options.vmdef_path's numbering */
	char *name;
	int state;                  /* 1 reading, 0 done, or a DA_E* code */
	atomic_int interrupted;     /* da_interrupt was called */
	char error[128];
};

const char *da_version(void)
{
	return DA_VERSION;
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

static const struct da_sink tee = {
	tee_gen_begin, tee_trace, tee_abort, tee_exit, tee_gen_end
};

/* ---- opening -------------------------------------------------------- */

enum source { FROM_PATH, FROM_FD, FROM_MEMORY };

/* What opening needs, for oom_call. */
struct opening {
	da_dump *d;
	enum source from;
	const char *path;
	int fd;
	const void *buf;
	size_t len;
	const struct da_options *opts;
	int err;                    /* -errno when the path cannot be opened */
	int bad_vmdef;              /* options.vmdef_path unreadable or not one */
};

static void open_parts(void *arg)
{
	struct opening *op = arg;
	da_dump *d = op->d;
	const struct da_options *opts = op->opts;
	const char *name = opts->name ? opts->name
	                   : op->from == FROM_PATH ? (strcmp(op->path, "-") == 0 ? "<stdin>" : op->path)
	                   : op->from == FROM_FD ? "<fd>" : "<memory>";
	size_t n = strlen(name) + 1;
	d->name = xrealloc(NULL, n);
	memcpy(d->name, name, n);
	if (op->from == FROM_PATH) {
		op->err = input_open(&d->in, op->path);
		if (op->err < 0)
			return;
	} else if (op->from == FROM_FD) {
		input_from_fd(&d->in, op->fd);
	} else {
		/* no bytes may come as NULL; the reader takes NULL for "no memory" */
		input_from_memory(&d->in, op->buf ? op->buf : "", op->len);
	}
	d->opened = 1;
	if (opts->flags & DA_NO_THREAD)
		input_without_thread(&d->in);
	diag_init(&d->diag, d->name);
	d->diag.strict = (opts->flags & DA_STRICT) != 0;
	d->diag.verbose = (opts->flags & DA_NOTES) != 0;
	d->diag.fn = opts->diag;
	d->diag.fn_data = opts->diag_data;
	d->flags = opts->flags;
	if (opts->sink) {
		d->sink_copy = *opts->sink;
		d->sink = &d->sink_copy;
	}
	d->sink_data = opts->sink_data;
	source_finder_empty(&d->finder);
	if (opts->flags & DA_FINDINGS) {
		d->findings = xrealloc(NULL, sizeof(*d->findings));
		findings_init(d->findings);
	}
	if (opts->flags & (DA_ANSWERS | DA_FINDINGS)) {
		d->answers = xrealloc(NULL, sizeof(*d->answers));
		memset(d->answers, 0, sizeof(*d->answers));
		model_init(&d->model, &d->diag, &tee, d);
	} else {
		model_init(&d->model, &d->diag, d->sink, d->sink_data);
	}
	if (opts->vmdef_path) {
		d->vmdef = xrealloc(NULL, sizeof(*d->vmdef));
		if (vmdef_read(opts->vmdef_path, d->vmdef) < 0) {
			op->bad_vmdef = 1;
			return;
		}
		d->model.vmdef = d->vmdef;
	}
	d->parser = parser_new(&d->diag, (opts->flags & DA_KEEP_TEXT) != 0, model_event, &d->model);
	d->state = 1;
}

static da_dump *open_dump(struct opening *op, int *err)
{
	static const struct da_options none;
	int dummy;
	if (!err)
		err = &dummy;
	if (!op->opts)
		op->opts = &none;
	if ((op->from == FROM_PATH && !op->path) || (op->from == FROM_MEMORY && !op->buf && op->len)) {
		*err = DA_EINVAL;
		return NULL;
	}
	op->d = calloc(1, sizeof(*op->d));
	if (!op->d) {
		*err = DA_ENOMEM;
		return NULL;
	}
	*err = oom_call(open_parts, op) < 0 ? DA_ENOMEM : op->err < 0 ? DA_EOPEN
	       : op->bad_vmdef ? DA_EINVAL : DA_OK;
	if (*err == DA_OK)
		return op->d;
	da_close(op->d);
	if (op->err < 0)
		errno = -op->err;
	return NULL;
}

da_dump *da_open_path(const char *path, const struct da_options *opts, int *err)
{
	struct opening op = { .from = FROM_PATH, .path = path, .fd = -1, .opts = opts };
	return open_dump(&op, err);
}

da_dump *da_open_fd(int fd, const struct da_options *opts, int *err)
{
	if (fd < 0) {
		if (err)
			*err = DA_EINVAL;
		return NULL;
	}
	struct opening op = { .from = FROM_FD, .fd = fd, .opts = opts };
	return open_dump(&op, err);
}

da_dump *da_open_memory(const void *buf, size_t len, const struct da_options *opts, int *err)
{
	struct opening op = { .from = FROM_MEMORY, .fd = -1, .buf = buf, .len = len, .opts = opts };
	return open_dump(&op, err);
}
/* ---- reading -------------------------------------------------------- */

/* Why the parser or model stopped. */
static int stopped(da_dump *d)
{
	if (d->model.stopped)
		return DA_ESTOPPED;
	return d->diag.failed ? DA_ESTRICT : DA_ESTOPPED;
}

static int fail(da_dump *d, int err)
{
	d->state = err;
	return err;
}

/* The end of the input: an unfinished trace, the last generation. */
static int finish(da_dump *d)
{
	struct input *in = &d->in;
	int r = 0;
	if (input_truncated(in))
		r = diag_warn(&d->diag, in->lineno, "the %s stream ends early: the dump was cut off",
		              input_compression(in));
	/* Lines, and not one of them a header or a -jv event, nor one that
	 * was warned about as a broken header: not a dump (a log, a binary,
	 * the wrong file). */
	const struct da_line_counts *lc = parser_counts(d->parser);
	if (r >= 0 && lc->total > 0 && lc->header == 0 && d->diag.warnings == 0)
		r = diag_warn(&d->diag, in->lineno, "no '---- TRACE' line and no -jv line in %llu "
		              "lines: this does not look like a LuaJIT dump",
		              (unsigned long long)lc->total);
	if (r >= 0)
		r = parser_end(d->parser, in->lineno);
	if (r >= 0)
		r = model_finish(&d->model, in->lineno);
	if (r < 0)
		return fail(d, stopped(d));
	if (d->findings) {
		struct findings_input fin = {
			d->answers, d->profile, d->finder.nroots ? &d->finder : NULL,
			explain_flavour_guess(&d->model.evidence, NULL), &d->diag,
		};
		findings_build(d->findings, &fin);
	}
	d->state = 0;
	return 0;
}

/* One chunk through the parser, for oom_call. */
struct stepping {
	da_dump *d;
	int r;
};

static void step(void *arg)
{
	struct stepping *st = arg;
	da_dump *d = st->d;
	const struct line *lines;
	int r = input_next_chunk(&d->in, &lines);
	if (r > 0)
		r = parser_lines(d->parser, lines, (size_t)r) < 0 ? fail(d, stopped(d)) : 1;
	else if (r == 0)
		r = finish(d);
	else {
		snprintf(d->error, sizeof(d->error), "%s", input_error(&d->in));
		r = fail(d, r == -ENOMEM ? DA_ENOMEM : r == -ECANCELED ? DA_EINTR : DA_EIO);
	}
	st->r = r;
}

int da_step(da_dump *d)
{
	if (!d)
		return DA_EINVAL;
	if (d->state <= 0)
		return d->state;
	d->stepped = 1;
	if (atomic_load(&d->interrupted))
		return fail(d, DA_EINTR);
	struct stepping st = { d, 0 };
	if (oom_call(step, &st) < 0)
		return fail(d, DA_ENOMEM);
	return st.r;
}

void da_interrupt(da_dump *d)
{
	if (!d)
		return;
	atomic_store(&d->interrupted, 1);
	input_interrupt(&d->in);
}

int da_read(da_dump *d)
{
	int r;
	while ((r = da_step(d)) > 0)
		;
	return r;
}

/* ---- accounting ----------------------------------------------------- */

const struct answers *api_answers(const da_dump *d)
{
	return d->answers;
}

const struct profile *api_profile(const da_dump *d)
{
	return d->profile;
}

/* ---- what the findings may read ------------------------------------- */

struct profiling {
	da_dump *d;
	const char *path;
	int r;
};

static void load_profile(void *arg)
{
	struct profiling *pr = arg;
	da_dump *d = pr->d;
	struct profile *p = xrealloc(NULL, sizeof(*p));
	size_t n = strlen(pr->path) + 1;
	char *path = xrealloc(NULL, n);
	memcpy(path, pr->path, n);
	profile_init(p, path);
	struct profile_error e;
	int r = profile_load(p, path, &e);
	if (r < 0) {
		int err = errno;
		if (d->diag.fn)
			d->diag.fn(d->diag.fn_data, DA_ERROR, path, e.line, e.msg);
		profile_free(p);
		free(p);
		free(path);
		errno = err;
		pr->r = r == -1 ? DA_EFORMAT : err == EIO ? DA_EIO : DA_EOPEN;
		return;
	}
	d->profile = p;
	pr->r = 0;
}

int da_use_profile(da_dump *d, const char *path)
{
	if (!d || !path || d->state != 1 || d->stepped || d->profile)
		return DA_EINVAL;
	struct profiling pr = { d, path, 0 };
	if (oom_call(load_profile, &pr) < 0)
		return fail(d, DA_ENOMEM);
	return pr.r;
}

struct rooting {
	da_dump *d;
	const char *dir;
	unsigned how;
};

static void add_root(void *arg)
{
	struct rooting *r = arg;
	source_finder_add(&r->d->finder, r->dir, (r->how & DA_SOURCE_BY_NAME) != 0);
}

int da_use_source_root(da_dump *d, const char *dir, unsigned how)
{
	if (!d || !dir || d->state != 1 || d->stepped || (how & ~DA_SOURCE_BY_NAME))
		return DA_EINVAL;
	struct rooting r = { d, dir, how };
	if (oom_call(add_root, &r) < 0)
		return fail(d, DA_ENOMEM);
	return 0;
}

/* ---- findings ------------------------------------------------------- */

size_t da_findings(const da_dump *d)
{
	return d && d->findings && d->state == 0 ? d->findings->n : 0;
}

const struct da_finding *da_finding(const da_dump *d, size_t i)
{
	return i < da_findings(d) ? &d->findings->list[i] : NULL;
}

const struct da_profile_totals *da_profile_totals(const da_dump *d)
{
	return d && d->findings && d->state == 0 && d->findings->has_totals ? &d->findings->totals : NULL;
}

uint64_t da_bytes_read(const da_dump *d) { return d->in.bytes; }
uint64_t da_lines_read(const da_dump *d) { return d->in.lineno; }
uint64_t da_warnings(const da_dump *d) { return d->diag.warnings; }
uint32_t da_generations(const da_dump *d) { return d->model.generations; }
const struct da_counts *da_totals(const da_dump *d) { return &d->model.total; }
const struct da_counts *da_current(const da_dump *d) { return &d->model.gen.pub.n; }

const struct da_line_counts *da_line_counts(const da_dump *d)
{
	return parser_counts(d->parser);
}

const char *da_compression(const da_dump *d)
{
	return input_compression(&d->in);
}

const char *da_format(const da_dump *d)
{
	return parser_format(d->parser) == FORMAT_JV ? "jv" : "dump";
}

const char *da_dump_error(const da_dump *d)
{
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

void da_close(da_dump *d)
{
	if (!d)
		return;
	if (d->parser)
		parser_free(d->parser);
	model_free(&d->model);
	if (d->opened)
		input_close(&d->in);
	if (d->answers) {
		answers_free(d->answers);
		free(d->answers);
	}
	if (d->findings) {
		findings_free(d->findings);
		free(d->findings);
	}
	if (d->profile) {
		free((char *)d->profile->path);
		profile_free(d->profile);
		free(d->profile);
	}
	source_finder_free(&d->finder);
	free(d->vmdef);
	free(d->name);
	free(d);
}
