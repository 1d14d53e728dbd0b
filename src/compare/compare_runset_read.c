/* compare_runset_read.c — one side of a run-set comparison read back from
 * its directory, trusting nothing (csvin): a run set's runs.csv,
 * findings.csv and findings-runs.csv, or a plain one-run directory's
 * findings.csv as a set of one run without profiles. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/compare_runset.h"
#include "compare/csvin.h"
#include "compare/runfile.h"
#include "luajit/explain.h"
#include "output/message.h"
#include "util/alloc.h"

/* runs.csv: first pass counts the runs, second fills them. */
struct runs_ctx {
	struct rs_set *s;
	int fill;
};

static int runs_row(void *ctx, const struct csvin *c)
{
	struct runs_ctx *x = ctx;
	struct rs_set *s = x->s;
	const char *kind = csvin_text(c, CSVIN_RSRUNS_KIND), *st = csvin_text(c, CSVIN_RSRUNS_STATUS);
	uint64_t k = csvin_count(c, CSVIN_RSRUNS_RUN);
	int dump = strcmp(kind, "dump") == 0;
	if (!dump && strcmp(kind, "profile") != 0) {
		msg_error("%s: row %llu: KIND is neither dump nor profile", c->shown,
		          (unsigned long long)c->row);
		return -1;
	}
	size_t *n = dump ? &s->ndumps : &s->nprofiles;
	if (!x->fill) {
		if (k != *n + 1 || k > 1000) {
			msg_error("%s: row %llu: run %llu out of order (runs are numbered 1, 2, ...)",
			          c->shown, (unsigned long long)c->row, (unsigned long long)k);
			return -1;
		}
		(*n)++;
		return 0;
	}
	if (dump) {
		struct rs_dump *d = &s->dumps[k - 1];
		d->path = rs_strdup(csvin_text(c, CSVIN_RSRUNS_FILE));
		/* only the runs its analysis counted count here */
		d->status = strcmp(st, "ok") == 0 ? 0 : 2;
		return 0;
	}
	struct rs_profile *p = &s->profiles[k - 1];
	double total = csvin_amount(c, CSVIN_RSRUNS_SAMPLES), in = csvin_amount(c, CSVIN_RSRUNS_INTERPRETED);
	p->path = rs_strdup(csvin_text(c, CSVIN_RSRUNS_FILE));
	p->ok = strcmp(st, "ok") == 0 || strcmp(st, "too-few-samples") == 0;
	p->total = total > 0 ? (uint64_t)total : 0;
	p->states = in >= 0;
	p->interpreted = in > 0 ? (uint64_t)in : 0;
	if (p->interpreted > p->total) {
		msg_error("%s: row %llu: INTERPRETED is more than SAMPLES", c->shown,
		          (unsigned long long)c->row);
		return -1;
	}
	return 0;
}

static int find_row(void *ctx, const struct csvin *c)
{
	struct rs_set *s = ctx;
	const char *id = csvin_text(c, CSVIN_RSFIND_IDENTITY);
	if (rs_find(s, id, 0)) {
		msg_error("%s: row %llu: IDENTITY given twice", c->shown, (unsigned long long)c->row);
		return -1;
	}
	struct rs_finding *f = rs_find(s, id, 1);
	f->kind = rs_strdup(csvin_text(c, CSVIN_RSFIND_KIND));
	f->file = rs_strdup(csvin_text(c, CSVIN_RSFIND_FILE));
	f->reason = rs_strdup(csvin_text(c, CSVIN_RSFIND_REASON));
	f->severity = rs_strdup(csvin_text(c, CSVIN_RSFIND_SEVERITY));
	f->rule = rs_strdup(csvin_text(c, CSVIN_RSFIND_RULE));
	f->id = rs_strdup(csvin_text(c, CSVIN_RSFIND_ID));
	f->advice = rs_strdup(csvin_text(c, CSVIN_RSFIND_ADVICE));
	f->path = rs_strdup(csvin_text(c, CSVIN_RSFIND_PATH));
	f->at_file = rs_strdup(csvin_text(c, CSVIN_RSFIND_AT_FILE));
	f->at_line = (int32_t)csvin_count(c, CSVIN_RSFIND_AT_LINE);
	f->line = (int32_t)csvin_count(c, CSVIN_RSFIND_LINE);
	f->end_line = (int32_t)csvin_count(c, CSVIN_RSFIND_END_LINE);
	f->attempts = csvin_count(c, CSVIN_RSFIND_ATTEMPTS);
	f->failed = explain_severity_parse(f->severity) != EXPLAIN_HARMLESS;
	return 0;
}

