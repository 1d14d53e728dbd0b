/* records.h — every callback of a da_dump written out in full, for the
 * unit tests that compare two ways of reading the same bytes (a path, a
 * descriptor, memory, pushed in pieces): a sink and a diag function that
 * append a line per record, every field of it (text and bytecode lines
 * byte for byte), then the handle's accounting and answers at the end.
 * Include after <cmocka.h>. */
#ifndef DUMPANALYZE_TEST_RECORDS_H
#define DUMPANALYZE_TEST_RECORDS_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dumpanalyze.h"

struct rec {
	char *buf;
	size_t len, cap;
	unsigned traces, aborts, exits, gens, diags;
};

static inline void rec_put(struct rec *r, const char *p, size_t n)
{
	assert_non_null(p);         /* the library never hands out NULL bytes */
	if (r->len + n + 1 > r->cap) {
		size_t cap = r->cap ? r->cap : 1 << 16;
		while (cap < r->len + n + 1)
			cap *= 2;
		r->buf = realloc(r->buf, cap);
		assert_non_null(r->buf);
		r->cap = cap;
	}
	memcpy(r->buf + r->len, p, n);
	r->len += n;
	r->buf[r->len] = '\0';
}

static inline void rec_printf(struct rec *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void rec_printf(struct rec *r, const char *fmt, ...)
{
	char small[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t)n < sizeof(small));
	rec_put(r, small, (size_t)n);
}

/* A string field, NULL apart from "", bytes as they are (length first). */
static inline void rec_str(struct rec *r, const char *name, const char *s)
{
	if (!s) {
		rec_printf(r, " %s=NULL", name);
		return;
	}
	rec_printf(r, " %s[%zu]=", name, strlen(s));
	rec_put(r, s, strlen(s));
}

static inline void rec_text(struct rec *r, const struct da_trace_text *t)
{
	if (!t) {
		rec_put(r, " text=NULL", 10);
		return;
	}
	rec_printf(r, " text present=%u", t->present);
	for (int s = 0; s < DA_SEC_COUNT; s++) {
		rec_printf(r, " sec%d[%zu]=", s, t->len[s]);
		rec_put(r, t->buf + t->off[s], t->len[s]);
	}
}

static inline int rec_gen_begin(void *data, const struct da_gen *g)
{
	struct rec *r = data;
	rec_printf(r, "gen_begin %u first_line=%llu traces=%llu\n", (unsigned)g->number,
	           (unsigned long long)g->first_line, (unsigned long long)g->n.traces);
	return 0;
}

static inline int rec_trace(void *data, const struct da_trace *t)
{
	struct rec *r = data;
	r->traces++;
	rec_printf(r, "trace %u gen=%u parent=%u parent_exit=%d parent_trace=%d bush=%u/%u "
	           "line=%d link_kind=%d link_target=%u bc=%u ir=%u sn=%u mc=%u known=%d seq=%u "
	           "start=%llu stop=%llu nexits=%u:",
	           t->id, t->gen, t->parent, t->parent_exit,
	           t->parent_trace ? (int)t->parent_trace->id : -1, t->bush->root->id, t->bush->seq,
	           t->line, (int)t->link_kind, t->link_target, t->num_bc, t->num_ir, t->num_sn,
	           t->size_mc, t->counts_known, t->seq, (unsigned long long)t->start_line,
	           (unsigned long long)t->stop_line, t->nexits);
	for (uint32_t i = 0; i < t->nexits; i++)
		rec_printf(r, " %u", t->exits[i]);
	rec_str(r, "loc", t->loc);
	rec_str(r, "file", t->file);
	rec_str(r, "link", t->link);
	rec_text(r, t->text);
	rec_put(r, "\n", 1);
	return 0;
}

static inline int rec_abort(void *data, const struct da_abort *a)
{
	struct rec *r = data;
	r->aborts++;
	rec_printf(r, "abort %u gen=%u parent=%u parent_exit=%d line=%d start_line=%d line_no=%llu "
	           "start_line_no=%llu nbytecode=%u", a->id, a->gen, a->parent, a->parent_exit,
	           a->line, a->start_line, (unsigned long long)a->line_no,
	           (unsigned long long)a->start_line_no, a->nbytecode);
	rec_str(r, "loc", a->loc);
	rec_str(r, "file", a->file);
	rec_str(r, "reason", a->reason);
	rec_str(r, "start_file", a->start_file);
	rec_str(r, "reason_normal", a->reason_normal);
	rec_str(r, "error", a->error);
	for (uint32_t i = 0; i < a->nbytecode; i++)
		rec_str(r, "bc", a->bytecode[i]);
	rec_text(r, a->text);
	rec_put(r, "\n", 1);
	return 0;
}

static inline int rec_exit(void *data, const struct da_exit *x)
{
	struct rec *r = data;
	r->exits++;
	rec_printf(r, "exit %u/%u gen=%u trace=%d line_no=%llu trace_line=%d resume_line=%d",
	           x->id, x->exit, x->gen, x->trace ? (int)x->trace->seq : -1,
	           (unsigned long long)x->line_no, x->trace_line, x->resume_line);
	rec_str(r, "trace_file", x->trace_file);
	rec_str(r, "resume_file", x->resume_file);
	rec_put(r, "\n", 1);
	return 0;
}

