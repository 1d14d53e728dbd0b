/* source.c — the source view: its struct, and source.txt, every file the
 * dump names ranked (by aborts, samples, traces), each with the lines that
 * have a JIT story and two lines of context around them (like grep -C 2),
 * the story under each line.  The story in words is source_story.c, the
 * report pages source_html.c, the state it shares with the files view
 * source_state.c; the model is source/source_model.c; files are found by
 * source/find.c, never outside the current directory and the
 * --source-root directories. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "views/source.h"
#include "views/source_story.h"
#include "lib/api.h"
#include "outdir/outdir.h"
#include "util/intern.h"
#include "output/termtext.h"

#define CONTEXT 2                   /* lines around a story */
#define FAMILY_SHOWN 3              /* chunks of a family shown in full */

/* ---- source.txt --------------------------------------------------------- */

/* Dump or source text on one line of the text file, escaped by the
 * tool's one rule (output/termtext.h): a terminal escape or a bidi
 * override in a chunk name or a source line is shown, not obeyed. */
static void put_text(FILE *fp, const char *s, size_t n)
{
	term_putn_flags(fp, s, n, TERM_KEEP_TABS);
}

static void txt_text(void *arg, const char *s, size_t n) { put_text(arg, s, n); }
static void txt_link(void *arg, const char *href, const char *s, size_t n)
{
	(void)href;
	put_text(arg, s, n);
}
static void txt_end(void *arg) { fputs("\n               > ", arg); }

/* Source line k (1-based) of a file's text, or NULL past its end. */
struct lines { const char **at; size_t *len, n; };

static void split_lines(struct lines *v, const char *text, size_t len)
{
	memset(v, 0, sizeof(*v));
	size_t cap = 0;
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - text) : len;
		if (v->n == cap) {
			cap = cap ? 2 * cap : 256;
			v->at = xrealloc(v->at, cap * sizeof(*v->at));
			v->len = xrealloc(v->len, cap * sizeof(*v->len));
		}
		size_t n = e - i;
		if (n && text[i + n - 1] == '\r')
			n--;
		v->at[v->n] = text + i;
		v->len[v->n++] = n;
		i = e + 1;
	}
}

static void free_lines(struct lines *v)
{
	free(v->at);
	free(v->len);
}

/* A source line: '*' when it has a story, '|' when a finding's extent
 * holds it, its number and its text. */
static void put_src_line(FILE *fp, const struct lines *v, int32_t k, int story, int extent)
{
	fprintf(fp, "%c%c%6d", story ? '*' : ' ', extent ? '|' : ' ', k);
	if (v && k >= 1 && (size_t)k <= v->n && v->len[k - 1]) {
		fputs("  ", fp);
		put_text(fp, v->at[k - 1], v->len[k - 1]);
	}
	putc('\n', fp);
}

static void put_story(FILE *fp, const struct src_model *m, const struct src_line *l)
{
	struct src_writer w = { txt_text, txt_link, txt_end, NULL };
	static const char indent[] = "               > ";
	size_t n;
	char *buf = source_story(m, l, w, indent, "\n               > ", &n);
	if (buf && n > sizeof(indent) - 1)
		fwrite(buf, 1, n, fp), putc('\n', fp);
	free(buf);
}

/* "12-15, 20, 33": the lines compiled traces hold, as ranges. */
static void put_covered(FILE *fp, const struct src_model *m, const struct src_file *f)
{
	fputs("  lines in compiled traces:", fp);
	int32_t from = 0, to = -2;
	const char *sep = " ";
	for (size_t i = 0; i <= f->nlines; i++) {
		const struct src_line *l = i < f->nlines ? &m->lines[f->lines[i]] : NULL;
		if (l && !l->covered)
			continue;
		if (l && l->line == to + 1) {
			to = l->line;
			continue;
		}
		if (to >= from && to != -2) {
			fprintf(fp, from == to ? "%s%d" : "%s%d-%d", sep, from, to);
			sep = ", ";
		}
		if (l)
			from = to = l->line;
	}
	putc('\n', fp);
}

