/* summary.c — summary.txt: the answers users open the other files for,
 * for the whole dump and per generation: what compiled and what aborted,
 * the top abort reasons and where, the largest bushes, how traces end,
 * the exits by what they cost (without a side trace first), likely blacklisted
 * starts, aborts per file and chunk family (source/family.h), after the
 * run's diagnoses (analysis/diagnose.c).  Every list
 * stops at 10 rows and names the file that has them all, so the summary
 * of any dump fits a screen or two.  Plain aligned text in a stable
 * order; main also prints it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include "views/view.h"
#include "outdir/outdir.h"
#include "util/intern.h"
#include "analysis/answers.h"
#include "analysis/reason_advice.h"
#include "profile/profile_join.h"
#include "profile/callees.h"
#include "source/family.h"
#include "views/summary_time.h"
#include "util/alloc.h"
#include "views/findings_views.h"
#include "lib/api.h"
#include "output/termtext.h"
#include "luajit/recipe.h"

#define TOP 10                      /* rows per list */

static void put_loc(FILE *fp, const char *file, int32_t line)
{
	term_putn(fp, file, intern_len(file));
	if (line != LOC_NO_LINE)
		fprintf(fp, ":%d", line);
}

/* "  → FILE:LINE": where a listed trace starts. */
static void put_at(FILE *fp, const char *file, int32_t line)
{
	if (!file)
		return;
	fputs("  \u2192 ", fp);
	put_loc(fp, file, line);
}

/* One line under a top reason: its normal form, LuaJIT's name for it,
 * what it means and what to try (the catalogue, --explain). */
static void put_meaning(FILE *fp, const struct site_extra *x)
{
	char buf[512];
	size_t n = intern_len(x->reason_normal);
	advice_line(x->reason_normal, n, x->error, buf, sizeof(buf));
	fputs("            ", fp);
	put_loc(fp, x->reason_normal, LOC_NO_LINE);
	fprintf(fp, " -- %s\n", buf);
}

/* Under a top site: the last bytecode its last attempt recorded (the one
 * that failed) and that abort's dump line. */
static void put_failed(FILE *fp, const struct site_extra *x)
{
	fputs("                failed at ", fp);
	if (x->nbytecode) {
		const char *l = x->bytecode[x->nbytecode - 1];
		put_loc(fp, l, LOC_NO_LINE);
		fputs(", ", fp);
	}
	fprintf(fp, "dump line %" PRIu64 "\n", x->last_line);
}

/* A site or a file under the name of its chunk family (source/family.h),
 * for lists that thousands of "tpl-N" chunks would flood. */
struct group {
	char *key;
	size_t len;
	int32_t line;
	uint64_t count, starts, chunks;
	size_t first;               /* the first member's index, for ties */
	const char *name;           /* the first member's own name */
};

static void group_key(struct group *g, const char *name)
{
	size_t n = intern_len(name);
	g->key = xrealloc(NULL, n + 2);
	g->len = chunk_family(name, n, g->key, n + 1);
	if (!g->len) {
		memcpy(g->key, name, n);
		g->len = n;
	}
	g->name = name;
	g->chunks = 1;
}

static int group_by_key(const void *x, const void *y)
{
	const struct group *a = x, *b = y;
	int k = memcmp(a->key, b->key, a->len < b->len ? a->len : b->len);
	if (!k)
		k = (a->len > b->len) - (a->len < b->len);
	if (!k)
		k = (a->line > b->line) - (a->line < b->line);
	return k ? k : (a->first > b->first) - (a->first < b->first);
}

static int group_by_count(const void *x, const void *y)
{
	const struct group *a = x, *b = y;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	if (a->starts != b->starts)
		return a->starts > b->starts ? -1 : 1;
	return (a->first > b->first) - (a->first < b->first);
}

