/* summary_time.c — summary.txt's "time per trace" part, with a sysprof
 * profile: where the samples went by VM state, the bushes and traces that
 * took most of them, the Lua functions interpreted most, and how well the
 * profile's trace records met the dump's traces. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "profile/profile.h"
#include "profile/sysprof.h"
#include "findings/failed.h"
#include "profile/sysprof_join.h"
#include "views/summary_time.h"
#include "output/termtext.h"

#define TOP 10

static double pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0;
}

static void put_loc(FILE *fp, const char *file, int32_t line)
{
	char buf[4200];
	sj_loc(buf, sizeof(buf), file, line);
	term_puts(fp, buf);
}

static void put_bush_name(FILE *fp, const struct sj_bush *b)
{
	if (b->dup > 1)
		fprintf(fp, "%u.%u", b->root, b->dup);
	else
		fprintf(fp, "%u", b->root);
}

/* The top callers of failed code (profile/callees.h) under heading, and
 * how many more FILE has. */
static void put_callee_rows(FILE *fp, const struct callees *cal, const char *heading,
                            const char *file)
{
	for (size_t i = 0; i < cal->n && i < TOP; i++) {
		const struct callee_row *r = &cal->rows[i];
		if (!i)
			fprintf(fp, "  %s\n", heading);
		fputs("    ", fp);
		term_putn(fp, r->file, r->file_len);
		fprintf(fp, ":%d: %" PRIu64 " %s in callees that failed to compile (", r->line,
		        r->samples, cal->interpreted ? "interpreted samples" : "samples");
		term_puts(fp, r->callee->reason);
		fputs(", ", fp);
		term_putn(fp, r->callee->file, r->callee->file_len);
		fprintf(fp, ":%d)\n", r->callee->line);
	}
	if (cal->n > TOP)
		fprintf(fp, "    \u2026 %zu more in %s\n", cal->n - TOP, file);
}

/* Callers of failed code, from sysprof's Lua stacks. */
static void put_callees(FILE *fp, const struct findings *f, const struct sysprof *p)
{
	struct callees cal;
	failed_callees_sysprof(&cal, f, p);
	put_callee_rows(fp, &cal, "and up the call stack (Lua stacks; functions by defining line):",
	                    "profile-callees-sysprof.csv");
	callees_free(&cal);
}

void summary_write_time(FILE *fp, const struct findings *f, const struct sysprof *p,
                        const struct sysprof_join *j)
{
	uint64_t jp[VM_STATES], total = p->samples;
	sysprof_jp_states(p, jp);
	fputs("\ntime per trace (sysprof ", fp);
	term_puts(fp, p->path);
	fprintf(fp, ": %" PRIu64 " samples)\n", total);
	fprintf(fp, "  compiled %.1f%%  interpreted %.1f%%  C %.1f%%  GC %.1f%%  JIT %.1f%%\n",
	        pct(jp[VM_COMPILED], total), pct(jp[VM_INTERPRETED], total), pct(jp[VM_C], total),
	        pct(jp[VM_GC], total), pct(jp[VM_JIT], total));

	size_t n, *rank = sj_ranked_bushes(j, &n);
	if (n)
		fputs("  bushes by time (profile-bushes.csv):\n", fp);
	for (size_t i = 0; i < n && i < TOP; i++) {
		const struct sj_bush *b = &j->bushes[rank[i]];
		fprintf(fp, "  %5.1f%%  gen %u bush ", pct(b->samples, total), b->gen);
		put_bush_name(fp, b);
		fprintf(fp, "  %s ", b->kind);
		put_loc(fp, b->file, b->line);
		fprintf(fp, "  %u trace%s\n", b->ntraces, b->ntraces == 1 ? "" : "s");
	}
	if (n > TOP)
		fprintf(fp, "    \u2026 %zu more in profile-bushes.csv\n", n - TOP);
	free(rank);

	rank = sj_ranked_traces(j, &n);
	if (n)
		fputs("  traces by time (profile-traces.csv):\n", fp);
	for (size_t i = 0; i < n && i < TOP; i++) {
		const struct sj_trace *t = &j->traces[rank[i]];
		fprintf(fp, "  %5.1f%%  gen %u trace %u  ", pct(t->samples, total), t->gen, t->id);
		put_loc(fp, t->file, t->line);
		if (t->bush != UINT32_MAX) {
			fputs("  (bush ", fp);
			put_bush_name(fp, &j->bushes[t->bush]);
			fputs(")", fp);
		}
		putc('\n', fp);
	}
	if (n > TOP)
		fprintf(fp, "    \u2026 %zu more in profile-traces.csv\n", n - TOP);
	free(rank);
	if (!p->state[SP_TRACE])
		fputs("  (no compiled samples)\n", fp);

	size_t nf;
	const struct sp_func *fn = sysprof_functions(p, &nf);
	size_t shown = 0;
	for (size_t i = 0; i < nf && shown < TOP && fn[i].interpreted; i++, shown++) {
		if (!i)
			fputs("  interpreted, by Lua function (defined at; profile-functions.csv):\n", fp);
		fprintf(fp, "  %5.1f%%  ", pct(fn[i].interpreted, total));
		put_loc(fp, fn[i].file, fn[i].line);
		putc('\n', fp);
	}
	put_callees(fp, f, p);
	if (j->samples_apart)
		fprintf(fp, "  %" PRIu64 " compiled samples (%.1f%%) on traces the dump does not have "
		        "(%" PRIu64 " of %" PRIu64 " trace records matched)\n", j->samples_apart,
		        pct(j->samples_apart, total), j->matched, j->records);
	if (p->trace_other)
		fprintf(fp, "  %" PRIu64 " compiled samples name another start function than their "
		        "trace's record\n", p->trace_other);
}