/* "> finding 1 (blacklisted-loop, lines 20-23, costly): ..." */
static void put_finding_story(FILE *fp, const struct da_finding *x)
{
	fprintf(fp, "               > finding %u (%s, lines %d-%d from the %s, %s", x->rank, x->kind_word,
	        x->line, x->end_line, x->extent_word, x->level_word);
	if (x->costed)
		fprintf(fp, ", %.1f%% of the samples", x->share);
	fputs("): ", fp);
	if (x->advice)
		put_text(fp, x->advice, strlen(x->advice));
	putc('\n', fp);
}

static void put_file(FILE *fp, const struct src_model *m, const struct src_file *f, const char *rank,
                     const da_dump *dump)
{
	fprintf(fp, "\n== %s ", rank);
	put_text(fp, f->name, intern_len(f->name));
	if (f->kind == CHUNK_FILE) {
		fputs(": ", fp);
		put_text(fp, f->shown, strlen(f->shown));
		if (f->ambiguous)
			fprintf(fp, " (over %zu other file%s of that name: its path ends in more of the name)",
			        f->ambiguous, f->ambiguous == 1 ? "" : "s");
	} else if (f->kind == CHUNK_AMBIGUOUS) {
		fprintf(fp, " (ambiguous: %zu files of that name under a --source-root match it "
		        "equally; none is read: give the directory that holds it as an earlier "
		        "--source-root)", f->ambiguous);
	} else {
		fprintf(fp, " (%s%s)", chunk_kind_names[f->kind],
		        f->kind == CHUNK_MISSING ? ": give --source-root DIR to see its text" :
		        f->kind == CHUNK_REFUSED ? ": outside the current directory and the source roots" :
		        f->kind == CHUNK_HIDDEN ? ": through a hidden directory or file, never read "
		                                  "unless given as a --source-root" : "");
	}
	fprintf(fp, "\n  %" PRIu64 " abort%s, %" PRIu64 " aborted attempt%s started, %" PRIu64
	        " trace%s compiled, %" PRIu64 " likely blacklisted",
	        f->aborts, f->aborts == 1 ? "" : "s", f->attempts, f->attempts == 1 ? "" : "s",
	        f->traces, f->traces == 1 ? "" : "s", f->blacklisted);
	if (m->profiled) {
		fputs(", ", fp);
		if (m->percent)
			fprintf(fp, "%" PRIu64 ".%02" PRIu64 "%% of the samples", f->samples / 100, f->samples % 100);
		else
			fprintf(fp, "%" PRIu64 " samples", f->samples);
		if (f->callee_samples)
			fprintf(fp, ", %" PRIu64 " in callees that failed to compile", f->callee_samples);
	}
	putc('\n', fp);
	if (m->annotated && f->covered_lines)
		put_covered(fp, m, f);
	else if (m->annotated)
		fputs("  lines in compiled traces: none\n", fp);
	else
		fputs("  coverage: trace starts, aborts and links only (no \"(file:line)\" in this dump)\n", fp);
	struct lines v, *vp = NULL;
	if (f->kind == CHUNK_FILE) {
		split_lines(&v, f->text, f->len);
		vp = &v;
	}
	/* What to show: each story line with CONTEXT lines around it, and
	 * the whole extent of every finding in this file (lines 'first' to
	 * 'last'), its context too; runs of shown lines are hunks, "--"
	 * between them.  Without the text only the story lines and the
	 * extents' first and last lines. */
	int32_t top = vp ? (int32_t)v.n : 0;
	for (size_t i = 0; i < f->nlines; i++)
		if (m->lines[f->lines[i]].line > top && src_line_notable(&m->lines[f->lines[i]]))
			top = m->lines[f->lines[i]].line;
	size_t nfx = 0;
	const struct da_finding **fx = source_file_findings(dump, f->name, &nfx);
	for (size_t i = 0; i < nfx; i++)
		if (fx[i]->end_line > top)
			top = fx[i]->end_line;
	unsigned char *plan = xrealloc(NULL, (size_t)top + 2);  /* 1 shown, 2 story, 4 extent */
	memset(plan, 0, (size_t)top + 2);
	for (size_t i = 0; i < f->nlines; i++) {
		const struct src_line *l = &m->lines[f->lines[i]];
		if (l->line == LOC_NO_LINE || !src_line_notable(l))
			continue;
		plan[l->line] |= 2;
		for (int32_t k = l->line - CONTEXT; vp && k <= l->line + CONTEXT; k++)
			if (k >= 1 && k <= top)
				plan[k] |= 1;
	}
	for (size_t i = 0; i < nfx; i++) {
		for (int32_t k = fx[i]->line; k <= fx[i]->end_line; k++)
			plan[k] |= 4 | (vp || k == fx[i]->line || k == fx[i]->end_line ? 1 : 0);
		for (int32_t k = fx[i]->line - CONTEXT; vp && k <= fx[i]->end_line + CONTEXT; k++)
			if (k >= 1 && k <= top)
				plan[k] |= 1;
	}
	int any = 0;
	size_t next = 0;            /* the next of f->lines to look at */
	for (int32_t k = 1, last = 0; k <= top; k++) {
		if (!(plan[k] & 3) || (!vp && !(plan[k] & 6)) ||
		    (vp && (size_t)k > v.n && !(plan[k] & 6)))
			continue;
		if (any && k > last + 1)
			fputs("--\n", fp);
		while (next < f->nlines && m->lines[f->lines[next]].line < k)
			next++;
		const struct src_line *o = next < f->nlines && m->lines[f->lines[next]].line == k
		                           ? &m->lines[f->lines[next]] : NULL;
		int story = o && src_line_notable(o);
		put_src_line(fp, vp, k, story, plan[k] & 4);
		if (vp && (size_t)k > v.n && story)
			fputs("               > (past the end of the file: has it changed since the dump?)\n", fp);
		for (size_t i = 0; i < nfx; i++)
			if (fx[i]->line == k)
				put_finding_story(fp, fx[i]);
		if (story)
			put_story(fp, m, o);
		last = k;
		any = 1;
	}
	free(plan);
	free(fx);
	if (!any)
		fputs("  (no line with a story)\n", fp);
	if (vp)
		free_lines(vp);
}