static int group_by_name(const void *x, const void *y)
{
	const struct group *a = x, *b = y;
	uintptr_t p = (uintptr_t)a->name, q = (uintptr_t)b->name;
	if (p != q)
		return p < q ? -1 : 1;
	return (a->line > b->line) - (a->line < b->line);
}

/* Entries of one name and line summed (their order does not matter:
 * sums, and the smallest first), then those of one key and line, each
 * name counted as one chunk; ranked by the new count. */
static size_t group_merge(struct group *g, size_t n)
{
	for (int pass = 0; pass < 2; pass++) {
		qsort(g, n, sizeof(*g), pass ? group_by_key : group_by_name);
		size_t u = 0;
		for (size_t i = 0; i < n; i++) {
			struct group *t = u ? &g[u - 1] : NULL;
			int same = t && t->line == g[i].line &&
			           (pass ? t->len == g[i].len && memcmp(t->key, g[i].key, t->len) == 0
			                 : t->name == g[i].name);
			if (same) {
				if (pass)
					t->chunks += g[i].chunks;
				t->count += g[i].count;
				t->starts += g[i].starts;
				if (g[i].first < t->first) {
					t->first = g[i].first;
					t->name = g[i].name;
				}
				free(g[i].key);
				continue;
			}
			g[u++] = g[i];
		}
		n = u;
	}
	qsort(g, n, sizeof(*g), group_by_count);
	return n;
}

static void put_group_name(FILE *fp, const struct group *g, int32_t line)
{
	if (g->chunks > 1) {
		for (size_t i = 0; i < g->len; i++)     /* not interned: by length */
			putc(g->key[i] == '\n' || g->key[i] == '\r' ? ' ' : g->key[i], fp);
	} else {
		put_loc(fp, g->name, LOC_NO_LINE);
	}
	if (line != LOC_NO_LINE)
		fprintf(fp, ":%d", line);
	if (g->chunks > 1)
		fprintf(fp, "  (%" PRIu64 " chunks)", g->chunks);
}

/* A reason's top 3 locations, a chunk family's lines summed. */
static void put_reason_sites(FILE *fp, const struct answers *s, const void *reason,
                             const struct tally_entry *st, size_t ns)
{
	struct group *g = xrealloc(NULL, (ns ? ns : 1) * sizeof(*g));
	size_t n = 0;
	for (size_t k = 0; k < ns; k++)
		if (st[k].a == reason) {
			memset(&g[n], 0, sizeof(g[n]));
			group_key(&g[n], st[k].b);
			g[n].line = (int32_t)st[k].c;
			g[n].count = st[k].count;
			g[n].first = k;     /* st is by count: the first is the largest */
			n++;
		}
	n = group_merge(g, n);
	for (size_t k = 0; k < n && k < 3; k++) {
		const struct site_extra *x = &s->site_extra[st[g[k].first].first];
		if (!k)
			put_meaning(fp, x);
		fprintf(fp, "  %8" PRIu64 "      ", g[k].count);
		put_group_name(fp, &g[k], g[k].line);
		putc('\n', fp);
		put_failed(fp, x);
	}
	for (size_t k = 0; k < n; k++)
		free(g[k].key);
	free(g);
}

