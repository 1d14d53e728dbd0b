/* merge.c — one summary for several dumps; see merge.h.  Abort reasons
 * and sites add up across dumps; exits are per process (each has its own
 * trace numbers, and each generation its own), so the hottest are listed
 * with their dump and generation. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/merge.h"
#include "cli/csvin.h"
#include "output/outdir.h"
#include "util/arena.h"

#define TOP 10

struct dump_totals {
	uint64_t gens, traces, aborts, exits;
};

struct merge {
	struct dump_totals *cur;
	struct named_list reasons;      /* reason -> count */
	struct named_list sites;        /* "REASON\tFILE:LINE" -> count */
	struct named_list exits;        /* "DUMP  gen G  exit TRACE/EXIT  side N" -> count */
	const char *name;
	unsigned gen;                   /* being read */
};

static void on_trace(void *ctx, char **f, size_t n)
{
	(void)f;
	if (n)
		((struct merge *)ctx)->cur->traces++;
}

static void on_reason(void *ctx, char **f, size_t n)
{
	struct merge *m = ctx;
	if (n < 2)
		return;
	uint64_t c = strtoull(f[1], NULL, 10);
	named_add(&m->reasons, f[0], c);
	m->cur->aborts += c;
}

static void on_site(void *ctx, char **f, size_t n)
{
	struct merge *m = ctx;
	if (n < 8)
		return;
	size_t len = strlen(f[0]) + strlen(f[1]) + strlen(f[2]) + 4;
	char *key = xrealloc(NULL, len);
	snprintf(key, len, "%s\t%s%s%s", f[2], f[0], f[1][0] ? ":" : "", f[1]);
	for (char *p = key + strlen(f[2]) + 1; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	named_add(&m->sites, key, strtoull(f[7], NULL, 10));
	free(key);
}

static void on_exit_row(void *ctx, char **f, size_t n)
{
	struct merge *m = ctx;
	if (n < 4)
		return;
	uint64_t c = strtoull(f[2], NULL, 10);
	m->cur->exits += c;
	char key[512];
	snprintf(key, sizeof(key), "%-24s gen %-4u exit %6s/%-4s%s%s", m->name, m->gen, f[0], f[1],
	         f[3][0] ? "  side trace " : "", f[3]);
	named_add(&m->exits, key, c);
}

static void read_dump(struct merge *m, const char *dir)
{
	char path[4200];
	for (unsigned g = 1;; g++) {
		snprintf(path, sizeof(path), "%s/gen-%u-traces.csv", dir, g);
		if (csvin_read(path, on_trace, m) <= 0)
			break;
		m->cur->gens++;
		m->gen = g;
		snprintf(path, sizeof(path), "%s/gen-%u-abort-reasons.csv", dir, g);
		csvin_read(path, on_reason, m);
		snprintf(path, sizeof(path), "%s/gen-%u-abort-sites.csv", dir, g);
		csvin_read(path, on_site, m);
		snprintf(path, sizeof(path), "%s/gen-%u-exits.csv", dir, g);
		csvin_read(path, on_exit_row, m);
	}
}

int merge_summaries(struct outdir *out, const char *top, const char *const *dumps,
                    const char *const *names, const int *status, size_t n)
{
	struct merge m;
	memset(&m, 0, sizeof(m));
	struct dump_totals *t = xrealloc(NULL, n * sizeof(*t));
	struct dump_totals all = { 0, 0, 0, 0 };
	memset(t, 0, n * sizeof(*t));
	for (size_t i = 0; i < n; i++) {
		if (status[i] != 0)
			continue;
		char dir[4000];
		snprintf(dir, sizeof(dir), "%s/%s", top, names[i]);
		m.cur = &t[i];
		m.name = names[i];
		read_dump(&m, dir);
		all.gens += t[i].gens;
		all.traces += t[i].traces;
		all.aborts += t[i].aborts;
		all.exits += t[i].exits;
	}

	struct outfile *f = outfile_create(out, "summary.txt");
	FILE *fp = f ? outfile_fp(f) : NULL;
	if (!fp) {
		free(t);
		return -1;
	}
	fprintf(fp, "dumpanalyze summary of %zu dumps (each in its own directory)\n\n", n);
	fprintf(fp, "  %-24s %-14s %6s %8s %8s %9s\n", "dump", "status", "gens", "traces",
	        "aborts", "exits");
	for (size_t i = 0; i < n; i++) {
		char st[32];
		if (status[i] == 0)
			snprintf(st, sizeof(st), "ok");
		else
			snprintf(st, sizeof(st), "failed (exit %d)", status[i]);
		if (status[i] == 0)
			fprintf(fp, "  %-24s %-14s %6" PRIu64 " %8" PRIu64 " %8" PRIu64 " %9" PRIu64 "\n",
			        names[i], st, t[i].gens, t[i].traces, t[i].aborts, t[i].exits);
		else
			fprintf(fp, "  %-24s %s  (%s)\n", names[i], st, dumps[i]);
	}
	fprintf(fp, "  %-24s %-14s %6" PRIu64 " %8" PRIu64 " %8" PRIu64 " %9" PRIu64 "\n",
	        "all", "", all.gens, all.traces, all.aborts, all.exits);

	fprintf(fp, "\ntop abort reasons of all dumps, with their top locations\n");
	named_sort_by_count(&m.reasons);
	named_sort_by_count(&m.sites);
	if (!m.reasons.n)
		fprintf(fp, "  (none)\n");
	for (size_t i = 0; i < m.reasons.n && i < TOP; i++) {
		fprintf(fp, "  %8" PRIu64 "  %s\n", m.reasons.v[i].count, m.reasons.v[i].name);
		size_t len = strlen(m.reasons.v[i].name), shown = 0;
		for (size_t k = 0; k < m.sites.n && shown < 3; k++)
			if (strncmp(m.sites.v[k].name, m.reasons.v[i].name, len) == 0 &&
			    m.sites.v[k].name[len] == '\t') {
				fprintf(fp, "  %8" PRIu64 "      %s\n", m.sites.v[k].count,
				        m.sites.v[k].name + len + 1);
				shown++;
			}
	}

	fprintf(fp, "\nhottest exits of all dumps (trace numbers are per dump)\n");
	named_sort_by_count(&m.exits);
	if (!m.exits.n)
		fprintf(fp, "  (no exit records: run with -jdump=+x)\n");
	for (size_t i = 0; i < m.exits.n && i < TOP; i++)
		fprintf(fp, "  %s  taken %" PRIu64 "\n", m.exits.v[i].name, m.exits.v[i].count);
	if (m.exits.n > TOP)
		fprintf(fp, "  \u2026 %zu more in each dump's gen-N-exits.csv\n", m.exits.n - TOP);
	named_free(&m.reasons);
	named_free(&m.sites);
	named_free(&m.exits);
	free(t);
	return outfile_commit(f);
}