/* A family's stories summed by line over its chunks: "tpl-*", line 10,
 * 487 aborts in 196 chunks. */
enum { SUM_TRACES, SUM_ATTEMPTS, SUM_ABORTS, SUM_BLACKLISTED, SUM_SAMPLES, SUM_CALLEES };
struct line_sum { int32_t line; int kind; const char *reason; uint64_t count, chunks; };

static int by_line_kind(const void *x, const void *y)
{
	const struct line_sum *a = x, *b = y;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (!a->reason || !b->reason)
		return !!a->reason - !!b->reason;
	return strcmp(a->reason, b->reason);
}

static void put_family_lines(FILE *fp, const struct src_model *m, size_t r)
{
	struct line_sum *v = NULL;
	size_t n = 0, cap = 0;
#define SUM(l_, k_, why_, c_) do {                                                  \
		ALLOC_GROW(v, n + 1, cap);                                          \
		v[n++] = (struct line_sum){ (l_)->line, (k_), (why_), (c_), 1 };    \
	} while (0)
	for (size_t k = m->families[r].first; k < m->nfiles; k++) {
		const struct src_file *f = m->ranked[k];
		if (f->family != r)
			continue;
		for (size_t i = 0; i < f->nlines; i++) {
			const struct src_line *l = &m->lines[f->lines[i]];
			if (l->traces)
				SUM(l, SUM_TRACES, NULL, l->traces);
			for (uint32_t j = 0; j < l->nstarted; j++)
				SUM(l, SUM_ATTEMPTS, l->started[j].reason, l->started[j].count);
			for (uint32_t j = 0; j < l->naborted; j++)
				SUM(l, SUM_ABORTS, l->aborted[j].reason, l->aborted[j].count);
			if (l->blacklisted)
				SUM(l, SUM_BLACKLISTED, NULL, l->blacklisted);
			if (l->samples)
				SUM(l, SUM_SAMPLES, NULL, l->samples);
			if (l->callee_samples)
				SUM(l, SUM_CALLEES, NULL, l->callee_samples);
		}
	}