/* Aborts and starts per file and chunk family: the top 10. */
static void put_families(FILE *fp, const struct answers *s)
{
	size_t ns, nt;
	struct tally_entry *st = tally_entries(&s->sites, &ns);
	struct tally_entry *sr = tally_entries(&s->starts, &nt);
	qsort(st, ns, sizeof(*st), tally_by_count);
	qsort(sr, nt, sizeof(*sr), tally_by_count);
	struct group *g = xrealloc(NULL, (ns + nt + 1) * sizeof(*g));
	size_t n = 0;
	for (size_t k = 0; k < ns + nt; k++) {
		const struct tally_entry *e = k < ns ? &st[k] : &sr[k - ns];
		const char *name = k < ns ? e->b : e->a;
		if (!name)
			continue;
		memset(&g[n], 0, sizeof(g[n]));
		group_key(&g[n], name);
		g[n].line = LOC_NO_LINE;
		if (k < ns)
			g[n].count = e->count;
		else
			g[n].starts = e->count;
		g[n].first = k;
		n++;
	}
	n = group_merge(g, n);
	fprintf(fp, "\nfiles and chunk families, by aborts\n");
	if (!n)
		fprintf(fp, "  (none)\n");
	else
		fprintf(fp, "    aborts   starts  file (starts: traces and aborted attempts started there)\n");
	for (size_t k = 0; k < n && k < TOP; k++) {
		fprintf(fp, "  %8" PRIu64 " %8" PRIu64 "  ", g[k].count, g[k].starts);
		put_group_name(fp, &g[k], LOC_NO_LINE);
		putc('\n', fp);
	}
	if (n > TOP)
		fprintf(fp, "  \u2026 %zu more in files.csv\n", n - TOP);
	for (size_t k = 0; k < n; k++)
		free(g[k].key);
	free(g);
	free(st);
	free(sr);
}

/* How far to trust the profile, after the shares at the top. */
static void write_profile_notes(const struct answers *s, FILE *fp, const struct profile *p)
{
	struct join j;
	join_build(&j, s, p);
	if (p->kind == PROFILE_EMPTY)
		fputs("  the profile has no samples\n", fp);
	if (j.unmatched_lines)
		fprintf(fp, "  %" PRIu64 " of %" PRIu64 " profile lines are in files the dump never names\n",
		        j.unmatched_lines, j.profile_lines);
	if (j.by_basename)
		fprintf(fp, "  %" PRIu64 " profile lines matched by file name without directories\n",
		        j.by_basename);
	if (p->thresholded)
		fputs("  the profile looks cut at -jp's 3% threshold: record it with " RECIPE_JP " to see every line\n", fp);
	if (p->percent)
		fputs("  the profile has percentages, not counts (-jp without r): shares are rounded\n", fp);
	join_free(&j);
}

