/* collect.c — what the findings need, collected while the dump is read:
 * aborted attempts by where they start, with their reasons and the places
 * they failed; compiled traces by start; likely blacklisting per
 * generation; the NYI bytecodes the dump shows recorded.  Bounded by the
 * distinct starts and abort sites, not by the dump's size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "findings/findings.h"
#include "findings/baseline.h"
#include "analysis/diagnose.h"
#include "util/alloc.h"
#include "util/diag.h"

/* ---- collecting ---------------------------------------------------------- */

void findings_init(struct findings *f)
{
	memset(f, 0, sizeof(*f));
	intern_init(&f->copies);
	intern_init(&f->text);
	tally_init(&f->start_ix);
	tally_init(&f->reason_ix);
	tally_init(&f->side_of);
	tally_init(&f->compiled);
}

/* Start kinds as tally keys: a small integer as the b pointer. */
#define KIND_KEY(k) ((const void *)(uintptr_t)((k) + 1))

static struct fstart *start_of(struct findings *f, const char *file, enum start_kind k, int32_t line)
{
	uint64_t i = tally_get(&f->start_ix, file, KIND_KEY(k), line);
	if (i)
		return &f->starts[i - 1];
	ALLOC_GROW(f->starts, f->nstarts + 1, f->starts_cap);
	struct fstart *s = &f->starts[f->nstarts++];
	memset(s, 0, sizeof(*s));
	s->kind = k;
	s->file = file;
	s->line = line;
	tally_add(&f->start_ix, file, KIND_KEY(k), line, f->nstarts);
	return s;
}

/* The NYI bytecodes a bytecode line shows recorded: only those with
 * advice for a build seen compiling them (ITERN, ISNEXT) are looked up. */
/* Whether the line holds " ITERN " or " ISNEXT ": one pass over its
 * capital I's, where two memmem calls cost four times as much on every
 * bytecode line of every abort. */
static int names_iter_bc(const char *line, size_t n)
{
	const char *end = line + n;
	for (const char *p = line + 1; p < end && (p = memchr(p, 'I', (size_t)(end - p))); p++)
		if (p[-1] == ' ' && ((end - p >= 6 && memcmp(p, "ITERN ", 6) == 0) ||
		                     (end - p >= 7 && memcmp(p, "ISNEXT ", 7) == 0)))
			return 1;
	return 0;
}

static void note_recorded(struct findings *f, const char *line, size_t n)
{
	if (n < 12 || !names_iter_bc(line, n))
		return;
	const struct explain_bc *bc = explain_bcline(line, n);
	if (!bc || !bc->nyi)
		return;
	size_t nr;
	const char *const *names;
	explain_bc_rules(&nr, &names);
	for (size_t i = 0; i < nr && i < 32; i++)
		if (strcmp(names[i], bc->name) == 0)
			f->recorded |= 1u << i;
}

/* Each line of a trace's bytecode section, but the last `skip`. */
static void each_bc_line(const struct da_trace_text *t, size_t skip,
                         void (*fn)(void *, const char *, size_t), void *arg)
{
	if (!t || !(t->present & (1u << DA_SEC_BYTECODE)) || !t->len[DA_SEC_BYTECODE])
		return;
	const char *p = t->buf + t->off[DA_SEC_BYTECODE], *end = p + t->len[DA_SEC_BYTECODE];
	size_t total = 0;
	for (const char *q = p; q < end; q++)
		total += *q == '\n';
	for (size_t i = 0; p < end && i + skip < total; i++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		fn(arg, p, n);
		p += n + 1;
	}
}

static void recorded_cb(void *arg, const char *s, size_t n)
{
	note_recorded(arg, s, n);
}

void findings_trace(struct findings *f, const struct da_trace *t)
{
	if (t->file) {
		enum start_kind k = t->parent_exit == DA_PARENT_EXIT_NONE ? START_ROOT
		                    : t->parent_exit == DA_PARENT_EXIT_STITCH ? START_STITCH : START_SIDE;
		tally_add(&f->compiled, t->file, KIND_KEY(k), t->line, 1);
	}
	each_bc_line(t->text, 0, recorded_cb, f);
}

/* "(file:line)" ending a luajit2 bytecode line: its line when the file
 * is start's. */
struct span_arg { struct fstart *s; };

static void widen(struct fstart *s, int32_t line)
{
	if (line <= 0)
		return;
	if (!s->lo || line < s->lo)
		s->lo = line;
	if (line > s->hi)
		s->hi = line;
}

static void span_cb(void *arg, const char *l, size_t n)
{
	struct fstart *s = ((struct span_arg *)arg)->s;
	const char *file;
	size_t flen;
	int32_t line;
	if (!profile_bc_source(l, n, &file, &flen, &line))
		return;
	size_t sn = intern_len(s->file);
	if (flen == sn && memcmp(file, s->file, sn) == 0 && line >= s->line)
		widen(s, line);
}

