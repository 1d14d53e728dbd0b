/* sysprof_view.c — with a sysprof profile (--profile): time per trace, bush
 * and Lua function.  profile-states.csv (samples by VM state),
 * profile-traces.csv and profile-bushes.csv (TRACE samples charged to the
 * dump's traces and bushes by profile/sysprof_join.h's rule, most first),
 * profile-functions.csv (interpreted and C samples per Lua function). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "views/view.h"
#include "lib/api.h"
#include "outdir/outdir.h"
#include "output/csvout.h"
#include "profile/profile.h"
#include "profile/sysprof.h"
#include "findings/failed.h"
#include "lib/api.h"
#include "profile/sysprof_join.h"
#include "util/alloc.h"
#include "util/intern.h"
#include "views/profile_lines.h"

/* The header line, from the table the comparison reads the file by. */
static const char states_header[] =
#include "views/columns/csv_header.h"
#include "views/columns/profile_states_columns.def"
	"\r\n";

/* The header line, from the table the comparison reads the file by. */
static const char bushes_header[] =
#include "views/columns/csv_header.h"
#include "views/columns/profile_bushes_columns.def"
	"\r\n";

static void field_share(struct csv_row *r, uint64_t v, uint64_t total)
{
	char buf[32];
	csv_field(r, buf, (size_t)sj_percent(buf, sizeof(buf), v, total));
}

static void field_loc(struct csv_row *r, const char *file, int32_t line)
{
	char buf[4200];
	sj_loc(buf, sizeof(buf), file, line);
	csv_field_str(r, buf);
}

static void field_bush(struct csv_row *r, const struct sj_bush *b)
{
	char buf[32];
	if (b->dup > 1)
		snprintf(buf, sizeof(buf), "%u.%u", b->root, b->dup);
	else
		snprintf(buf, sizeof(buf), "%u", b->root);
	csv_field_str(r, buf);
}

static int write_states(struct view_ctx *c)
{
	const struct sysprof *p = c->sysprof;
	struct outfile *f = outfile_create(c->out, "profile-states.csv");
	FILE *fp = f ? outfile_fp(f) : NULL;
	if (!fp)
		return -1;
	fputs(states_header, fp);
	for (int s = 0; s < SP_STATES; s++) {
		struct csv_row r;
		csv_row_begin(&r, fp);
		csv_field_str(&r, sp_state_names[s]);
		csv_field_str(&r, vm_state_names[sp_state_jp(s)]);
		csv_field_u64(&r, p->state[s]);
		field_share(&r, p->state[s], p->samples);
		csv_row_end(&r);
	}
	return outfile_commit(f);
}

static void trace_row(FILE *fp, const struct sysprof_join *j, const struct sj_trace *x,
                      uint64_t total)
{
	struct csv_row r;
	csv_row_begin(&r, fp);
	csv_field_u64(&r, x->gen);
	csv_field_u64(&r, x->id);
	if (x->bush != UINT32_MAX)
		field_bush(&r, &j->bushes[x->bush]);
	else
		csv_field(&r, "", 0);
	field_loc(&r, x->file, x->line);
	csv_field_u64(&r, x->samples);
	field_share(&r, x->samples, total);
	csv_row_end(&r);
}

/* Every trace of the dump, most samples first, then those without in
 * dump order; then the records the dump lacks that took samples. */
static int write_traces(struct view_ctx *c)
{
	const struct sysprof *p = c->sysprof;
	const struct sysprof_join *j = c->join;
	struct outfile *f = outfile_create(c->out, "profile-traces.csv");
	FILE *fp = f ? outfile_fp(f) : NULL;
	if (!fp)
		return -1;
	fputs("GEN,TRACE,BUSH,START,SAMPLES,SHARE\r\n", fp);
	size_t n, *rank = sj_ranked_traces(j, &n);
	for (size_t i = 0; i < n; i++)
		trace_row(fp, j, &j->traces[rank[i]], p->samples);
	for (size_t k = 0; k < j->ntraces; k++)
		if (!j->traces[k].samples)
			trace_row(fp, j, &j->traces[k], p->samples);
	free(rank);
	/* records no trace of the dump matched: GEN and BUSH empty */
	char *matched = xrealloc(NULL, p->ntraces + 1);
	memset(matched, 0, p->ntraces + 1);
	for (size_t k = 0; k < j->ntraces; k++)
		if (j->traces[k].record != UINT32_MAX)
			matched[j->traces[k].record] = 1;
	for (size_t k = 0; k < p->ntraces; k++) {
		const struct sp_trace *t = &p->traces[k];
		if (matched[k] || !t->samples)
			continue;
		struct csv_row r;
		csv_row_begin(&r, fp);
		csv_field(&r, "", 0);
		csv_field_u64(&r, t->traceno);
		csv_field(&r, "", 0);
		field_loc(&r, t->file, t->line);
		csv_field_u64(&r, t->samples);
		field_share(&r, t->samples, p->samples);
		csv_row_end(&r);
	}
	free(matched);
	return outfile_commit(f);
}