static int per_row(void *ctx, const struct csvin *c)
{
	struct rs_set *s = ctx;
	struct rs_finding *f = rs_find(s, csvin_text(c, CSVIN_RSPER_IDENTITY), 0);
	const char *kind = csvin_text(c, CSVIN_RSPER_KIND);
	uint64_t k = csvin_count(c, CSVIN_RSPER_RUN);
	int dump = strcmp(kind, "dump") == 0;
	size_t n = dump ? s->ndumps : s->nprofiles;
	if (!f || (!dump && strcmp(kind, "profile") != 0) || k < 1 || k > n) {
		msg_error("%s: row %llu: %s", c->shown, (unsigned long long)c->row,
		          !f ? "a finding findings.csv does not have" : k < 1 || k > n
		          ? "a run runs.csv does not have" : "KIND is neither dump nor profile");
		return -1;
	}
	if (dump) {
		if (!f->in_run[k - 1] && s->dumps[k - 1].status == 0)
			f->seen++;
		f->in_run[k - 1] = 1;
	} else {
		double v = csvin_amount(c, CSVIN_RSPER_SAMPLES);
		f->samples[k - 1] = v > 0 ? (uint64_t)v : 0;
		if (f->samples[k - 1] > s->profiles[k - 1].total) {
			msg_error("%s: row %llu: more samples than the profile has", c->shown,
			          (unsigned long long)c->row);
			return -1;
		}
	}
	return 0;
}

/* What a findings.csv row says of its finding, the first time a run set
 * meets it (the analysis of a run set and --compare read it alike). */
void rs_finding_describe(struct rs_finding *f, const struct csvin *c)
{
	f->kind = rs_strdup(csvin_text(c, CSVIN_FINDINGS_KIND));
	f->file = rs_strdup(csvin_text(c, CSVIN_FINDINGS_FILE));
	f->reason = rs_strdup(csvin_text(c, CSVIN_FINDINGS_REASON));
	f->severity = rs_strdup(csvin_text(c, CSVIN_FINDINGS_SEVERITY));
	f->rule = rs_strdup(csvin_text(c, CSVIN_FINDINGS_RULE));
	f->id = rs_strdup(csvin_text(c, CSVIN_FINDINGS_ID));
	f->advice = rs_strdup(csvin_text(c, CSVIN_FINDINGS_ADVICE));
	f->path = rs_strdup(csvin_text(c, CSVIN_FINDINGS_PATH));
	f->at_file = rs_strdup(csvin_text(c, CSVIN_FINDINGS_AT_FILE));
	f->at_line = (int32_t)csvin_count(c, CSVIN_FINDINGS_AT_LINE);
	f->line = (int32_t)csvin_count(c, CSVIN_FINDINGS_LINE);
	f->end_line = (int32_t)csvin_count(c, CSVIN_FINDINGS_END_LINE);
	f->failed = explain_severity_parse(f->severity) != EXPLAIN_HARMLESS;
}

