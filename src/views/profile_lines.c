/* profile_lines.c — profile-lines.csv: the profile (--profile) and the dump on
 * the same source lines, ranked so that the aborts worth fixing first
 * come first; and, for OpenResty luajit2 dumps, whose bytecode lines end
 * in "(file:line)", profile-coverage.csv: which compiled traces hold each
 * profiled line. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "views/view.h"
#include "outdir/outdir.h"
#include "output/csvout.h"
#include "util/intern.h"
#include "util/arena.h"
#include "profile/profile_join.h"
#include "findings/failed.h"
#include "views/profile_lines.h"
#include "lib/api.h"

/* The header line, from the table the comparison reads the file by. */
static const char lines_header[] =
#include "views/columns/csv_header.h"
#include "views/columns/profile_lines_columns.def"
	"\r\n";

#define COVERAGE_IDS 8              /* trace ids listed per line */

struct covered { size_t line; uint32_t gen, id; };

struct profile_state {
	struct answers answers;     /* first: the answers_view_* hooks */
	/* coverage: profiled lines by name (as written and without
	 * directories) -> index + 1 in the profile's lines */
	struct intern names;
	struct tally profiled;
	int indexed, annotated;
	struct covered *cov;
	size_t ncov, cov_cap;
};

static void index_profile(struct profile_state *s, const struct profile *p)
{
	intern_init(&s->names);
	tally_init(&s->profiled);
	for (size_t i = 0; i < p->nlines; i++) {
		size_t n = intern_len(p->lines[i].file), bn;
		const char *base = profile_basename(p->lines[i].file, n, &bn);
		const char *names[2] = { intern_get(&s->names, p->lines[i].file, n),
		                         intern_get(&s->names, base, bn) };
		for (int k = 0; k < (names[0] == names[1] ? 1 : 2); k++)
			if (!tally_get(&s->profiled, names[k], NULL, p->lines[i].line))
				tally_add(&s->profiled, names[k], NULL, p->lines[i].line, i + 1);
	}
	s->indexed = 1;
}

/* "0026  LEN  10  4       (costly.lua:15)": the line a bytecode came from. */
static void cover(struct profile_state *s, const struct da_trace *t, const char *l, size_t n)
{
	const char *file;
	size_t flen;
	int32_t line;
	if (!profile_bc_source(l, n, &file, &flen, &line))
		return;
	s->annotated = 1;
	const char *name = intern_get(&s->names, file, flen);
	uint64_t idx = tally_get(&s->profiled, name, NULL, line);
	if (!idx)
		return;
	for (size_t i = s->ncov; i > 0 && s->cov[i - 1].gen == t->gen && s->cov[i - 1].id == t->id; i--)
		if (s->cov[i - 1].line == idx - 1)
			return;             /* this trace has it already */
	ALLOC_GROW(s->cov, s->ncov + 1, s->cov_cap);
	s->cov[s->ncov++] = (struct covered){ idx - 1, t->gen, t->id };
}

static int profile_trace(struct view_ctx *c, const struct da_trace *t)
{
	struct profile_state *s = c->state;
	answers_trace(&s->answers, t);
	if (!t->text || !(t->text->present & (1u << DA_SEC_BYTECODE)))
		return 0;
	if (!s->indexed)
		index_profile(s, c->profile);
	const char *p = t->text->buf + t->text->off[DA_SEC_BYTECODE];
	const char *end = p + t->text->len[DA_SEC_BYTECODE];
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		cover(s, t, p, n);
		p += n + 1;
	}
	return 0;
}

/* Sample figures: counts, or percentages of all samples with two
 * decimals for a profile that has only percentages. */
static void field_samples(struct csv_row *r, const struct profile *p, uint64_t v)
{
	if (!p->percent) {
		csv_field_u64(r, v);
		return;
	}
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%" PRIu64 ".%02" PRIu64, v / 100, v % 100);
	csv_field(r, buf, (size_t)n);
}

static int write_lines(struct view_ctx *c, const struct join *j)
{
	const struct profile *p = c->profile;
	struct outfile *f = outfile_create(c->out, "profile-lines.csv");
	FILE *fp = f ? outfile_fp(f) : NULL;
	if (!fp)
		return -1;
	fputs(lines_header, fp);
	static const int cols[] = { VM_INTERPRETED, VM_COMPILED, VM_C, VM_GC, VM_JIT };
	for (size_t i = 0; i < j->n; i++) {
		const struct joined_line *l = &j->rows[i];
		struct csv_row r;
		csv_row_begin(&r, fp);
		csv_field(&r, l->file, l->file_len);
		if (l->line == LOC_NO_LINE)
			csv_field(&r, "", 0);
		else
			csv_field_i64(&r, l->line);
		field_samples(&r, p, l->samples);
		for (size_t k = 0; k < sizeof(cols) / sizeof(cols[0]); k++) {
			if (p->states)
				field_samples(&r, p, l->state[cols[k]]);
			else
				csv_field(&r, "", 0);
		}
		csv_field_u64(&r, l->aborts);
		if (l->top_reason)
			csv_field(&r, l->top_reason, intern_len(l->top_reason));
		else
			csv_field(&r, "", 0);
		csv_field_u64(&r, l->started);
		csv_field_u64(&r, l->blacklisted);
		char fp12[13];
		if (l->line != LOC_NO_LINE &&
		    api_line_fingerprint(c->dump, l->file, l->file_len, l->line, fp12) == 0)
			csv_field(&r, fp12, 12);
		else
			csv_field(&r, "", 0);
		csv_row_end(&r);
	}
	return outfile_commit(f);
}

