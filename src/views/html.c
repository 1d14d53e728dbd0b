/* html.c — the report to open from file:// or a CI artifact: the view's
 * struct and hooks, and the files it writes as the run goes or at its
 * end but for the pages: index-traces.js, every trace's row (which can be
 * 100k), streamed at each generation's end, and source-links.js, the map
 * from places to the source view's pages.  index.html, its first page,
 * is html/index.c's; each generation's page, with its bushes drawn in the
 * browser and a panel per trace and aborted attempt, is html/gen.c's;
 * the trace text it shows, html/text.c's.  Its CSS and JavaScript
 * (src/views/html/) are compiled in.  Text from the dump is escaped for
 * where it goes: HTML text, or a JSON string that the page puts in as
 * text only. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "views/view.h"
#include "outdir/outdir.h"
#include "util/intern.h"
#include "util/tally.h"
#include "analysis/answers.h"
#include "views/html/html.h"
#include "views/source.h"
#include "html_assets.h"       /* made by scripts/embed.sh */

struct html_state {
	struct answers answers;     /* first: the answers_view_* hooks */
	struct outfile *traces;     /* index-traces.js, over all generations */
	struct html_gen gen;        /* the generation being read */
	struct html_text text;      /* its trace text, the run's budget */
	struct tally locs;          /* where traces and attempts start and
	                               abort: (loc as written or NULL for
	                               "file:line", file, line) */
	struct html_gen_lines gen_lines;    /* each generation's last line */
	int assets;                 /* the pages' shared files are written */
};

/* ---- trace rows ------------------------------------------------------- */

/* Times each trace's exits were taken, by the trace's stop order. */
static uint64_t *exits_taken(const struct da_gen *g)
{
	uint64_t *taken = xrealloc(NULL, (g->n.traces + 1) * sizeof(*taken));
	memset(taken, 0, (g->n.traces + 1) * sizeof(*taken));
	size_t ne;
	struct tally_entry *e = tally_entries(gen_exits(g), &ne);
	for (size_t i = 0; i < ne; i++) {
		const struct da_trace *t = e[i].a;
		if (t && t->seq < g->n.traces)
			taken[t->seq] += e[i].count;
	}
	free(e);
	return taken;
}

static int write_trace_rows(struct view_ctx *c, const struct da_gen *g)
{
	struct html_state *s = c->state;
	FILE *fp;
	if (!s->traces) {
		s->traces = outfile_create(c->out, "index-traces.js");
		if (!s->traces || !(fp = outfile_fp(s->traces)))
			return -1;
		fputs("/* dumpanalyze: the trace rows of index.html */\nvar DA_TRACES = [\n", fp);
	}
	if (!(fp = outfile_fp(s->traces)))
		return -1;
	uint64_t *taken = exits_taken(g);
	uint32_t max = 0;
	for (const struct da_trace *t = g->traces; t; t = t->next)
		max = t->id > max ? t->id : max;
	uint32_t *seen = xrealloc(NULL, ((size_t)max + 1) * sizeof(*seen));
	memset(seen, 0, ((size_t)max + 1) * sizeof(*seen));
	for (const struct da_trace *t = g->traces; t; t = t->next) {
		char bush[32];
		html_bush_label(bush, sizeof(bush), t->bush);
		fprintf(fp, "[%u,%u,", g->number, t->id);
		if (t->parent_exit >= 0)
			fprintf(fp, "%u,%d,", t->parent, t->parent_exit);
		else
			fputs("null,null,", fp);
		html_put_json_str(fp, t->file);
		putc(',', fp);
		html_put_json_line(fp, t->line);
		putc(',', fp);
		html_put_json_str(fp, t->link);
		if (t->counts_known)
			fprintf(fp, ",%u,%u,%u,%u,", t->num_bc, t->num_ir, t->num_sn, t->size_mc);
		else
			fputs(",null,null,null,null,", fp);
		/* last: the K-th trace of its number in the generation */
		fprintf(fp, "%" PRIu64 ",\"%s\",%u],\n", t->seq < g->n.traces ? taken[t->seq] : 0, bush,
		        ++seen[t->id]);
	}
	free(seen);
	free(taken);
	return 0;
}

/* A location the generation pages show, for source-links.js. */
static void add_loc(struct html_state *s, const char *loc, const char *file, int32_t line)
{
	if (file && line > 0)
		tally_add(&s->locs, loc, file, line, 1);
}

static int html_trace(struct view_ctx *c, const struct da_trace *t)
{
	struct html_state *s = c->state;
	answers_view_trace(c, t);
	if (t->loc)
		add_loc(s, t->loc, t->file, t->line);
	return html_gen_trace(&s->gen, &s->text, c, t);
}

static int html_abort(struct view_ctx *c, const struct da_abort *r)
{
	struct html_state *s = c->state;
	answers_view_abort(c, r);
	if (r->loc)
		add_loc(s, r->loc, r->file, r->line);
	add_loc(s, NULL, r->start_file, r->start_line);
	return html_gen_abort(&s->gen, &s->text, c, r);
}

/* The files every generation's page loads, written once with the first
 * generation's page (so the pages of a run that stops later, under
 * --strict, still have them): its CSS, its script, and a first
 * source-links.js without links, which the run's end replaces. */
