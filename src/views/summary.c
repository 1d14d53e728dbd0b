/* summary.c — summary.txt: the answers users open the other files for,
 * for the whole dump and per generation: what compiled and what aborted,
 * the top abort reasons and where, the largest bushes, how traces end,
 * the hottest exits (with and without a side trace), likely blacklisted
 * starts.  Plain aligned text in a stable order; main also prints it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include "dumpanalyze/view.h"
#include "dumpanalyze/outdir.h"
#include "dumpanalyze/intern.h"
#include "dumpanalyze/tally.h"
#include "dumpanalyze/attempts.h"
#include "dumpanalyze/arena.h"

#define TOP 10

struct top_bush { uint32_t gen, root, dup, traces; uint64_t mcode; };
struct top_exit { uint32_t gen, trace, exit, side; uint64_t count; };
struct given_up { uint32_t gen; struct start st; };

struct summary_state {
	struct tally reasons;       /* reason -> count */
	struct tally sites;         /* (reason, file, line) -> count */
	uint64_t links[LINK_KIND_COUNT];
	struct top_bush bushes[TOP];
	struct top_exit hot[TOP], cold[TOP];    /* cold: no side trace */
	struct attempts attempts;
	struct given_up *gave_up;
	size_t ngave_up, cap;
	char *gens;                 /* per generation lines */
	size_t gens_len, gens_cap;
	uint64_t ngens;
	struct gen_counts total;
};

static void gens_printf(struct summary_state *s, const char *fmt, ...) DA_PRINTF(2, 3);
static void gens_printf(struct summary_state *s, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		va_start(ap, fmt);
		int n = vsnprintf(s->gens + s->gens_len, s->gens_cap - s->gens_len, fmt, ap);
		va_end(ap);
		if (n >= 0 && s->gens_len + (size_t)n < s->gens_cap) {
			s->gens_len += (size_t)n;
			return;
		}
		s->gens_cap = (s->gens_cap + (size_t)(n > 0 ? n : 0) + 1) * 2;
		s->gens = xrealloc(s->gens, s->gens_cap);
	}
}

static int summary_trace(struct view_ctx *c, const struct trace *t)
{
	struct summary_state *s = c->state;
	s->links[t->link_kind]++;
	attempts_trace(&s->attempts, t);
	return 0;
}

static int summary_abort(struct view_ctx *c, const struct abort_rec *a)
{
	struct summary_state *s = c->state;
	tally_add(&s->reasons, a->reason, NULL, 0, 1);
	tally_add(&s->sites, a->reason, a->file, a->line, 1);
	attempts_abort(&s->attempts, a);
	return 0;
}

static int bush_bigger(struct top_bush a, struct top_bush b)
{
	return a.traces != b.traces ? a.traces > b.traces : a.mcode > b.mcode;
}

static int exit_hotter(struct top_exit a, struct top_exit b)
{
	return a.count > b.count;
}

static void keep_bush(struct top_bush *arr, struct top_bush b)
{
	size_t k = TOP;
	while (k > 0 && (arr[k - 1].traces == 0 || bush_bigger(b, arr[k - 1])))
		k--;
	if (k < TOP) {
		memmove(&arr[k + 1], &arr[k], (TOP - k - 1) * sizeof(*arr));
		arr[k] = b;
	}
}

static void keep_exit(struct top_exit *arr, struct top_exit x)
{
	size_t k = TOP;
	while (k > 0 && (arr[k - 1].count == 0 || exit_hotter(x, arr[k - 1])))
		k--;
	if (k < TOP) {
		memmove(&arr[k + 1], &arr[k], (TOP - k - 1) * sizeof(*arr));
		arr[k] = x;
	}
}

static int by_key(const void *x, const void *y)
{
	const struct tally_entry *a = x, *b = y;
	return (a->c > b->c) - (a->c < b->c);
}

