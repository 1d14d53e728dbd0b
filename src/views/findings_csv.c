/* findings_csv.c — findings.csv: the library's ranked findings (da_findings),
 * one row each, best first: what to fix first, where, why, what it costs
 * and what to do.  The view only writes the list; every judgment in it is
 * the library's (src/findings/). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "lib/api.h"
#include "views/view.h"
#include "views/findings_views.h"
#include "views/where.h"
#include "outdir/outdir.h"
#include "output/csvout.h"
#include "util/intern.h"

/* The header line, from the table the comparison reads the file by. */
static const char findings_header[] =
#include "views/columns/csv_header.h"
#include "views/columns/findings_columns.def"
	"\r\n";

static void field_str(struct csv_row *r, const char *s)
{
	csv_field(r, s ? s : "", s ? strlen(s) : 0);
}

static void field_line(struct csv_row *r, int32_t line)
{
	if (line == DA_NO_LINE)
		csv_field(r, "", 0);
	else
		csv_field_i64(r, line);
}

void findings_put_samples(char *buf, size_t n, const struct da_profile_totals *t, uint64_t v)
{
	if (t && t->percent)
		snprintf(buf, n, "%" PRIu64 ".%02" PRIu64, v / 100, v % 100);
	else
		snprintf(buf, n, "%" PRIu64, v);
}

static void field_samples(struct csv_row *r, const struct da_profile_totals *t, uint64_t v)
{
	char buf[32];
	if (!t) {
		csv_field(r, "", 0);
		return;
	}
	findings_put_samples(buf, sizeof(buf), t, v);
	csv_field_str(r, buf);
}

/* "2 NYI: bytecode UCLO; 1 leaving loop in root trace": the reasons
 * after the main one. */
static void field_others(struct csv_row *r, const struct da_finding *f)
{
	char buf[1024];
	size_t k = 0;
	buf[0] = '\0';
	for (uint32_t i = 1; i < f->nreasons && k < sizeof(buf) - 1; i++) {
		int n = snprintf(buf + k, sizeof(buf) - k, "%s%" PRIu64 " %s", i > 1 ? "; " : "",
		                 f->reasons[i].count, f->reasons[i].reason);
		if (n < 0)
			break;
		k += (size_t)n;
	}
	if (k >= sizeof(buf))
		k = sizeof(buf) - 1;
	csv_field(r, buf, k);
}

static int findings_finish(struct view_ctx *c)
{
	if (!c->out || !da_generations(c->dump))
		return 0;
	struct outfile *out = outfile_create(c->out, "findings.csv");
	FILE *fp = out ? outfile_fp(out) : NULL;
	if (!fp)
		return -1;
	const struct da_profile_totals *t = da_profile_totals(c->dump);
	/* PATH: the file as the tools that place findings see it (where.h) */
	struct where_map m;
	where_init(&m, api_source_finder(c->dump), c->source_roots, c->nsource_roots);
	fputs(findings_header, fp);
	size_t n = da_findings(c->dump);
	for (size_t i = 0; i < n; i++) {
		const struct da_finding *f = da_finding(c->dump, i);
		struct csv_row r;
		csv_row_begin(&r, fp);
		csv_field_u64(&r, f->rank);
		field_str(&r, f->kind_word);
		field_str(&r, f->file);
		field_line(&r, f->line);
		field_line(&r, f->end_line);
		field_str(&r, f->cause_file);
		field_line(&r, f->cause_line);
		field_str(&r, f->reason);
		field_str(&r, f->error);
		field_str(&r, f->level_word);
		csv_field_u64(&r, f->attempts);
		field_samples(&r, t, f->samples);
		if (t) {
			char share[32];
			snprintf(share, sizeof(share), "%.2f", f->share);
			csv_field_str(&r, share);
		} else {
			csv_field(&r, "", 0);
		}
		field_str(&r, f->basis_word);
		field_str(&r, f->id);
		field_str(&r, f->advice);
		field_str(&r, f->rule);
		field_str(&r, f->at_file);
		field_line(&r, f->at_line);
		csv_field_u64(&r, f->reason_attempts);
		field_others(&r, f);
		csv_field_u64(&r, f->blacklisted_gens);
		csv_field_u64(&r, f->traces);
		csv_field_u64(&r, f->count);
		csv_field_u64(&r, f->score);
		for (int s = DA_VM_COMPILED; s < DA_VM_STATES; s++)
			field_samples(&r, t && t->states ? t : NULL, f->state_samples[s]);
		field_str(&r, f->bytecode);
		if (f->dump_line)
			csv_field_u64(&r, f->dump_line);
		else
			csv_field(&r, "", 0);
		char gens[32] = "";
		if (f->gen_first)
			snprintf(gens, sizeof(gens), f->gen_last > f->gen_first ? "%u-%u" : "%u",
			         f->gen_first, f->gen_last);
		csv_field_str(&r, gens);
		csv_field_u64(&r, f->order);
		field_str(&r, f->identity);
		if (f->same_cause)
			csv_field_u64(&r, f->same_cause);
		else
			csv_field(&r, "", 0);
		field_str(&r, f->baseline_reason ? "yes" : NULL);
		field_str(&r, f->baseline_reason);
		field_str(&r, f->extent_word);
		field_str(&r, f->profile);
		struct where w = where_of(&m, f->file, f->line);
		field_str(&r, w.kind == WHERE_FILE ? w.path : NULL);
		csv_row_end(&r);
	}
	where_free(&m);
	return outfile_commit(out);
}

const struct view view_findings = {
	.name = "findings",
	.files = "findings.csv",
	.needs = NEEDS_FINDINGS,
	.is_default = 1,
	.finish = findings_finish,
};
