/* runset_summary.c — a run set's summary.txt: on how many runs and
 * profiles it rests, where the time went (each share with its samples),
 * what to fix first with its presence and cost range, the unstable
 * findings, and the warnings (also on standard error). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/runset_impl.h"
#include "outdir/outdir.h"
#include "output/termtext.h"
#include "util/alloc.h"

#define SUMMARY_TOP 10

static const char *base(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

void rs_warnings(const struct rs_set *s, FILE *fp, const char *prefix)
{
	for (size_t k = 0; k < s->ndumps; k++)
		if (s->dumps[k].cut_short)
			fprintf(fp, "%srun %zu (%s): its dump ends inside %" PRIu64 " trace%s (cut short?): "
			        "left out of the set; record it again\n", prefix, k + 1,
			        base(s->dumps[k].path), s->dumps[k].incomplete,
			        s->dumps[k].incomplete == 1 ? "" : "s");
	for (size_t k = 0; k < s->nprofiles; k++) {
		const struct rs_profile *p = &s->profiles[k];
		if (!p->ok)
			fprintf(fp, "%sprofile %zu (%s): percentages without sample counts: left out; "
			        "record it with -jp=Gvli1\n", prefix, k + 1, base(p->path));
		else if (p->total < RUNSET_MIN_SAMPLES)
			fprintf(fp, "%sonly %" PRIu64 " samples: profile %zu (%s) is too small to rank by "
			        "(%d at least): run the workload longer or sample more often (-jp=Gvli1)\n",
			        prefix, p->total, k + 1, base(p->path), RUNSET_MIN_SAMPLES);
	}
	if (s->ndumps < 3)
		fprintf(fp, "%s%zu run%s: too few to tell what LuaJIT does every time from what it "
		        "did once: record 5\n", prefix, s->ndumps, s->ndumps == 1 ? "" : "s");
}

static void share_line(FILE *fp, const struct rs_finding *f, size_t profiles)
{
	if (!profiles || f->share_med < 0) {
		fputs("no profile", fp);
		return;
	}
	fprintf(fp, "%.1f%% median, %.1f-%.1f%% (%" PRIu64 " samples in %zu profile%s)",
	        f->share_med, f->share_low, f->share_high, f->samples_total, profiles,
	        profiles == 1 ? "" : "s");
}

static void finding_line(FILE *fp, size_t rank, const struct rs_finding *f, size_t runs,
                         size_t profiles)
{
	char *file = term_text(f->file), *reason = term_text(f->reason);
	fprintf(fp, "  %-3zu %s:%" PRId32 "  %s, %s", rank, file, f->line, reason, f->severity);
	if (f->at_line > 0 && f->at_file && *f->at_file) {
		char *at = term_text(f->at_file);
		fprintf(fp, ", at %s:%" PRId32, at, f->at_line);
		free(at);
	}
	fprintf(fp, ": runs %u/%zu, cost ", f->seen, runs);
	share_line(fp, f, profiles);
	fputc('\n', fp);
	free(file);
	free(reason);
}

static void time_part(FILE *fp, const struct rs_set *s)
{
	double *v = xrealloc(NULL, (s->nprofiles + 1) * sizeof(*v));
	size_t n = 0;
	uint64_t all = 0, interp = 0;
	fputs("\nwhere the time went (each profile run)\n", fp);
	for (size_t k = 0; k < s->nprofiles; k++) {
		const struct rs_profile *p = &s->profiles[k];
		fprintf(fp, "  profile %-3zu %8" PRIu64 " samples", k + 1, p->total);
		if (p->ok && p->states && p->total) {
			double sh = 100.0 * (double)p->interpreted / (double)p->total;
			fprintf(fp, "  interpreted %5.1f%% (%" PRIu64 ")", sh, p->interpreted);
			if (!p->foreign) {
				v[n++] = sh;
				all += p->total;
				interp += p->interpreted;
			}
		}
		fprintf(fp, "  charged to findings %" PRIu64 "\n", p->charged);
	}
	if (n) {
		double med, low, high;
		rs_median(v, n, &med, &low, &high);
		fprintf(fp, "  interpreted: median %.1f%%, %.1f-%.1f%% over %zu profiles "
		        "(%" PRIu64 " of %" PRIu64 " samples)\n", med, low, high, n, interp, all);
	}
	free(v);
}

int rs_write_summary(const struct rs_set *s, struct outdir *out)
{
	struct outfile *of = outfile_create(out, "summary.txt");
	if (!of)
		return -1;
	FILE *fp = outfile_fp(of);
	size_t runs = rs_usable_runs(s), profiles = rs_usable_profiles(s);
	fprintf(fp, "dumpanalyze summary of a run set: %zu run%s, %zu profile%s\n", runs,
	        runs == 1 ? "" : "s", profiles, profiles == 1 ? "" : "s");
	fputs("  (each run's own files in run-K/; findings.csv matches findings across runs)\n", fp);
	char buf[4096];
	FILE *w = fmemopen(buf, sizeof(buf), "w");
	if (w) {
		rs_warnings(s, w, "  warning: ");
		long n = ftell(w);
		fclose(w);
		if (n > 0) {
			fputs("\nwarnings\n", fp);
			fwrite(buf, 1, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1, fp);
		}
	}
	if (s->nprofiles)
		time_part(fp, s);
	fprintf(fp, "\nfix these first (failed findings seen in most of the %zu runs, by pooled "
	        "samples%s)\n", runs, profiles ? "" : "; give profiles to rank by cost");
	size_t shown = 0;
	for (size_t i = 0; i < s->nf && shown < SUMMARY_TOP; i++)
		if (s->f[i].failed && rs_stable(s->f[i].seen, runs))
			finding_line(fp, ++shown, &s->f[i], runs, profiles);
	if (!shown)
		fputs("  none\n", fp);
	size_t unstable = 0;
	for (size_t i = 0; i < s->nf; i++)
		unstable += !rs_stable(s->f[i].seen, runs);
	if (unstable) {
		fprintf(fp, "\nunstable (%zu finding%s seen in fewer than half of the runs: LuaJIT "
		        "decided differently; findings.csv has them all)\n", unstable,
		        unstable == 1 ? "" : "s");
		shown = 0;
		for (size_t i = 0; i < s->nf && shown < SUMMARY_TOP; i++)
			if (!rs_stable(s->f[i].seen, runs))
				finding_line(fp, ++shown, &s->f[i], runs, profiles);
	}
	return outfile_commit(of);
}