/* A plain directory's findings.csv: one run. */
static int plain_row(void *ctx, const struct csvin *c)
{
	struct rs_set *s = ctx;
	struct rs_finding *f = rs_find(s, csvin_text(c, CSVIN_FINDINGS_IDENTITY), 1);
	if (f->kind)
		return 0;
	rs_finding_describe(f, c);
	f->attempts = csvin_count(c, CSVIN_FINDINGS_ATTEMPTS);
	f->in_run[0] = 1;
	f->seen = 1;
	return 0;
}

int crs_is_runset(const char *dir)
{
	struct runfile_dir d;
	if (runfile_dir_open(&d, NULL, dir) != 0) {
		runfile_dir_free(&d);
		return 0;
	}
	struct runfile f;
	int r = runfile_open(&f, &d, "runs.csv", RUNFILE_MAX, 1);
	runfile_close(&f);      /* whatever it returned: its name is kept */
	runfile_dir_free(&d);
	return r == 0;
}

static void shares(struct rs_set *s)
{
	double *v = xrealloc(NULL, (s->nprofiles + 1) * sizeof(*v));
	for (size_t i = 0; i < s->nf; i++) {
		struct rs_finding *f = &s->f[i];
		size_t n = 0;
		f->samples_total = 0;
		for (size_t k = 0; k < s->nprofiles; k++)
			if (s->profiles[k].ok && s->profiles[k].total) {
				f->samples_total += f->samples[k];
				v[n++] = 100.0 * (double)f->samples[k] / (double)s->profiles[k].total;
			}
		rs_median(v, n, &f->share_med, &f->share_low, &f->share_high);
	}
	free(v);
}

int crs_read_side(struct rs_set *s, const char *dir, int *plain)
{
	memset(s, 0, sizeof(*s));
	struct runfile_dir d;
	int r = runfile_dir_open(&d, NULL, dir);
	if (r != 0) {
		if (r > 0)
			msg_error("%s: no such directory", dir);
		return -1;
	}
	*plain = !crs_is_runset(dir);
	if (*plain) {
		s->ndumps = 1;
		s->dumps = xrealloc(NULL, sizeof(*s->dumps));
		memset(s->dumps, 0, sizeof(*s->dumps));
		s->dumps[0].path = rs_strdup(dir);
		struct csvin_reader rd = { NULL, plain_row, s };
		r = csvin_read(&d, "findings.csv", CSVIN_FINDINGS, 0, &rd);
		runfile_dir_free(&d);
		return r < 0 ? -1 : 0;
	}
	struct runs_ctx x = { s, 0 };
	struct csvin_reader rd = { NULL, runs_row, &x };
	r = csvin_read(&d, "runs.csv", CSVIN_RSRUNS, 0, &rd);
	if (r >= 0) {
		s->dumps = xrealloc(NULL, (s->ndumps + 1) * sizeof(*s->dumps));
		memset(s->dumps, 0, (s->ndumps + 1) * sizeof(*s->dumps));
		s->profiles = xrealloc(NULL, (s->nprofiles + 1) * sizeof(*s->profiles));
		memset(s->profiles, 0, (s->nprofiles + 1) * sizeof(*s->profiles));
		size_t nd = s->ndumps, np = s->nprofiles;
		x.fill = 1;
		r = csvin_read(&d, "runs.csv", CSVIN_RSRUNS, 0, &rd);
		s->ndumps = nd;
		s->nprofiles = np;
	}
	if (r >= 0 && s->ndumps == 0) {
		msg_error("%s/runs.csv: no dump run", d.shown);
		r = -1;
	}
	struct csvin_reader frd = { NULL, find_row, s };
	if (r >= 0)
		r = csvin_read(&d, "findings.csv", CSVIN_RSFIND, 0, &frd);
	struct csvin_reader prd = { NULL, per_row, s };
	if (r >= 0)
		r = csvin_read(&d, "findings-runs.csv", CSVIN_RSPER, 0, &prd);
	runfile_dir_free(&d);
	if (r < 0)
		return -1;
	shares(s);
	return 0;
}