static int summary_gen_end(struct view_ctx *c, const struct gen *g)
{
	struct summary_state *s = c->state;
	const struct gen_counts *n = &g->n;
	s->ngens++;
	s->total.traces += n->traces;
	s->total.root += n->root;
	s->total.side += n->side;
	s->total.stitched += n->stitched;
	s->total.orphans += n->orphans;
	s->total.aborts += n->aborts;
	s->total.exits += n->exits;
	s->total.incomplete += n->incomplete;
	gens_printf(s, "  gen %-4u traces %6" PRIu64 " (root %" PRIu64 ", side %" PRIu64
	            ", stitched %" PRIu64 ")  aborts %6" PRIu64 "  exits %7" PRIu64
	            "  bushes %5" PRIu64 "  incomplete %" PRIu64 "\n",
	            g->number, n->traces, n->root, n->side - n->orphans, n->stitched,
	            n->aborts, n->exits, n->bushes, n->incomplete);
	for (const struct bush *b = g->bushes; b; b = b->next)
		keep_bush(s->bushes, (struct top_bush){ g->number, b->root->id, b->dup,
		                                        b->ntraces, b->mcode_bytes });
	size_t ne;
	struct tally_entry *e = tally_entries(&g->exits, &ne);
	qsort(e, ne, sizeof(*e), by_key);       /* stable ties: trace, exit */
	for (size_t i = 0; i < ne; i++) {
		uint32_t ex = EXIT_KEY_EXIT(e[i].c);
		struct top_exit x = { g->number, EXIT_KEY_ID(e[i].c), ex,
		                      e[i].a ? (uint32_t)tally_get(&g->sides, e[i].a, NULL, ex) : 0,
		                      e[i].count };
		keep_exit(s->hot, x);
		if (!x.side)
			keep_exit(s->cold, x);
	}
	free(e);
	size_t ng;
	const struct start **gu = attempts_given_up(&s->attempts, &ng);
	for (size_t i = 0; i < ng; i++) {
		if (gu[i]->later == LATER_YES)
			continue;
		if (s->ngave_up == s->cap) {
			s->cap = s->cap ? s->cap * 2 : 16;
			s->gave_up = xrealloc(s->gave_up, s->cap * sizeof(*s->gave_up));
		}
		s->gave_up[s->ngave_up++] = (struct given_up){ g->number, *gu[i] };
	}
	free(gu);
	attempts_clear(&s->attempts);
	return 0;
}

static void put_loc(FILE *fp, const char *file, int32_t line)
{
	size_t n = intern_len(file);
	for (size_t i = 0; i < n; i++)
		putc(file[i] == '\n' || file[i] == '\r' ? ' ' : file[i], fp);
	if (line != LOC_NO_LINE)
		fprintf(fp, ":%d", line);
}