#undef SUM
	if (n)
		qsort(v, n, sizeof(*v), by_line_kind);
	size_t u = 0;
	for (size_t i = 0; i < n; i++) {
		if (u && by_line_kind(&v[u - 1], &v[i]) == 0) {
			v[u - 1].count += v[i].count;
			v[u - 1].chunks++;
		} else {
			v[u++] = v[i];
		}
	}
	static const char *const what[] = {
		[SUM_TRACES] = "compiled traces start here",
		[SUM_ATTEMPTS] = "aborted attempts started here:",
		[SUM_ABORTS] = "aborts here:",
		[SUM_BLACKLISTED] = "times likely blacklisted",
		[SUM_SAMPLES] = "samples",
		[SUM_CALLEES] = "samples in callees that failed to compile",
	};
	fputs("  by line, summed over its chunks:\n", fp);
	for (size_t i = 0; i < u; i++) {
		if (v[i].line == LOC_NO_LINE)
			fputs("         ", fp);
		else
			fprintf(fp, "  %6d ", v[i].line);
		fprintf(fp, " > %" PRIu64 " %s", v[i].count, what[v[i].kind]);
		if (v[i].reason) {
			putc(' ', fp);
			put_text(fp, v[i].reason, intern_len(v[i].reason));
		}
		fprintf(fp, " (in %" PRIu64 " chunk%s)\n", v[i].chunks, v[i].chunks == 1 ? "" : "s");
	}
	free(v);
}

