/* merge_findings.c — the findings of several dumps (one per worker, say)
 * matched by identity, as a run set's are (runset_read.c reads each
 * dump's findings.csv), for the summary of several dumps: in how many
 * dumps each appears, its attempts and the samples each dump's own
 * profile charged to it, summed. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/merge.h"
#include "compare/runfile.h"
#include "cli/runset_impl.h"
#include "output/termtext.h"
#include "util/alloc.h"

#define SHOWN 10

int merge_findings_read(struct merge_findings *mf, const struct runfile_dir *top,
                        const char *const *names, const int *status, size_t n)
{
	struct rs_set *s = xrealloc(NULL, sizeof(*s));
	memset(s, 0, sizeof(*s));
	/* A worker's dump often ends inside a trace (the worker was
	 * stopped): its findings count all the same; --views may leave
	 * findings.csv out. */
	s->several = 1;
	s->ndumps = n;
	s->dumps = xrealloc(NULL, n * sizeof(*s->dumps));
	memset(s->dumps, 0, n * sizeof(*s->dumps));
	for (size_t i = 0; i < n; i++) {
		s->dumps[i].dir = rs_strdup(names[i]);
		s->dumps[i].status = status[i];
	}
	mf->set = s;
	if (rs_read_runs(s, top) < 0)
		return -1;
	for (size_t i = 0; i < s->nf; i++)
		s->f[i].samples_total = (uint64_t)(s->f[i].own_samples + 0.5);
	rs_rank(s);
	return 0;
}

void merge_findings_write(const struct merge_findings *mf, FILE *fp, size_t ndumps)
{
	const struct rs_set *s = mf->set;
	size_t failed = 0, shown = 0, profiled = 0;
	for (size_t i = 0; i < s->nf; i++) {
		failed += s->f[i].failed;
		profiled += s->f[i].own_profiled;
	}
	if (!s->findings_read) {
		fprintf(fp, "\nfindings of all dumps: none read (no dump rendered the findings view)\n");
		return;
	}
	fprintf(fp, "\nfindings of all dumps, matched by identity (%zu, %zu not usually harmless; "
	        "each dump's findings.csv has its own)\n", s->nf, failed);
	if (!failed)
		fprintf(fp, "  (none that is not usually harmless)\n");
	for (size_t i = 0; i < s->nf && shown < SHOWN; i++) {
		const struct rs_finding *f = &s->f[i];
		if (!f->failed)
			continue;
		shown++;
		fprintf(fp, "  %-3zu ", shown);
		term_puts(fp, f->file);
		if (f->end_line > f->line)
			fprintf(fp, ":%" PRId32 "-%" PRId32 "  ", f->line, f->end_line);
		else
			fprintf(fp, ":%" PRId32 "  ", f->line);
		term_puts(fp, f->kind);
		fputs(", ", fp);
		term_puts(fp, f->severity);
		fputs(": ", fp);
		term_puts(fp, f->reason);
		fprintf(fp, "; in %u of %zu dumps, %" PRIu64 " attempts", f->seen, ndumps, f->attempts);
		if (profiled)
			fprintf(fp, ", %.0f samples", f->own_samples);
		fputc('\n', fp);
	}
	if (failed > shown)
		fprintf(fp, "  \u2026 %zu more not usually harmless in the dumps' findings.csv\n",
		        failed - shown);
	if (profiled)
		fprintf(fp, "  (samples: the interpreted samples each dump's own profile charged to it, "
		        "summed)\n");
}

void merge_findings_free(struct merge_findings *mf)
{
	if (mf->set) {
		rs_free(mf->set);
		free(mf->set);
	}
	mf->set = NULL;
}