static void write_summary(struct summary_state *s, FILE *fp, struct view_ctx *c,
                          uint64_t gens, const struct gen_counts *t)
{
	const struct line_counts *l = c->lines;
	fprintf(fp, "dumpanalyze summary of %s\n\n", c->diag->file);
	fprintf(fp, "whole dump: %" PRIu64 " generation%s\n", gens, gens == 1 ? "" : "s");
	fprintf(fp, "  traces compiled   %8" PRIu64 "  (root %" PRIu64 ", side %" PRIu64
	        ", stitched %" PRIu64 ", orphan %" PRIu64 ")\n",
	        t->traces, t->root, t->side - t->orphans, t->stitched, t->orphans);
	fprintf(fp, "  aborted attempts  %8" PRIu64 "\n", t->aborts);
	fprintf(fp, "  flushes           %8" PRIu64 "\n", gens ? gens - 1 : 0);
	fprintf(fp, "  exits taken       %8" PRIu64 "\n", t->exits);
	fprintf(fp, "  incomplete        %8" PRIu64 "\n", t->incomplete);
	fprintf(fp, "  foreign lines     %8" PRIu64 "\n", l ? l->foreign : 0);
	fprintf(fp, "  warnings          %8" PRIu64 "\n", c->diag->warnings);

	fprintf(fp, "\nhow traces end\n");
	static const struct { enum link_kind k; const char *what; } ends[] = {
		{ LINK_LOOP, "loop" }, { LINK_ROOT, "link to a trace" },
		{ LINK_RETURN, "return to the VM" }, { LINK_INTERPRETER, "interpreter (stub)" },
		{ LINK_STITCH, "stitch" }, { LINK_TAIL_RECURSION, "tail-recursion" },
		{ LINK_UP_RECURSION, "up-recursion" }, { LINK_DOWN_RECURSION, "down-recursion" },
		{ LINK_OTHER, "other" },
	};
	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++)
		if (s->links[ends[i].k])
			fprintf(fp, "  %-20s %8" PRIu64 "\n", ends[i].what, s->links[ends[i].k]);

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
		fwrite(r[i].a, 1, intern_len(r[i].a), fp);
		putc('\n', fp);
		for (size_t k = 0, shown = 0; k < ns && shown < 3; k++)
			if (st[k].a == r[i].a) {
				fprintf(fp, "  %8" PRIu64 "      ", st[k].count);
				put_loc(fp, st[k].b, (int32_t)st[k].c);
				putc('\n', fp);
				shown++;
			}
	}
	free(r);
	free(st);

	fprintf(fp, "\nlargest bushes\n");
	if (!s->bushes[0].traces)
		fprintf(fp, "  (none)\n");
	for (size_t i = 0; i < TOP && s->bushes[i].traces; i++) {
		const struct top_bush *b = &s->bushes[i];
		char name[32];
		snprintf(name, sizeof(name), b->dup > 1 ? "%u.%u" : "%u", b->root, b->dup);
		fprintf(fp, "  gen %-4u bush %-10s %6u traces %9" PRIu64 " bytes mcode\n",
		        b->gen, name, b->traces, b->mcode);
	}

	for (int pass = 0; pass < 2; pass++) {
		const struct top_exit *x = pass ? s->cold : s->hot;
		fprintf(fp, pass ? "\nhottest exits without a side trace\n" : "\nhottest exits\n");
		if (!x[0].count)
			fprintf(fp, "  (no exit records: run with -jdump=+x)\n");
		for (size_t i = 0; i < TOP && x[i].count; i++) {
			fprintf(fp, "  gen %-4u exit %6u/%-4u taken %9" PRIu64, x[i].gen, x[i].trace,
			        x[i].exit, x[i].count);
			if (x[i].side)
				fprintf(fp, "  side trace %u", x[i].side);
			putc('\n', fp);
		}
	}

	fprintf(fp, "\nlikely blacklisted (see gen-N-blacklist.csv)\n");
	if (!s->ngave_up)
		fprintf(fp, "  (none)\n");
	for (size_t i = 0; i < s->ngave_up; i++) {
		const struct start *g = &s->gave_up[i].st;
		fprintf(fp, "  gen %-4u ", s->gave_up[i].gen);
		if (g->exit == PARENT_EXIT_NONE) {
			fputs("start ", fp);
			put_loc(fp, g->file, g->line);
		} else if (g->exit == PARENT_EXIT_STITCH) {
			fprintf(fp, "stitch after trace %u", g->parent);
		} else {
			fprintf(fp, "exit %u/%d", g->parent, g->exit);
		}
		fprintf(fp, "  %" PRIu64 " attempts, last: ", g->attempts);
		fwrite(g->last_reason, 1, intern_len(g->last_reason), fp);
		fputs(g->later == LATER_STUB ? "  (now an interpreter stub)\n" : "\n", fp);
	}

	fprintf(fp, "\nper generation\n");
	fwrite(s->gens, 1, s->gens_len, fp);
}

static int summary_finish(struct view_ctx *c)
{
	struct summary_state *s = c->state;
	int r = 0;
	/* Only a run that got to its end has a summary to give. */
	if (c->out && s->ngens) {
		struct outfile *f = outfile_create(c->out, "summary.txt");
		FILE *fp = f ? outfile_fp(f) : NULL;
		if (!fp)
			r = -1;
		else {
			write_summary(s, fp, c, s->ngens, &s->total);
			r = outfile_commit(f);
		}
	}
	tally_free(&s->reasons);
	tally_free(&s->sites);
	attempts_free(&s->attempts);
	free(s->gave_up);
	free(s->gens);
	return r;
}

const struct view view_summary = {
	.name = "summary",
	.summary = "the answers: compiled, aborted, where, hot exits, blacklisting",
	.files = "summary.txt",
	.is_default = 1,
	.state_size = sizeof(struct summary_state),
	.trace = summary_trace,
	.abort = summary_abort,
	.gen_end = summary_gen_end,
	.finish = summary_finish,
};