static void write_text(FILE *fp, struct view_ctx *c, const struct src_model *m)
{
	fprintf(fp, "dumpanalyze source view of ");
	put_text(fp, c->name, strlen(c->name));
	fputs("\n\nper source line: traces that start there (compiled, and aborted attempts\n"
	      "with their reasons), aborts there, likely blacklisting, traces that link\n"
	      "to a trace there", fp);
	if (m->annotated)
		fputs(", and the lines compiled traces hold (the dump's bytecode\n"
		      "lines end in \"(file:line)\": OpenResty luajit2) and where they end\n", fp);
	else if (m->has_bytecode)
		fputs(";\nthis LuaJIT writes no \"(file:line)\" after bytecode lines, so the lines\n"
		      "compiled traces hold are not known: only starts, aborts and links\n", fp);
	else
		fputs(";\nthe dump has no bytecode sections (-jdump without b): only starts,\n"
		      "aborts and links\n", fp);
	if (c->profile) {
		fputs("profile: ", fp);
		put_text(fp, c->profile->path, strlen(c->profile->path));
		fputs(m->states ? ", samples per line by VM state" : ", samples per line (no VM states)", fp);
		if (m->stacks)
			fputs(";\nfolded stacks: a caller also gets the samples of its callees at lines\n"
			      "that failed to compile (one caller per sample: the nearest in another\n"
			      "file, else the nearest)", fp);
		putc('\n', fp);
	}
	fputs("'*' marks a line with a story, '>' the story, '|' the lines of a finding's\n"
	      "loop or function (findings.csv); two lines of context\n", fp);

	fputs("\nfiles, ranked by aborts, then samples, then traces\n", fp);
	fputs("  rank   aborts attempts   traces blacklisted", fp);
	if (m->profiled)
		fputs("  samples", fp);
	fputs("  file\n", fp);
	size_t nonfile = 0;
	for (size_t r = 0; r < m->nfamilies; r++) {
		const struct src_family *fam = &m->families[r];
		fprintf(fp, "  %4zu %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %11" PRIu64, r + 1,
		        fam->aborts, fam->attempts, fam->traces, fam->blacklisted);
		if (m->profiled)
			fprintf(fp, " %8" PRIu64, fam->samples);
		fputs("  ", fp);
		put_text(fp, fam->name, fam->len);
		if (fam->members > 1) {
			fprintf(fp, "  (a family of %zu chunks)\n", fam->members);
			continue;
		}
		const struct src_file *f = m->ranked[fam->first];
		if (f->kind == CHUNK_FILE) {
			fputs("  ", fp);
			put_text(fp, f->shown, strlen(f->shown));
		} else {
			fprintf(fp, "  (%s)", chunk_kind_names[f->kind]);
			nonfile++;
		}
		putc('\n', fp);
	}
	if (!m->nfiles)
		fputs("  (none: the dump names no source)\n", fp);
	if (nonfile)
		fprintf(fp, "  %zu name%s no file: string chunks (load() of a string), builtins, or\n"
		        "  files not found under the current directory and --source-root\n",
		        nonfile, nonfile == 1 ? " is" : "s are");
	if (m->nfamilies < m->nfiles)
		fputs("  a family: chunks whose names differ only in a counter at their end\n"
		      "  (tpl-1, tpl-2, ...: one row tpl-*; files.csv sums them too)\n", fp);
	/* Sections in the table's order; of a family its first members. */
	for (size_t r = 0; r < m->nfamilies; r++) {
		const struct src_family *fam = &m->families[r];
		char num[24];
		snprintf(num, sizeof(num), "%zu", r + 1);
		if (fam->members == 1) {
			put_file(fp, m, m->ranked[fam->first], num, c->dump);
			continue;
		}
		fprintf(fp, "\n== %zu ", r + 1);
		put_text(fp, fam->name, fam->len);
		fprintf(fp, " (a family of %zu chunks: %" PRIu64 " aborts, %" PRIu64
		        " aborted attempts started, %" PRIu64 " traces compiled)\n",
		        fam->members, fam->aborts, fam->attempts, fam->traces);
		put_family_lines(fp, m, r);
		fprintf(fp, "  its first %d chunks by rank follow\n", FAMILY_SHOWN);
		size_t shown = 0;
		for (size_t k = fam->first; k < m->nfiles && shown < FAMILY_SHOWN; k++)
			if (m->ranked[k]->family == r) {
				shown++;
				char sub[48];
				snprintf(sub, sizeof(sub), "%zu.%zu", r + 1, shown);
				put_file(fp, m, m->ranked[k], sub, c->dump);
			}
		if (fam->members > shown)
			fprintf(fp, "\n  \u2026 %zu more chunks of this family\n", fam->members - shown);
	}
}

static int source_finish(struct view_ctx *c)
{
	struct source_state *s = source_view_state(c);
	int r = 0;
	if (c->out && s->gens) {
		source_prepare(c, s);
		/* the library's finder, so that a name found ambiguous is
		 * said once, whoever looks it up first */
		s->use = api_source_finder(c->dump);
		if (!s->use) {
			source_finder_init(&s->finder, c->source_roots, c->nsource_roots);
			s->use = &s->finder;
		}
		src_model_read(&s->model, s->use);
		struct outfile *f = outfile_create(c->out, "source.txt");
		FILE *fp = f ? outfile_fp(f) : NULL;
		if (!fp)
			r = -1;
		else {
			write_text(fp, c, &s->model);
			r = outfile_commit(f);
		}
		if (r == 0)
			r = source_write_pages(c, s);
		s->ready = r == 0;
	}
	return r;
}

const struct view view_source = {
	.name = "source",
	.files = "source.txt source-index.html source-K.html",
	.needs = NEEDS_TEXT | NEEDS_FINDINGS,
	.is_default = 0,
	.state_size = sizeof(struct source_state),
	.gen_begin = source_view_gen_begin,
	.trace = source_view_trace,
	.abort = source_view_abort,
	.gen_end = source_view_gen_end,
	.finish = source_finish,
	.release = source_view_release,
};
