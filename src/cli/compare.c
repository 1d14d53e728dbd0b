/* compare.c — compare two output directories; see compare.h.  It reads
 * the standard files (gen-N-traces.csv, gen-N-abort-reasons.csv, and when
 * present gen-N-abort-sites.csv and the bush text files) with libcsv. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "output/message.h"
#include "cli/compare.h"
#include "cli/csvin.h"
#include "util/arena.h"
#include "util/diag.h"

/* ---- a generation's numbers ------------------------------------------- */

struct gen_data {
	int present;
	uint64_t traces, aborts;
	struct named_list reasons;  /* reason -> count */
	struct named_list sites;    /* "FILE:LINE  REASON" -> count */
	struct named_list bushes;   /* "ROOT[.K]" -> traces */
	int has_sites, has_bushes;
};

static void on_trace(void *ctx, char **f, size_t n)
{
	(void)f;
	if (n)
		((struct gen_data *)ctx)->traces++;
}

static void on_reason(void *ctx, char **f, size_t n)
{
	struct gen_data *g = ctx;
	if (n >= 2) {
		uint64_t c = strtoull(f[1], NULL, 10);
		named_add(&g->reasons, f[0], c);
		g->aborts += c;
	}
}

static void on_site(void *ctx, char **f, size_t n)
{
	struct gen_data *g = ctx;
	if (n < 8)
		return;
	size_t len = strlen(f[0]) + strlen(f[1]) + strlen(f[2]) + 8;
	char *key = xrealloc(NULL, len);
	snprintf(key, len, "%s%s%s  %s", f[0], f[1][0] ? ":" : "", f[1], f[2]);
	for (char *p = key; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	named_add(&g->sites, key, strtoull(f[7], NULL, 10));
	free(key);
}

/* Traces in each gen-N-bush-*.txt: its "stop" header lines. */
static int read_bushes(const char *dir, unsigned gen, struct gen_data *g)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	char prefix[32];
	int plen = snprintf(prefix, sizeof(prefix), "gen-%u-bush-", gen);
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (strncmp(e->d_name, prefix, (size_t)plen) != 0 || n < 4 ||
		    strcmp(e->d_name + n - 4, ".txt") != 0)
			continue;
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		FILE *fp = fopen(path, "r");
		if (!fp)
			continue;
		uint64_t traces = 0;
		char line[512];
		while (fgets(line, sizeof(line), fp)) {
			unsigned id;
			char word[8];
			if (sscanf(line, "---- TRACE %u %7s", &id, word) == 2 && strcmp(word, "stop") == 0)
				traces++;
		}
		fclose(fp);
		char name[64];
		snprintf(name, sizeof(name), "%.*s", (int)(n - 4 - (size_t)plen), e->d_name + plen);
		named_add(&g->bushes, name, traces);
		g->has_bushes = 1;
	}
	closedir(d);
	return 0;
}

