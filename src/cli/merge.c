/* merge.c — one summary for several dumps; see merge.h.  The findings
 * are matched by identity (merge_findings.c); abort reasons
 * and sites add up across dumps; exits are per process (each has its own
 * trace numbers, and each generation its own), so the hottest are listed
 * with their dump and generation. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/merge.h"
#include "compare/csvin.h"
#include "outdir/outdir.h"
#include "output/message.h"
#include "output/termtext.h"
#include "util/alloc.h"

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
	/* the COUNT columns' sums over every dump, kept below 2^63 as read */
	uint64_t reason_sum, site_sum, exit_sum;
};

static int on_trace(void *ctx, const struct csvin *c)
{
	(void)c;
	((struct merge *)ctx)->cur->traces++;
	return 0;
}

static int on_reason(void *ctx, const struct csvin *c)
{
	struct merge *m = ctx;
	if (csvin_add(c, CSVIN_REASONS_COUNT, &m->reason_sum) < 0)
		return -1;
	uint64_t n = csvin_count(c, CSVIN_REASONS_COUNT);
	named_add(&m->reasons, csvin_text(c, CSVIN_REASONS_REASON), n);
	m->cur->aborts += n;
	return 0;
}

static int on_site(void *ctx, const struct csvin *c)
{
	struct merge *m = ctx;
	if (csvin_add(c, CSVIN_SITES_COUNT, &m->site_sum) < 0)
		return -1;
	const char *file = csvin_text(c, CSVIN_SITES_FILE), *line = csvin_text(c, CSVIN_SITES_LINE);
	const char *reason = csvin_text(c, CSVIN_SITES_REASON);
	size_t len = strlen(file) + strlen(line) + strlen(reason) + 4;
	char *key = xrealloc(NULL, len);
	snprintf(key, len, "%s\t%s%s%s", reason, file, line[0] ? ":" : "", line);
	for (char *p = key + strlen(reason) + 1; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	named_add(&m->sites, key, csvin_count(c, CSVIN_SITES_COUNT));
	free(key);
	return 0;
}

static int on_exit_row(void *ctx, const struct csvin *c)
{
	struct merge *m = ctx;
	if (csvin_add(c, CSVIN_EXITS_COUNT, &m->exit_sum) < 0)
		return -1;
	uint64_t n = csvin_count(c, CSVIN_EXITS_COUNT);
	m->cur->exits += n;
	const char *side = csvin_text(c, CSVIN_EXITS_SIDE_TRACE);
	char key[512];
	snprintf(key, sizeof(key), "%-24s gen %-4u exit %6s/%-4s%s%s", m->name, m->gen,
	         csvin_text(c, CSVIN_EXITS_TRACE), csvin_text(c, CSVIN_EXITS_EXIT),
	         side[0] ? "  side trace " : "", side);
	named_add(&m->exits, key, n);
	return 0;
}

/* One dump's files, generation by generation until one has no traces.csv:
 * 0, or -1 after a message (a file that is not what the run wrote). */
static int read_dump(struct merge *m, const struct runfile_dir *top, const char *name)
{
	static const struct {
		enum csvin_kind kind;
		int (*row)(void *, const struct csvin *);
	} files[] = {
		{ CSVIN_TRACES, on_trace }, { CSVIN_REASONS, on_reason },
		{ CSVIN_SITES, on_site }, { CSVIN_EXITS, on_exit_row },
	};
	struct runfile_dir d;
	int rc = runfile_dir_open(&d, top, name);
	if (rc > 0)
		msg_error("cannot read %s: %s", d.shown, strerror(ENOENT));
	rc = rc == 0 ? 0 : -1;
	for (unsigned g = 1; rc == 0; g++) {
		m->gen = g;
		for (size_t k = 0; k < sizeof(files) / sizeof(files[0]) && rc == 0; k++) {
			char path[64];
			snprintf(path, sizeof(path), "gen-%u-%s", g, csvin_name(files[k].kind));
			struct csvin_reader rd = { NULL, files[k].row, m };
			int r = csvin_read(&d, path, files[k].kind, 1, &rd);
			if (r < 0)
				rc = -1;
			else if (r == 0 && k == 0)
				goto done;      /* the generations end */
		}
		m->cur->gens++;
	}
done:
	runfile_dir_free(&d);
	return rc;
}

int merge_summaries(struct outdir *out, const char *top, const char *top_shown,
                    const char *const *dumps, const char *const *names, const int *status,
                    size_t n)
{
	struct merge m;
	memset(&m, 0, sizeof(m));
	struct merge_findings mf = { NULL };
	struct dump_totals *t = xrealloc(NULL, n * sizeof(*t));
	struct dump_totals all = { 0, 0, 0, 0 };
	memset(t, 0, n * sizeof(*t));
	struct runfile_dir topd;
	int rc = runfile_dir_open_as(&topd, top, top_shown);
	if (rc > 0)
		msg_error("cannot read %s: %s", topd.shown, strerror(ENOENT));
	rc = rc == 0 ? 0 : -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (status[i] != 0)
			continue;
		m.cur = &t[i];
		m.name = names[i];
		rc = read_dump(&m, &topd, names[i]);
		all.gens += t[i].gens;
		all.traces += t[i].traces;
		all.aborts += t[i].aborts;
		all.exits += t[i].exits;
	}
	if (rc == 0)
		rc = merge_findings_read(&mf, &topd, names, status, n);

	runfile_dir_free(&topd);
	struct outfile *f = rc == 0 ? outfile_create(out, "summary.txt") : NULL;
	FILE *fp = f ? outfile_fp(f) : NULL;
	if (!fp) {
		merge_findings_free(&mf);
		named_free(&m.reasons);
		named_free(&m.sites);
		named_free(&m.exits);
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
		char *name = term_text(names[i]), *dump = term_text(dumps[i]);
		if (status[i] == 0)
			fprintf(fp, "  %-24s %-14s %6" PRIu64 " %8" PRIu64 " %8" PRIu64 " %9" PRIu64 "\n",
			        name, st, t[i].gens, t[i].traces, t[i].aborts, t[i].exits);
		else
			fprintf(fp, "  %-24s %s  (%s)\n", name, st, dump);
		free(name);
		free(dump);
	}
	fprintf(fp, "  %-24s %-14s %6" PRIu64 " %8" PRIu64 " %8" PRIu64 " %9" PRIu64 "\n",
	        "all", "", all.gens, all.traces, all.aborts, all.exits);

	merge_findings_write(&mf, fp, n);
	merge_findings_free(&mf);

	fprintf(fp, "\ntop abort reasons of all dumps, with their top locations\n");
	named_sort_by_count(&m.reasons);
	named_sort_by_count(&m.sites);
	if (!m.reasons.n)
		fprintf(fp, "  (none)\n");
	for (size_t i = 0; i < m.reasons.n && i < TOP; i++) {
		fprintf(fp, "  %8" PRIu64 "  ", m.reasons.v[i].count);
		term_puts(fp, m.reasons.v[i].name);
		putc('\n', fp);
		size_t len = strlen(m.reasons.v[i].name), shown = 0;
		for (size_t k = 0; k < m.sites.n && shown < 3; k++)
			if (strncmp(m.sites.v[k].name, m.reasons.v[i].name, len) == 0 &&
			    m.sites.v[k].name[len] == '\t') {
				fprintf(fp, "  %8" PRIu64 "      ", m.sites.v[k].count);
				term_puts(fp, m.sites.v[k].name + len + 1);
				putc('\n', fp);
				shown++;
			}
	}

	fprintf(fp, "\nhottest exits of all dumps (trace numbers are per dump)\n");
	named_sort_by_count(&m.exits);
	if (!m.exits.n)
		fprintf(fp, "  (no exit records: run with -jdump=+x)\n");
	for (size_t i = 0; i < m.exits.n && i < TOP; i++) {
		fputs("  ", fp);
		term_puts(fp, m.exits.v[i].name);
		fprintf(fp, "  taken %" PRIu64 "\n", m.exits.v[i].count);
	}
	if (m.exits.n > TOP)
		fprintf(fp, "  \u2026 %zu more in each dump's gen-N-exits.csv\n", m.exits.n - TOP);
	named_free(&m.reasons);
	named_free(&m.sites);
	named_free(&m.exits);
	free(t);
	return outfile_commit(f);
}
