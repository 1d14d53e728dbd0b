/* runset_write.c — a run set's own files at the top of OUT: runs.csv (the
 * runs and profiles, with their samples), findings.csv (the findings
 * matched across runs: presence, pooled attempts, cost median and range),
 * findings-runs.csv (which run saw each finding, and each profile's
 * samples of it: what --compare tests) and summary.txt. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "cli/runset_impl.h"
#include "outdir/outdir.h"
#include "output/csvout.h"

/* The header line, from the table the comparison reads the file by. */
static const char runs_header[] =
#include "views/columns/csv_header.h"
#include "compare/runs_columns.def"
	"\n";

/* The header line, from the table the comparison reads the file by. */
static const char findings_header[] =
#include "views/columns/csv_header.h"
#include "compare/runset_findings_columns.def"
	"\n";

/* The header line, from the table the comparison reads the file by. */
static const char per_run_header[] =
#include "views/columns/csv_header.h"
#include "compare/findings_runs_columns.def"
	"\n";

static void field_share(struct csv_row *r, double v)
{
	char b[32];
	if (v < 0) {
		csv_field_str(r, "");
		return;
	}
	snprintf(b, sizeof(b), "%.2f", v);
	csv_field_str(r, b);
}

static int write_runs(const struct rs_set *s, struct outdir *out)
{
	struct outfile *f = outfile_create(out, "runs.csv");
	if (!f)
		return -1;
	FILE *fp = outfile_fp(f);
	fputs(runs_header, fp);
	struct csv_row r;
	for (size_t k = 0; k < s->ndumps; k++) {
		csv_row_begin(&r, fp);
		csv_field_u64(&r, k + 1);
		csv_field_str(&r, "dump");
		csv_field_str(&r, s->dumps[k].path);
		csv_field_str(&r, rs_dump_status(&s->dumps[k]));
		csv_field_str(&r, "");
		csv_field_str(&r, "");
		csv_field_str(&r, "");
		csv_row_end(&r);
	}
	for (size_t k = 0; k < s->nprofiles; k++) {
		const struct rs_profile *p = &s->profiles[k];
		csv_row_begin(&r, fp);
		csv_field_u64(&r, k + 1);
		csv_field_str(&r, "profile");
		csv_field_str(&r, p->path);
		csv_field_str(&r, rs_profile_status(p));
		csv_field_u64(&r, p->total);
		if (p->states)
			csv_field_u64(&r, p->interpreted);
		else
			csv_field_str(&r, "");
		csv_field_u64(&r, p->charged);
		csv_row_end(&r);
	}
	return outfile_commit(f);
}

static int write_findings(const struct rs_set *s, struct outdir *out)
{
	struct outfile *f = outfile_create(out, "findings.csv");
	if (!f)
		return -1;
	FILE *fp = outfile_fp(f);
	fputs(findings_header, fp);
	size_t runs = rs_usable_runs(s), profiles = rs_usable_profiles(s);
	struct csv_row r;
	for (size_t i = 0; i < s->nf; i++) {
		const struct rs_finding *x = &s->f[i];
		csv_row_begin(&r, fp);
		csv_field_u64(&r, i + 1);
		csv_field_str(&r, x->kind);
		csv_field_str(&r, x->file);
		csv_field_i64(&r, x->line);
		csv_field_i64(&r, x->end_line);
		csv_field_str(&r, x->reason);
		csv_field_str(&r, x->severity);
		csv_field_str(&r, x->rule);
		csv_field_str(&r, x->id);
		csv_field_str(&r, x->at_file ? x->at_file : "");
		if (x->at_line > 0)
			csv_field_i64(&r, x->at_line);
		else
			csv_field_str(&r, "");
		csv_field_u64(&r, x->seen);
		csv_field_u64(&r, runs);
		csv_field_str(&r, rs_stable(x->seen, runs) ? "yes" : "unstable");
		csv_field_u64(&r, x->attempts);
		csv_field_u64(&r, profiles);
		if (profiles)
			csv_field_u64(&r, x->samples_total);
		else
			csv_field_str(&r, "");
		field_share(&r, x->share_med);
		field_share(&r, x->share_low);
		field_share(&r, x->share_high);
		csv_field_str(&r, x->identity);
		csv_field_str(&r, x->advice);
		csv_field_str(&r, x->path);
		csv_row_end(&r);
	}
	return outfile_commit(f);
}

static int write_per_run(const struct rs_set *s, struct outdir *out)
{
	struct outfile *f = outfile_create(out, "findings-runs.csv");
	if (!f)
		return -1;
	FILE *fp = outfile_fp(f);
	fputs(per_run_header, fp);
	struct csv_row r;
	for (size_t i = 0; i < s->nf; i++) {
		const struct rs_finding *x = &s->f[i];
		for (size_t k = 0; k < s->ndumps; k++) {
			if (!x->in_run[k])
				continue;
			csv_row_begin(&r, fp);
			csv_field_str(&r, x->identity);
			csv_field_str(&r, "dump");
			csv_field_u64(&r, k + 1);
			csv_field_str(&r, "");
			csv_row_end(&r);
		}
		for (size_t k = 0; k < s->nprofiles; k++) {
			if (!x->samples[k])
				continue;
			csv_row_begin(&r, fp);
			csv_field_str(&r, x->identity);
			csv_field_str(&r, "profile");
			csv_field_u64(&r, k + 1);
			csv_field_u64(&r, x->samples[k]);
			csv_row_end(&r);
		}
	}
	return outfile_commit(f);
}

int rs_write(const struct rs_set *s, struct outdir *out)
{
	if (write_runs(s, out) < 0 || write_findings(s, out) < 0 || write_per_run(s, out) < 0)
		return -1;
	return rs_write_summary(s, out);
}