static int write_assets(struct view_ctx *c)
{
	static const struct { const char *name, *text; } assets[] = {
		{ HTML_CSS_FILE, html_css },
		{ HTML_BUSHES_FILE, html_bushes_js },
		{ HTML_LINKS_FILE, "/* dumpanalyze: no source links yet (the run's end writes them) */\n"
		                   "var DA_SOURCE = {};\n" },
	};
	for (size_t i = 0; i < sizeof(assets) / sizeof(assets[0]); i++) {
		struct outfile *f = outfile_create(c->out, assets[i].name);
		if (!f || outfile_write(f, assets[i].text, strlen(assets[i].text)) < 0 ||
		    outfile_commit(f) < 0)
			return -1;
	}
	return 0;
}

static int html_gen_end(struct view_ctx *c, const struct da_gen *g)
{
	struct html_state *s = c->state;
	answers_gen_end(&s->answers, g);
	html_gen_lines_add(&s->gen_lines, g->number, g->last_line);
	if (!s->assets) {
		if (write_assets(c) < 0)
			return -1;
		s->assets = 1;
	}
	if (write_trace_rows(c, g) < 0)
		return -1;
	return html_gen_write(&s->gen, &s->text, c, g);
}

/* ---- source-links.js ------------------------------------------------ */

struct loc_link {
	char *loc;                  /* as the generation pages show it */
	size_t len;
	char href[64];              /* "source-K.html#LN" */
};

static int loc_link_order(const void *x, const void *y)
{
	const struct loc_link *a = x, *b = y;
	int k = memcmp(a->loc, b->loc, a->len < b->len ? a->len : b->len);
	return k ? k : (a->len > b->len) - (a->len < b->len);
}

/* The generation pages' locations that have a source page, as a map
 * DA_SOURCE {"FILE:LINE": "source-K.html#LN"}: the pages are written
 * before the source view has its pages, so they load this at view
 * time.  Keys sorted by bytes: same input, same file. */
static int write_source_links(struct view_ctx *c, struct html_state *s)
{
	struct outfile *f = outfile_create(c->out, HTML_LINKS_FILE);
	FILE *fp = f ? outfile_fp(f) : NULL;
	if (!fp)
		return -1;
	size_t n, m = 0;
	struct tally_entry *e = tally_entries(&s->locs, &n);
	struct loc_link *l = xrealloc(NULL, (n ? n : 1) * sizeof(*l));
	for (size_t i = 0; i < n; i++) {
		const char *file = e[i].b;
		struct loc_link *k = &l[m];
		if (source_page_link(c->set, file, intern_len(file), (int32_t)e[i].c, k->href,
		                     sizeof(k->href)) < 0)
			continue;
		if (e[i].a) {
			k->len = intern_len(e[i].a);
			k->loc = xrealloc(NULL, k->len + 1);
			memcpy(k->loc, e[i].a, k->len);
		} else {
			size_t fl = intern_len(file);
			k->loc = xrealloc(NULL, fl + 32);
			memcpy(k->loc, file, fl);
			k->len = fl + (size_t)snprintf(k->loc + fl, 32, ":%" PRId64, e[i].c);
		}
		m++;
	}
	free(e);
	qsort(l, m, sizeof(*l), loc_link_order);
	fputs("/* dumpanalyze: the source lines of the generation pages' locations */\n"
	      "var DA_SOURCE = {", fp);
	int first = 1;
	for (size_t i = 0; i < m; i++) {
		if (!(i && loc_link_order(&l[i - 1], &l[i]) == 0)) {
			fputs(first ? "\n" : ",\n", fp);
			first = 0;
			html_put_json(fp, l[i].loc, l[i].len);
			fprintf(fp, ":\"%s\"", l[i].href);
		}
	}
	for (size_t i = 0; i < m; i++)
		free(l[i].loc);
	free(l);
	fputs("};\n", fp);
	return outfile_commit(f);
}

static int html_finish(struct view_ctx *c)
{
	struct html_state *s = c->state;
	int r = 0;
	/* Only a run that got to its end has a report. */
	if (c->out && s->answers.ngens) {
		FILE *fp = s->traces ? outfile_fp(s->traces) : NULL;
		if (s->traces && !fp)
			r = -1;
		if (fp) {
			fputs("];\n", fp);
			r = outfile_commit(s->traces);
		}
		if (r == 0)
			r = write_source_links(c, s);
		if (r == 0 && c->sysprof)
			r = html_time_write(c);
		if (r == 0)
			r = html_index_write(c, &s->answers, s->traces != NULL, &s->gen_lines);
	} else if (s->traces) {
		outfile_discard(s->traces);
	}
	answers_free(&s->answers);
	tally_free(&s->locs);
	html_gen_lines_free(&s->gen_lines);
	html_gen_free(&s->gen);
	html_text_free(&s->text);
	return r;
}

/* The report's source lines link to the source view's pages; with a
 * profile of stacks it shows the flame graph. */
static const char *const html_requires[] = { "source", "flamegraph", NULL };

const struct view view_html = {
	.name = "html",
	.files = "index.html index-traces.js source-links.js report.css report-bushes.js gen-N-bushes.html gen-N-bushes.js gen-N-text-K.js",
	.needs = NEEDS_TEXT | NEEDS_FINDINGS,
	.is_default = 0,
	.requires = html_requires,
	.state_size = sizeof(struct html_state),
	.trace = html_trace,
	.abort = html_abort,
	.gen_end = html_gen_end,
	.finish = html_finish,
};