static int read_gen(const char *dir, unsigned gen, struct gen_data *g)
{
	char path[4096];
	memset(g, 0, sizeof(*g));
	snprintf(path, sizeof(path), "%s/gen-%u-traces.csv", dir, gen);
	int r = csvin_read(path, on_trace, g);
	if (r <= 0)
		return r;
	g->present = 1;
	snprintf(path, sizeof(path), "%s/gen-%u-abort-reasons.csv", dir, gen);
	if (csvin_read(path, on_reason, g) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/gen-%u-abort-sites.csv", dir, gen);
	if ((r = csvin_read(path, on_site, g)) < 0)
		return -1;
	g->has_sites = r > 0;
	read_bushes(dir, gen, g);
	return 1;
}

static void gen_free(struct gen_data *g)
{
	named_free(&g->reasons);
	named_free(&g->sites);
	named_free(&g->bushes);
}

/* ---- rules ------------------------------------------------------------ */

struct rules {
	int aborts_pct, aborts_abs, traces_pct;     /* -1: not set */
	int new_reasons, new_sites;
};

static int parse_rules(const char *s, struct rules *r)
{
	*r = (struct rules){ -1, -1, -1, 0, 0 };
	if (!s)
		return 0;
	char *copy = xrealloc(NULL, strlen(s) + 1);
	strcpy(copy, s);
	int ok = 1;
	for (char *tok = strtok(copy, ","); tok && ok; tok = strtok(NULL, ",")) {
		int v;
		char pct;
		if (strcmp(tok, "new-reasons") == 0)
			r->new_reasons = 1;
		else if (strcmp(tok, "new-sites") == 0)
			r->new_sites = 1;
		else if (sscanf(tok, "aborts+%d%c", &v, &pct) == 2 && pct == '%' && v >= 0)
			r->aborts_pct = v;
		else if (sscanf(tok, "aborts+%d%c", &v, &pct) == 1 && v >= 0)
			r->aborts_abs = v;
		else if (sscanf(tok, "traces-%d%c", &v, &pct) == 2 && pct == '%' && v >= 0)
			r->traces_pct = v;
		else {
			msg_error("unknown --fail-on rule '%s' (rules: aborts+N, aborts+N%%, "
			         "traces-N%%, new-reasons, new-sites)", tok);
			ok = 0;
		}
	}
	free(copy);
	return ok ? 0 : -1;
}

/* ---- report ----------------------------------------------------------- */

static void delta_line(FILE *out, const char *what, uint64_t a, uint64_t b)
{
	fprintf(out, "  %-18s %8" PRIu64 " -> %-8" PRIu64, what, a, b);
	if (a != b) {
		fprintf(out, " (%+" PRId64, (int64_t)(b - a));
		if (a)
			fprintf(out, ", %+.1f%%", 100.0 * ((double)b - (double)a) / (double)a);
		fputc(')', out);
	}
	fputc('\n', out);
}

/* Changes of a list: items gone, new, up or down (only those that grew,
 * with counts of new and gone ones, when grew_only); returns the number
 * of new names. */
static size_t list_changes(FILE *out, const char *title, struct named_list *a, struct named_list *b,
                           int grew_only)
{
	named_sort_by_name(a);
	named_sort_by_name(b);
	size_t fresh = 0, shown = 0;
	for (size_t i = 0; i < b->n; i++) {
		struct named *o = named_find(a, b->v[i].name);
		uint64_t was = o ? o->count : 0;
		if (grew_only ? o && b->v[i].count > was : !o || was != b->v[i].count) {
			if (!shown++)
				fprintf(out, "  %s:\n", title);
			fprintf(out, "    %-4s %6" PRIu64 " -> %-6" PRIu64 " %s\n", o ? (b->v[i].count > was ? "up" : b->v[i].count < was ? "down" : "") : "new",
			        was, b->v[i].count, b->v[i].name);
		}
		fresh += !o;
	}
	size_t gone = 0;
	for (size_t i = 0; i < a->n; i++)
		if (!named_find(b, a->v[i].name)) {
			gone++;
			if (grew_only)
				continue;
			if (!shown++)
				fprintf(out, "  %s:\n", title);
			fprintf(out, "    %-4s %6" PRIu64 " -> %-6d %s\n", "gone", a->v[i].count, 0, a->v[i].name);
		}
	if (grew_only && (fresh || gone))
		fprintf(out, "  %s: %zu new, %zu gone\n", title, fresh, gone);
	return fresh;
}

int compare_dirs(const char *old_dir, const char *new_dir, const char *fail_on, FILE *out)
{
	struct rules rules;
	if (parse_rules(fail_on, &rules) < 0)
		return -1;
	const char *dirs[2] = { old_dir, new_dir };
	for (int i = 0; i < 2; i++) {
		DIR *d = opendir(dirs[i]);
		if (!d) {
			msg_error("cannot read %s: %s", dirs[i], strerror(errno));
			return 2;
		}
		closedir(d);
	}
	uint64_t tot_traces[2] = { 0, 0 }, tot_aborts[2] = { 0, 0 };
	size_t new_reasons = 0, new_sites = 0;
	unsigned gens = 0;
	fprintf(out, "dumpanalyze compare: %s -> %s\n", old_dir, new_dir);
	for (unsigned gen = 1;; gen++) {
		struct gen_data a, b;
		int ra = read_gen(old_dir, gen, &a), rb = read_gen(new_dir, gen, &b);
		if (ra < 0 || rb < 0) {
			gen_free(&a);
			gen_free(&b);
			return 2;
		}
		if (!a.present && !b.present) {
			gen_free(&a);
			gen_free(&b);
			break;
		}
		gens++;
		fprintf(out, "\ngeneration %u%s\n", gen,
		        !a.present ? " (only in the new run)" : !b.present ? " (only in the old run)" : "");
		delta_line(out, "traces compiled", a.traces, b.traces);
		delta_line(out, "aborts", a.aborts, b.aborts);
		new_reasons += list_changes(out, "abort reasons", &a.reasons, &b.reasons, 0);
		if (a.has_sites || b.has_sites)
			new_sites += list_changes(out, "abort sites (FILE:LINE  REASON)", &a.sites, &b.sites, 0);
		if (a.has_bushes || b.has_bushes)
			list_changes(out, "bushes that grew (ROOT: traces)", &a.bushes, &b.bushes, 1);
		tot_traces[0] += a.traces;
		tot_traces[1] += b.traces;
		tot_aborts[0] += a.aborts;
		tot_aborts[1] += b.aborts;
		gen_free(&a);
		gen_free(&b);
	}
	if (!gens) {
		msg_error("no gen-N-traces.csv in %s or %s: not dumpanalyze output directories",
		         old_dir, new_dir);
		return 2;
	}
	fprintf(out, "\nall generations\n");
	delta_line(out, "traces compiled", tot_traces[0], tot_traces[1]);
	delta_line(out, "aborts", tot_aborts[0], tot_aborts[1]);
	fprintf(out, "  %-18s %8zu\n  %-18s %8zu\n", "new abort reasons", new_reasons,
	        "new abort sites", new_sites);

	int tripped = 0;
	double up = tot_aborts[0] ? 100.0 * ((double)tot_aborts[1] - (double)tot_aborts[0]) / (double)tot_aborts[0]
	                          : (tot_aborts[1] ? 1e9 : 0);
	double down = tot_traces[0] ? 100.0 * ((double)tot_traces[0] - (double)tot_traces[1]) / (double)tot_traces[0] : 0;
	if (rules.aborts_pct >= 0 && up > rules.aborts_pct) {
		fprintf(out, "FAIL: aborts grew by more than %d%%\n", rules.aborts_pct);
		tripped = 1;
	}
	if (rules.aborts_abs >= 0 && tot_aborts[1] > tot_aborts[0] + (uint64_t)rules.aborts_abs) {
		fprintf(out, "FAIL: aborts grew by more than %d\n", rules.aborts_abs);
		tripped = 1;
	}
	if (rules.traces_pct >= 0 && down > rules.traces_pct) {
		fprintf(out, "FAIL: compiled traces dropped by more than %d%%\n", rules.traces_pct);
		tripped = 1;
	}
	if (rules.new_reasons && new_reasons) {
		fprintf(out, "FAIL: %zu new abort reason%s\n", new_reasons, new_reasons == 1 ? "" : "s");
		tripped = 1;
	}
	if (rules.new_sites && new_sites) {
		fprintf(out, "FAIL: %zu new abort site%s\n", new_sites, new_sites == 1 ? "" : "s");
		tripped = 1;
	}
	return tripped;
}