static inline void rec_counts(struct rec *r, const char *what, const struct da_counts *n)
{
	rec_printf(r, "%s traces=%llu root=%llu side=%llu stitched=%llu orphans=%llu aborts=%llu "
	           "exits=%llu incomplete=%llu bushes=%llu\n", what,
	           (unsigned long long)n->traces, (unsigned long long)n->root,
	           (unsigned long long)n->side, (unsigned long long)n->stitched,
	           (unsigned long long)n->orphans, (unsigned long long)n->aborts,
	           (unsigned long long)n->exits, (unsigned long long)n->incomplete,
	           (unsigned long long)n->bushes);
}

static inline int rec_gen_end(void *data, const struct da_gen *g)
{
	struct rec *r = data;
	r->gens++;
	rec_printf(r, "gen_end %u first_line=%llu last_line=%llu\n", (unsigned)g->number,
	           (unsigned long long)g->first_line, (unsigned long long)g->last_line);
	rec_counts(r, " counts", &g->n);
	for (const struct da_trace *t = g->traces; t; t = t->next) {
		rec_printf(r, " trace %u:", t->id);
		for (uint32_t i = 0; i < t->nexits; i++) {
			int32_t line;
			const char *at = da_gen_exit_resume(g, t->id, t->exits[i], &line);
			rec_printf(r, " %u=%llu/%u@%d", t->exits[i],
			           (unsigned long long)da_gen_exit_count(g, t->id, t->exits[i]),
			           da_gen_side_trace(g, t, t->exits[i]), line);
			rec_str(r, "at", at);
		}
		rec_put(r, "\n", 1);
	}
	for (const struct da_bush *b = g->bushes; b; b = b->next) {
		rec_printf(r, " bush %u seq=%u dup=%u ntraces=%u mcode=%llu:", b->root->id, b->seq,
		           b->dup, b->ntraces, (unsigned long long)b->mcode_bytes);
		for (const struct da_trace *t = b->root; t; t = t->next_in_bush)
			rec_printf(r, " %u", t->id);
		rec_put(r, "\n", 1);
	}
	return 0;
}

static const struct da_sink rec_sink = DA_SINK(
	.gen_begin = rec_gen_begin, .trace = rec_trace, .abort = rec_abort, .exit = rec_exit,
	.gen_end = rec_gen_end
);

static inline void rec_diag(void *data, enum da_severity sev, const char *file, uint64_t line,
                     const char *msg)
{
	struct rec *r = data;
	r->diags++;
	rec_printf(r, "diag %d line=%llu", (int)sev, (unsigned long long)line);
	rec_str(r, "file", file);
	rec_str(r, "msg", msg);
	rec_put(r, "\n", 1);
}

/* The handle's accounting and answers, after reading. */
static inline void rec_end(struct rec *r, const da_dump *d)
{
	const struct da_line_counts *l = da_line_counts(d);
	rec_printf(r, "end bytes=%llu lines=%llu total=%llu header=%llu content=%llu regs=%llu "
	           "foreign=%llu blank=%llu warnings=%llu gens=%u compression=%s format=%s\n",
	           (unsigned long long)da_bytes_read(d), (unsigned long long)da_lines_read(d),
	           (unsigned long long)l->total, (unsigned long long)l->header,
	           (unsigned long long)l->content, (unsigned long long)l->exit_regs,
	           (unsigned long long)l->foreign, (unsigned long long)l->blank,
	           (unsigned long long)da_warnings(d), da_generations(d), da_compression(d),
	           da_format(d));
	rec_counts(r, "totals", da_totals(d));
	rec_counts(r, "current", da_current(d));
	for (size_t i = 0; i < da_abort_reasons(d); i++) {
		rec_printf(r, "reason %llu", (unsigned long long)da_abort_reason(d, i)->count);
		rec_str(r, "reason", da_abort_reason(d, i)->reason);
		rec_put(r, "\n", 1);
	}
	for (size_t i = 0; i < da_abort_sites(d); i++) {
		const struct da_site_count *s = da_abort_site(d, i);
		rec_printf(r, "site %llu line=%d first=%llu last=%llu", (unsigned long long)s->count,
		           s->line, (unsigned long long)s->first_line, (unsigned long long)s->last_line);
		rec_str(r, "reason", s->reason);
		rec_str(r, "file", s->file);
		rec_str(r, "normal", s->reason_normal);
		rec_str(r, "error", s->error);
		for (uint32_t k = 0; k < s->nbytecode; k++)
			rec_str(r, "bc", s->bytecode[k]);
		rec_put(r, "\n", 1);
	}
	for (size_t i = 0; i < da_hot_exits(d); i++) {
		const struct da_exit_count *x = da_hot_exit(d, i);
		rec_printf(r, "hot %u %u/%u side=%u count=%llu trace_line=%d resume_line=%d", x->gen,
		           x->trace, x->exit, x->side, (unsigned long long)x->count, x->trace_line,
		           x->resume_line);
		rec_str(r, "trace_file", x->trace_file);
		rec_str(r, "resume_file", x->resume_file);
		rec_put(r, "\n", 1);
	}
	for (size_t i = 0; i < da_given_ups(d); i++) {
		const struct da_given_up *g = da_given_up(d, i);
		rec_printf(r, "given_up %u line=%d %u/%d attempts=%llu trace_line=%d", g->gen, g->line,
		           g->parent, g->exit, (unsigned long long)g->attempts, g->trace_line);
		rec_str(r, "file", g->file);
		rec_str(r, "last_reason", g->last_reason);
		rec_str(r, "trace_file", g->trace_file);
		rec_put(r, "\n", 1);
	}
}

#endif