static int write_bushes(struct view_ctx *c)
{
	const struct sysprof *p = c->sysprof;
	const struct sysprof_join *j = c->join;
	struct outfile *f = outfile_create(c->out, "profile-bushes.csv");
	FILE *fp = f ? outfile_fp(f) : NULL;
	if (!fp)
		return -1;
	fputs(bushes_header, fp);
	size_t n, *rank = sj_ranked_bushes(j, &n);
	char *listed = xrealloc(NULL, j->nbushes + 1);
	memset(listed, 0, j->nbushes + 1);
	for (size_t i = 0; i < n; i++)
		listed[rank[i]] = 1;
	for (size_t i = 0; i < j->nbushes; i++) {
		size_t b = i < n ? rank[i] : 0;
		if (i >= n) {   /* then those without samples, in dump order */
			while (listed[b])
				b++;
			listed[b] = 1;
		}
		const struct sj_bush *x = &j->bushes[b];
		struct csv_row r;
		csv_row_begin(&r, fp);
		csv_field_u64(&r, x->gen);
		field_bush(&r, x);
		csv_field_str(&r, x->kind);
		field_loc(&r, x->file, x->line);
		csv_field_u64(&r, x->ntraces);
		csv_field_u64(&r, x->samples);
		field_share(&r, x->samples, p->samples);
		/* the root's start line's text: the bush's identity for --compare */
		char fp12[13];
		if (x->file && api_line_fingerprint(c->dump, x->file, intern_len(x->file), x->line, fp12) == 0)
			csv_field(&r, fp12, 12);
		else
			csv_field(&r, "", 0);
		csv_row_end(&r);
	}
	free(listed);
	free(rank);
	return outfile_commit(f);
}

static int write_functions(struct view_ctx *c)
{
	const struct sysprof *p = c->sysprof;
	struct outfile *f = outfile_create(c->out, "profile-functions.csv");
	FILE *fp = f ? outfile_fp(f) : NULL;
	if (!fp)
		return -1;
	fputs("FILE,LINE,INTERPRETED,C,ON_STACK,SHARE\r\n", fp);
	size_t n;
	const struct sp_func *fn = sysprof_functions(p, &n);
	for (size_t i = 0; i < n; i++) {
		struct csv_row r;
		csv_row_begin(&r, fp);
		csv_field(&r, fn[i].file, intern_len(fn[i].file));
		if (fn[i].line < 0)
			csv_field(&r, "", 0);
		else
			csv_field_i64(&r, fn[i].line);
		csv_field_u64(&r, fn[i].interpreted);
		csv_field_u64(&r, fn[i].c);
		csv_field_u64(&r, fn[i].on_stack);
		field_share(&r, fn[i].interpreted, p->samples);
		csv_row_end(&r);
	}
	return outfile_commit(f);
}

/* profile-callees-sysprof.csv: profile-callees.csv's columns, the
 * callers being functions (LINE: defining line). */
static int write_callees(struct view_ctx *c)
{
	struct callees cal;
	failed_callees_sysprof(&cal, api_findings(c->dump), c->sysprof);
	int r = profile_callees_csv(c, "profile-callees-sysprof.csv", &cal);
	callees_free(&cal);
	return r;
}

static int sysprof_finish(struct view_ctx *c)
{
	struct answers *a = c->state;
	int r = 0;
	if (c->out && c->sysprof && a->ngens) {
		r = write_states(c);
		if (r == 0)
			r = write_traces(c);
		if (r == 0)
			r = write_bushes(c);
		if (r == 0)
			r = write_functions(c);
		if (r == 0)
			r = write_callees(c);
	}
	answers_free(a);
	return r;
}

const struct view view_sysprof = {
	.name = "sysprof",
	.files = "profile-states.csv profile-traces.csv profile-bushes.csv profile-functions.csv "
	         "profile-callees-sysprof.csv",
	.needs = NEEDS_SYSPROF | NEEDS_FINDINGS,
	.is_default = 0,
	.state_size = sizeof(struct answers),
	.trace = answers_view_trace,
	.abort = answers_view_abort,
	.gen_end = answers_view_gen_end,
	.finish = sysprof_finish,
};