static int by_line_then_trace(const void *x, const void *y)
{
	const struct covered *a = x, *b = y;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->gen != b->gen)
		return a->gen < b->gen ? -1 : 1;
	return (a->id > b->id) - (a->id < b->id);
}

static int write_coverage(struct view_ctx *c, struct profile_state *s)
{
	const struct profile *p = c->profile;
	struct outfile *f = outfile_create(c->out, "profile-coverage.csv");
	FILE *fp = f ? outfile_fp(f) : NULL;
	if (!fp)
		return -1;
	if (s->ncov)                /* (and s->cov is NULL when none) */
		qsort(s->cov, s->ncov, sizeof(*s->cov), by_line_then_trace);
	fputs("FILE,LINE,SAMPLES,COMPILED,INTERPRETED,TRACES,TRACE_IDS\r\n", fp);
	size_t k = 0;
	for (size_t i = 0; i < p->nlines; i++) {
		const struct profile_line *l = &p->lines[i];
		size_t first = k;
		while (k < s->ncov && s->cov[k].line == i)
			k++;
		char ids[COVERAGE_IDS * 24] = "";
		size_t o = 0;
		for (size_t m = first; m < k && m < first + COVERAGE_IDS; m++)
			o += (size_t)snprintf(ids + o, sizeof(ids) - o, "%s%u/%u", m > first ? " " : "",
			                      s->cov[m].gen, s->cov[m].id);
		if (k - first > COVERAGE_IDS)
			snprintf(ids + o, sizeof(ids) - o, " ...");
		struct csv_row r;
		csv_row_begin(&r, fp);
		csv_field(&r, l->file, intern_len(l->file));
		csv_field_i64(&r, l->line);
		field_samples(&r, p, l->samples);
		if (p->states) {
			field_samples(&r, p, l->state[VM_COMPILED]);
			field_samples(&r, p, l->state[VM_INTERPRETED]);
		} else {
			csv_field(&r, "", 0);
			csv_field(&r, "", 0);
		}
		csv_field_u64(&r, k - first);
		csv_field_str(&r, ids);
		csv_row_end(&r);
	}
	return outfile_commit(f);
}

int profile_callees_csv(struct view_ctx *c, const char *name, const struct callees *cal)
{
	struct outfile *f = outfile_create(c->out, name);
	FILE *fp = f ? outfile_fp(f) : NULL;
	if (!fp)
		return -1;
	fputs("FILE,LINE,CALLEE_SAMPLES,CALLEE_FILE,CALLEE_LINE,CALLEE_REASON\r\n", fp);
	for (size_t i = 0; i < cal->n; i++) {
		const struct callee_row *r = &cal->rows[i];
		struct csv_row row;
		csv_row_begin(&row, fp);
		csv_field(&row, r->file, r->file_len);
		csv_field_i64(&row, r->line);
		csv_field_u64(&row, r->samples);
		csv_field(&row, r->callee->file, r->callee->file_len);
		csv_field_i64(&row, r->callee->line);
		csv_field_str(&row, r->callee->reason);
		csv_row_end(&row);
	}
	return outfile_commit(f);
}

static int profile_finish(struct view_ctx *c)
{
	struct profile_state *s = c->state;
	int r = 0;
	if (c->out && c->profile && s->answers.ngens) {
		struct join j;
		join_build(&j, &s->answers, c->profile);
		r = write_lines(c, &j);
		join_free(&j);
		if (r == 0 && s->annotated)
			r = write_coverage(c, s);
		if (r == 0 && c->profile->kind == PROFILE_STACKS) {
			struct callees cal;
			failed_callees(&cal, api_findings(c->dump), c->profile);
			r = profile_callees_csv(c, "profile-callees.csv", &cal);
			callees_free(&cal);
		}
	}
	if (s->indexed) {
		intern_free(&s->names);
		tally_free(&s->profiled);
	}
	free(s->cov);
	answers_free(&s->answers);
	return r;
}

const struct view view_profile = {
	.name = "profile",
	.files = "profile-lines.csv profile-coverage.csv profile-callees.csv",
	.needs = NEEDS_TEXT | NEEDS_PROFILE | NEEDS_FINDINGS,
	.is_default = 0,
	.state_size = sizeof(struct profile_state),
	.trace = profile_trace,
	.abort = answers_view_abort,
	.gen_end = answers_view_gen_end,
	.finish = profile_finish,
};