void findings_abort(struct findings *f, const struct da_abort *a)
{
	enum start_kind k = a->parent_exit == DA_PARENT_EXIT_NONE ? START_ROOT
	                    : a->parent_exit == DA_PARENT_EXIT_STITCH ? START_STITCH : START_SIDE;
	const char *file = a->start_file ? a->start_file : a->file;
	int32_t line = a->start_file ? a->start_line : a->line;
	if (!file)
		return;                 /* nothing to place it at */
	struct fstart *s = start_of(f, file, k, line);
	size_t si = (size_t)(s - f->starts);
	s->attempts++;
	s->last_reason = a->reason_normal;
	s->parent = a->parent;
	s->exit = a->parent_exit;
	if (!s->gen_first)
		s->gen_first = a->gen;
	s->gen_last = a->gen;
	/* (a loop is left on a line after it: that line is no part of it) */
	if (a->file == s->file && a->line >= s->line && !(a->error && strcmp(a->error, "LLEAVE") == 0))
		widen(s, a->line);
	widen(s, s->line);
	struct span_arg sa = { s };
	if (a->text)
		each_bc_line(a->text, 0, span_cb, &sa);
	else
		for (uint32_t i = 0; i < a->nbytecode; i++)
			span_cb(&sa, a->bytecode[i], strlen(a->bytecode[i]));
	/* what it recorded before the failing bytecode, this build compiles */
	if (a->text)
		each_bc_line(a->text, 1, recorded_cb, f);
	else
		for (uint32_t i = 0; i + 1 < a->nbytecode; i++)
			note_recorded(f, a->bytecode[i], strlen(a->bytecode[i]));

	int64_t key = ((int64_t)si << 32) | (uint32_t)a->line;
	uint64_t ri = tally_get(&f->reason_ix, a->reason_normal, a->file, key);
	if (!ri) {
		ALLOC_GROW(f->reasons, f->nreasons + 1, f->reasons_cap);
		struct start_reason *r = &f->reasons[f->nreasons++];
		memset(r, 0, sizeof(*r));
		r->reason = a->reason_normal;
		r->error = a->error;
		r->at_file = a->file;
		r->at_line = a->line;
		r->first_seen = f->seq++;
		tally_add(&f->reason_ix, a->reason_normal, a->file, key, f->nreasons);
		ri = f->nreasons;
		ALLOC_GROW(s->reasons, s->nreasons + 1, s->reasons_cap);
		s->reasons[s->nreasons++] = f->nreasons - 1;
	}
	struct start_reason *r = &f->reasons[ri - 1];
	r->count++;
	r->last_line_no = a->line_no;
	if (a->nbytecode) {
		const char *b = a->bytecode[a->nbytecode - 1];
		r->bytecode = intern_get(&f->copies, b, strlen(b));
	}
	/* this generation's (parent, exit): its start, for the blacklisting */
	const void *parent = (const void *)((uintptr_t)a->parent + 1);
	if (k != START_ROOT && !tally_get(&f->side_of, NULL, parent, a->parent_exit))
		tally_add(&f->side_of, NULL, parent, a->parent_exit, si + 1);
}

void findings_gen_end(struct findings *f, const struct answers *a, const struct da_gen *g)
{
	for (; f->gave_up_seen < a->ngave_up; f->gave_up_seen++) {
		const struct given_up *u = &a->gave_up[f->gave_up_seen];
		if (u->gen != g->number)
			continue;
		const struct start *st = &u->st;
		struct fstart *s = NULL;
		if (st->exit == PARENT_EXIT_NONE) {
			uint64_t i = st->file ? tally_get(&f->start_ix, st->file, KIND_KEY(START_ROOT), st->line) : 0;
			s = i ? &f->starts[i - 1] : NULL;
			if (s && st->later != LATER_NO)
				s = NULL;
		} else {
			uint64_t i = tally_get(&f->side_of, NULL, (const void *)((uintptr_t)st->parent + 1), st->exit);
			s = i ? &f->starts[i - 1] : NULL;
			if (s && st->later == LATER_STUB)
				s->stubs++;
		}
		/* several exits of one place give up in one generation */
		if (s && s->blacklisted_last != g->number) {
			s->blacklisted_gens++;
			s->blacklisted_last = g->number;
		}
	}
	tally_clear(&f->side_of);
}

void findings_free(struct findings *f)
{
	for (size_t i = 0; i < f->nstarts; i++)
		free(f->starts[i].reasons);
	free(f->starts);
	free(f->reasons);
	free(f->list);
	free(f->reason_rows);
	free(f->failed);
	if (f->baseline) {
		baseline_free(f->baseline);
		free(f->baseline);
	}
	free(f->stale);
	intern_free(&f->copies);
	intern_free(&f->text);
	tally_free(&f->start_ix);
	tally_free(&f->reason_ix);
	tally_free(&f->side_of);
	tally_free(&f->compiled);
	memset(f, 0, sizeof(*f));
}