static void write_summary(const struct answers *s, FILE *fp, struct view_ctx *c)
{
	const struct da_line_counts *l = c->lines;
	const struct da_counts *t = &s->total;
	uint64_t gens = s->ngens;
	fputs("dumpanalyze summary of ", fp);
	term_puts(fp, c->name);
	fputs("\n\n", fp);
	if (da_profile_totals(c->dump)) {
		findings_write_shares(fp, c->dump);
		if (c->profile)
			write_profile_notes(s, fp, c->profile);
		if (c->profile && c->sysprof)
			fputs("  (of the two profiles this -jp one, which knows lines, charges the findings;\n"
			      "  the sysprof one gives the time per trace below)\n", fp);
		putc('\n', fp);
	}
	/* before the findings it changes */
	const char *missing = api_sources_missing(c->dump);
	if (missing)
		fprintf(fp, "%s\n\n", missing);
	findings_write_top(fp, c->dump, FINDINGS_TOP);
	fprintf(fp, "\nwhole dump: %" PRIu64 " generation%s\n", gens, gens == 1 ? "" : "s");
	fprintf(fp, "  traces compiled   %8" PRIu64 "  (root %" PRIu64 ", side %" PRIu64
	        ", stitched %" PRIu64 ", orphan %" PRIu64 ")\n",
	        t->traces, t->root, t->side, t->stitched, t->orphans);
	fprintf(fp, "  aborted attempts  %8" PRIu64 "\n", t->aborts);
	fprintf(fp, "  flushes           %8" PRIu64 "\n", gens ? gens - 1 : 0);
	fprintf(fp, "  exits taken       %8" PRIu64 "\n", t->exits);
	fprintf(fp, "  incomplete        %8" PRIu64 "\n", t->incomplete);
	fprintf(fp, "  foreign lines     %8" PRIu64 "\n", l ? l->foreign : 0);
	fprintf(fp, "  warnings          %8" PRIu64 "\n", da_warnings(c->dump));

	fprintf(fp, "\ndiagnoses\n");
	char **dl;
	size_t nd = diagnose_lines(&s->diag, s->ngave_up, s->nmcode_gave_up, &dl);
	if (!nd)
		fputs("  (none: no flushes, side-trace explosions or long chains)\n", fp);
	for (size_t i = 0; i < nd; i++) {
		fputs("  ", fp);
		fputs(dl[i], fp);
	}
	diagnose_lines_free(dl, nd);

	fprintf(fp, "\nhow traces end\n");
	for (size_t i = 0; i < answers_nlink_ends; i++) {
		const struct link_end *e = &answers_link_ends[i];
		if (s->links[e->kind])
			fprintf(fp, "  %-20s %8" PRIu64 "\n", e->what, s->links[e->kind]);
	}

	fprintf(fp, "\ntop abort reasons, with their top locations\n");
	size_t nr, ns;
	struct tally_entry *r = tally_entries(&s->reasons, &nr);
	struct tally_entry *st = tally_entries(&s->sites, &ns);
	qsort(r, nr, sizeof(*r), tally_by_count);
	qsort(st, ns, sizeof(*st), tally_by_count);
	if (!nr)
		fprintf(fp, "  (none)\n");
	for (size_t i = 0; i < nr && i < TOP; i++) {
		fprintf(fp, "  %8" PRIu64 "  ", r[i].count);
		term_putn(fp, r[i].a, intern_len(r[i].a));
		putc('\n', fp);
		put_reason_sites(fp, s, r[i].a, st, ns);
	}
	free(r);
	free(st);

	put_families(fp, s);

	fprintf(fp, "\nlargest bushes\n");
	if (!s->bushes[0].traces)
		fprintf(fp, "  (none)\n");
	for (size_t i = 0; i < TOP && s->bushes[i].traces; i++) {
		const struct top_bush *b = &s->bushes[i];
		char name[32];
		snprintf(name, sizeof(name), b->dup > 1 ? "%u.%u" : "%u", b->root, b->dup);
		fprintf(fp, "  gen %-4u bush %-10s %6u traces %9" PRIu64 " bytes mcode",
		        b->gen, name, b->traces, b->mcode);
		put_at(fp, b->file, b->line);
		putc('\n', fp);
	}

	/* Exits by what they cost: one without a side trace goes back to the
	 * interpreter each time it is taken; one with a side trace was
	 * counted only until the side trace attached (LuaJIT then jumps
	 * there and reports the exit no more). */
	for (int pass = 0; pass < 2; pass++) {
		const struct top_exit *x = pass ? s->hot : s->cold;
		fputs(pass ? "\nexits that grew a side trace, counted until it attached (LuaJIT then"
		             " jumps to it\nand reports the exit no more)\n"
		           : "\nexits without a side trace, most taken first: each taking returns to"
		             " the interpreter\n", fp);
		if (!x[0].count)
			fprintf(fp, "  (no exit records: run with -jdump=+x)\n");
		size_t shown = 0;
		for (size_t i = 0; i < ANSWERS_TOP && x[i].count && shown < TOP; i++) {
			if (pass && !x[i].side)
				continue;
			fprintf(fp, "  gen %-4u exit %6u/%-4u taken %9" PRIu64, x[i].gen, x[i].trace,
			        x[i].exit, x[i].count);
			if (x[i].side)
				fprintf(fp, "  side trace %u", x[i].side);
			put_at(fp, x[i].file, x[i].line);
			putc('\n', fp);
			shown++;
		}
		if (pass && x[0].count && !shown)
			fputs("  (none among the most taken exits)\n", fp);
		uint64_t all = pass ? s->nexits_all - s->ncold_all : s->ncold_all;
		if (all > shown)
			fprintf(fp, "  \u2026 %" PRIu64 " more in gen-N-exits.csv\n", all - shown);
	}

	fprintf(fp, "\nlikely blacklisted\n");
	if (!s->ngave_up)
		fprintf(fp, "  (none)\n");
	/* Real blacklisting first: a start whose last attempt ran out of
	 * machine code was cut short by the flush that followed. */
	size_t shown = 0;
	for (int flushed = 0; flushed < 2; flushed++)
		for (size_t i = 0; i < s->ngave_up && shown < TOP; i++) {
			const struct given_up *u = &s->gave_up[i];
			const struct start *g = &u->st;
			if (diagnose_is_mcode(g->last_reason) != flushed)
				continue;
			fprintf(fp, "  gen %-4u ", u->gen);
			if (g->exit == PARENT_EXIT_NONE) {
				fputs("start ", fp);
				put_loc(fp, g->file, g->line);
			} else if (g->exit == PARENT_EXIT_STITCH) {
				fprintf(fp, "stitch after trace %u", g->parent);
			} else {
				fprintf(fp, "exit %u/%d", g->parent, g->exit);
			}
			/* an exit's attempts start where the interpreter resumes
			 * ("start 18/0 f.lua:55"), not at the parent's start;
			 * -jv names no start of their own */
			if (g->exit != PARENT_EXIT_NONE)
				put_at(fp, g->own_start ? g->file : u->file, g->own_start ? g->line : u->line);
			fprintf(fp, "  %" PRIu64 " attempts, %" PRIu64 " ", g->attempts, g->main_attempts);
			term_putn(fp, g->main_reason, intern_len(g->main_reason));
			if (strcmp(g->last_normal, g->main_reason) != 0) {
				fputs(", last: ", fp);
				term_putn(fp, g->last_normal, intern_len(g->last_normal));
			}
			if (g->later == LATER_STUB)
				fputs("  (now an interpreter stub)", fp);
			if (flushed)
				fputs("  (flush side effect)", fp);
			putc('\n', fp);
			shown++;
		}
	if (s->ngave_up > shown)
		fprintf(fp, "  \u2026 %zu more in gen-N-blacklist.csv\n", s->ngave_up - shown);

	if (c->sysprof)
		summary_write_time(fp, api_findings(c->dump), c->sysprof, c->join);

	fprintf(fp, "\nper generation\n");
	for (size_t i = 0; i < s->ngens && i < TOP; i++) {
		const struct da_counts *n = &s->gens[i].n;
		fprintf(fp, "  gen %-4u traces %6" PRIu64 " (root %" PRIu64 ", side %" PRIu64
		        ", stitched %" PRIu64 ", orphan %" PRIu64 ")  aborts %6" PRIu64
		        "  exits %7" PRIu64 "  bushes %5" PRIu64 "  incomplete %" PRIu64 "\n",
		        s->gens[i].number, n->traces, n->root, n->side, n->stitched, n->orphans,
		        n->aborts, n->exits, n->bushes, n->incomplete);
	}
	if (s->ngens > TOP)
		fprintf(fp, "  \u2026 %zu more generation%s in gen-N-traces.csv (one file each)\n",
		        s->ngens - TOP, s->ngens - TOP == 1 ? "" : "s");
}

static int summary_finish(struct view_ctx *c)
{
	/* The library's answers: the run asks for its findings, which keep
	 * them (one copy of the aggregates, not one per view). */
	const struct answers *s = c->out && c->dump ? api_answers(c->dump) : NULL;
	int r = 0;
	/* Only a run that got to its end has a summary to give. */
	if (s && s->ngens) {
		struct outfile *f = outfile_create(c->out, "summary.txt");
		FILE *fp = f ? outfile_fp(f) : NULL;
		if (!fp)
			r = -1;
		else {
			write_summary(s, fp, c);
			r = outfile_commit(f);
		}
	}
	return r;
}

const struct view view_summary = {
	.name = "summary",
	.files = "summary.txt",
	.needs = NEEDS_FINDINGS,
	.is_default = 1,
	.finish = summary_finish,
};
