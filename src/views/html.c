/* html.c — the report to open from file:// or a CI artifact, and
 * index.html, its first page: the summary as cards, how traces end, the
 * generations, aborts by reason and site, hot exits, likely
 * blacklisting, the largest bushes and every trace.  Its data is JSON
 * inside the page (and the trace rows, which can be 100k, in
 * index-traces.js); its CSS and JavaScript (src/views/html/) are compiled
 * in.  Each generation's page, with its bushes drawn in the browser and
 * a panel per trace and aborted attempt, is html/gen.c's; the trace text
 * it shows, html/text.c's.  Text from the dump is escaped for where it
 * goes: HTML text, or a JSON string that the page puts in as text only. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "views/view.h"
#include "output/outdir.h"
#include "util/intern.h"
#include "util/tally.h"
#include "analysis/answers.h"
#include "analysis/advice.h"
#include "profile/profile_join.h"
#include "util/arena.h"
#include "views/html/html.h"
#include "views/source.h"
#include "html_assets.h"       /* html_js: made by scripts/embed.sh */

struct html_state {
	struct answers answers;     /* first: the answers_view_* hooks */
	struct outfile *traces;     /* index-traces.js, over all generations */
	struct html_gen gen;        /* the generation being read */
	struct html_text text;      /* its trace text, the run's budget */
	struct tally locs;          /* where traces and attempts start and
	                               abort: (loc as written or NULL for
	                               "file:line", file, line) */
};

/* The source page and line of FILE:LINE ("source-3.html#L29") as a
 * JSON string when the source view wrote a page for that file, else
 * null.  The page makes it a link only if it has that form. */
static void put_json_source(FILE *fp, const struct view_set *set, const char *file, int32_t line)
{
	char buf[64];
	if (file && line > 0 && source_page_link(set, file, intern_len(file), line, buf, sizeof(buf)) == 0)
		fprintf(fp, "\"%s\"", buf);
	else
		fputs("null", fp);
}

static void put_json_line(FILE *fp, int32_t line)
{
	if (line == LOC_NO_LINE)
		fputs("null", fp);
	else
		fprintf(fp, "%" PRId32, line);
}

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
		put_json_line(fp, t->line);
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

static int html_gen_end(struct view_ctx *c, const struct da_gen *g)
{
	struct html_state *s = c->state;
	answers_gen_end(&s->answers, g);
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
	struct outfile *f = outfile_create(c->out, "source-links.js");
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

/* ---- index.html ------------------------------------------------------- */

static void put_card(FILE *fp, int *first, const char *what, uint64_t n)
{
	fprintf(fp, "%s[\"%s\",%" PRIu64 "]", *first ? "" : ",", what, n);
	*first = 0;
}

/* Sites sorted by file name, line, then reason by count: one JSON row
 * per file and line with its reasons. */
static int site_order(const void *x, const void *y)
{
	const struct tally_entry *a = x, *b = y;
	size_t na = intern_len(a->b), nb = intern_len(b->b);
	int k = memcmp(a->b, b->b, na < nb ? na : nb);
	if (k || na != nb)
		return k ? k : (na < nb ? -1 : 1);
	if (a->c != b->c)
		return a->c < b->c ? -1 : 1;
	return tally_by_count(x, y);
}

/* "advice": each normal reason's line of meaning and what to try. */
static void put_advice(FILE *fp, const struct answers *a, const struct tally_entry *e, size_t n)
{
	struct tally seen = { 0 };
	fputs(",\n\"advice\":[", fp);
	for (size_t i = 0; i < n; i++) {
		const struct site_extra *x = &a->site_extra[e[i].first];
		if (tally_get(&seen, x->reason_normal, NULL, 0))
			continue;
		char buf[512];
		size_t len = advice_line(x->reason_normal, intern_len(x->reason_normal), x->error,
		                         buf, sizeof(buf));
		fputs(seen.count ? ",\n[" : "\n[", fp);
		tally_add(&seen, x->reason_normal, NULL, 0, 1);
		html_put_json_str(fp, x->reason_normal);
		putc(',', fp);
		html_put_json(fp, buf, len);
		putc(']', fp);
	}
	fputs("]", fp);
	tally_free(&seen);
}

static void put_sites(FILE *fp, const struct answers *a, const struct view_set *set)
{
	size_t n;
	struct tally_entry *e = tally_entries(&a->sites, &n);
	qsort(e, n, sizeof(*e), site_order);
	fputs("\"sites\":[", fp);
	for (size_t i = 0; i < n;) {
		size_t k = i;
		uint64_t total = 0;
		while (k < n && e[k].b == e[i].b && e[k].c == e[i].c)
			total += e[k++].count;
		fputs(i ? ",\n[" : "\n[", fp);
		html_put_json_str(fp, e[i].b);
		putc(',', fp);
		put_json_line(fp, (int32_t)e[i].c);
		fprintf(fp, ",%" PRIu64 ",[", total);
		for (size_t j = i; j < k; j++) {
			/* [reason, count, normal, error, last bytecode, dump line,
			 * its generation] */
			const struct site_extra *x = &a->site_extra[e[j].first];
			fputs(j > i ? ",[" : "[", fp);
			html_put_json_str(fp, e[j].a);
			fprintf(fp, ",%" PRIu64 ",", e[j].count);
			html_put_json_str(fp, x->reason_normal);
			putc(',', fp);
			if (x->error)
				html_put_json(fp, x->error, strlen(x->error));
			else
				fputs("null", fp);
			putc(',', fp);
			if (x->nbytecode)
				html_put_json_str(fp, x->bytecode[x->nbytecode - 1]);
			else
				fputs("null", fp);
			fprintf(fp, ",%" PRIu64 ",%u]", x->last_line, x->last_gen);
		}
		/* last: the source page's line, or null */
		fputs("],", fp);
		put_json_source(fp, set, e[i].b, (int32_t)e[i].c);
		putc(']', fp);
		i = k;
	}
	fputs("]", fp);
	put_advice(fp, a, e, n);
	free(e);
}

static void put_where(FILE *fp, const struct start *st)
{
	char buf[64];
	if (st->exit == PARENT_EXIT_NONE) {
		html_put_json_loc(fp, st->file, st->line);
		return;
	}
	if (st->exit == PARENT_EXIT_STITCH)
		snprintf(buf, sizeof(buf), "stitch after trace %u", st->parent);
	else
		snprintf(buf, sizeof(buf), "exit %u/%d", st->parent, st->exit);
	html_put_json(fp, buf, strlen(buf));
}

/* With --profile: the joined lines (profile-lines.csv's rows) and what
 * to know about the profile. */
static void put_profile(FILE *fp, const struct answers *a, struct view_ctx *c)
{
	const struct profile *p = c->profile;
	struct join j;
	join_build(&j, a, p);
	fputs(",\n\"profile\":{\"path\":", fp);
	html_put_json(fp, p->path, strlen(p->path));
	fprintf(fp, ",\"total\":%" PRIu64 ",\"percent\":%d,\"states\":%d,\"thresholded\":%d,"
	        "\"unmatched\":%" PRIu64 ",\"lines\":%" PRIu64 ",\"flamegraph\":%d,\"rows\":[",
	        p->total, p->percent, p->states, p->thresholded, j.unmatched_lines, j.profile_lines,
	        p->kind == PROFILE_STACKS && view_set_has(c->set, "flamegraph"));
	static const int cols[] = { VM_INTERPRETED, VM_COMPILED, VM_C, VM_GC, VM_JIT };
	for (size_t i = 0; i < j.n; i++) {
		const struct joined_line *r = &j.rows[i];
		fputs(i ? ",\n[" : "\n[", fp);
		html_put_json(fp, r->file, r->file_len);
		putc(',', fp);
		put_json_line(fp, r->line);
		fprintf(fp, ",%" PRIu64, r->samples);
		for (size_t k = 0; k < sizeof(cols) / sizeof(cols[0]); k++)
			if (p->states)
				fprintf(fp, ",%" PRIu64, r->state[cols[k]]);
			else
				fputs(",null", fp);
		fprintf(fp, ",%" PRIu64 ",", r->aborts);
		if (r->top_reason)
			html_put_json_str(fp, r->top_reason);
		else
			fputs("\"\"", fp);
		fprintf(fp, ",%" PRIu64 ",%" PRIu64 ",", r->started, r->blacklisted);
		/* last: the source page's line, or null */
		char href[64];
		if (r->line > 0 && source_page_link(c->set, r->file, r->file_len, r->line, href,
		                                    sizeof(href)) == 0)
			fprintf(fp, "\"%s\"]", href);
		else
			fputs("null]", fp);
	}
	fputs("]}", fp);
	join_free(&j);
}

static void put_data(FILE *fp, const struct html_state *s, struct view_ctx *c)
{
	const struct answers *a = &s->answers;
	const struct da_counts *t = &a->total;
	int first = 1;
	fputs("{\"cards\":[", fp);
	put_card(fp, &first, "traces compiled", t->traces);
	put_card(fp, &first, "root traces", t->root);
	put_card(fp, &first, "side traces", t->side - t->orphans);
	put_card(fp, &first, "stitched", t->stitched);
	put_card(fp, &first, "aborted attempts", t->aborts);
	put_card(fp, &first, "exits taken", t->exits);
	put_card(fp, &first, "bushes", t->bushes);
	put_card(fp, &first, "generations", a->ngens);
	put_card(fp, &first, "flushes", a->ngens ? a->ngens - 1 : 0);
	put_card(fp, &first, "likely blacklisted", a->ngave_up);
	put_card(fp, &first, "incomplete", t->incomplete);
	put_card(fp, &first, "foreign lines", c->lines ? c->lines->foreign : 0);
	put_card(fp, &first, "warnings", da_warnings(c->dump));
	fputs("],\n\"links\":[", fp);
	first = 1;
	for (size_t i = 0; i < answers_nlink_ends; i++)
		if (a->links[answers_link_ends[i].kind])
			put_card(fp, &first, answers_link_ends[i].what, a->links[answers_link_ends[i].kind]);
	fputs("],\n\"gens\":[", fp);
	for (size_t i = 0; i < a->ngens; i++) {
		const struct da_counts *n = &a->gens[i].n;
		fprintf(fp, "%s[%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		        ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]", i ? ",\n" : "\n", a->gens[i].number,
		        n->traces, n->root, n->side - n->orphans, n->stitched, n->aborts,
		        n->exits, n->bushes, n->incomplete);
	}
	fputs("],\n", fp);
	put_sites(fp, a, c->set);
	fputs(",\n\"exits\":[", fp);
	for (size_t i = 0; i < ANSWERS_TOP && a->hot[i].count; i++) {
		const struct top_exit *x = &a->hot[i];
		fprintf(fp, "%s[%u,%u,%u,%" PRIu64 ",", i ? "," : "", x->gen, x->trace, x->exit, x->count);
		if (x->side)
			fprintf(fp, "%u,", x->side);
		else
			fputs("null,", fp);
		html_put_json_loc(fp, x->file, x->line);
		putc(',', fp);
		put_json_source(fp, c->set, x->file, x->line);
		putc(']', fp);
	}
	fputs("],\n\"blacklist\":[", fp);
	for (size_t i = 0; i < a->ngave_up; i++) {
		const struct start *st = &a->gave_up[i].st;
		fprintf(fp, "%s[%u,", i ? ",\n" : "\n", a->gave_up[i].gen);
		put_where(fp, st);
		fprintf(fp, ",%" PRIu64 ",", st->attempts);
		html_put_json_str(fp, st->last_reason);
		fprintf(fp, ",\"%s%s\",", st->later == LATER_STUB ? "interpreter stub" : "not compiled",
		        diagnose_is_mcode(st->last_reason) ? " (flush side effect)" : "");
		html_put_json_loc(fp, a->gave_up[i].file, a->gave_up[i].line);
		/* the source lines of "where" and of the parent's start */
		putc(',', fp);
		if (st->exit == PARENT_EXIT_NONE)
			put_json_source(fp, c->set, st->file, st->line);
		else
			fputs("null", fp);
		putc(',', fp);
		put_json_source(fp, c->set, a->gave_up[i].file, a->gave_up[i].line);
		putc(']', fp);
	}
	fputs("],\n\"bushes\":[", fp);
	for (size_t i = 0; i < ANSWERS_TOP && a->bushes[i].traces; i++) {
		const struct top_bush *b = &a->bushes[i];
		char label[32];
		snprintf(label, sizeof(label), b->dup > 1 ? "%u.%u" : "%u", b->root, b->dup);
		fprintf(fp, "%s[%u,\"%s\",%u,%" PRIu64 ",", i ? "," : "", b->gen, label, b->traces, b->mcode);
		html_put_json_loc(fp, b->file, b->line);
		putc(',', fp);
		put_json_source(fp, c->set, b->file, b->line);
		putc(']', fp);
	}
	fputs("],\n\"diagnoses\":[", fp);
	char **dl;
	size_t nd = diagnose_lines(&a->diag, a->ngave_up, a->nmcode_gave_up, &dl);
	for (size_t i = 0; i < nd; i++) {
		if (i)
			putc(',', fp);
		html_put_json(fp, dl[i], strlen(dl[i]));
	}
	diagnose_lines_free(dl, nd);
	fputs("]", fp);
	if (c->profile)
		put_profile(fp, a, c);
	fputs("}\n", fp);
}

static const char index_body[] =
	"<nav><a href=\"#overview\">overview</a><a href=\"#aborts\">aborts</a>"
	"<a href=\"#exits-section\">exits</a><a href=\"#bushes-section\">bushes</a>"
	"<a href=\"#traces-section\">traces</a><a id=\"source-index\" href=\"source-index.html\">source files</a></nav>\n</header>\n<main>\n"
	"<noscript><p>The tables of this report need JavaScript; summary.txt and the CSV files hold the same numbers.</p></noscript>\n"
	"<section id=\"overview\">\n<h2>Overview</h2>\n<div class=\"cards\" id=\"cards\"></div>\n"
	"<h3>Diagnoses</h3>\n<ul id=\"diagnoses\"></ul>\n"
	"<h3>How traces end</h3>\n<table id=\"links\"></table>\n"
	"<h3>Generations</h3>\n<p class=\"muted\">Traces (dark) and aborted attempts (red) per generation; "
	"a generation ends at a flush.</p>\n<svg class=\"timeline\" id=\"timeline\" width=\"100%\" height=\"140\" "
	"preserveAspectRatio=\"none\"></svg>\n<table id=\"gens\"></table>\n</section>\n"
	"<section id=\"aborts\">\n<h2>Aborts</h2>\n<p><input type=\"search\" id=\"abort-filter\" "
	"placeholder=\"filter by file\" aria-label=\"filter aborts by file\"></p>\n"
	"<h3>By reason</h3>\n<table id=\"reasons\"></table>\n"
	"<h3>By site</h3>\n<table id=\"sites\"></table>\n"
	"<h3>Likely blacklisted</h3>\n<table id=\"blacklist\"></table>\n</section>\n"
	"<section id=\"profile-section\" hidden>\n<h2>Where JIT failures cost time</h2>\n"
	"<p class=\"muted\" id=\"profile-about\"></p>\n<ul id=\"profile-notes\"></ul>\n"
	"<p><input type=\"search\" id=\"profile-filter\" placeholder=\"filter by file\" "
	"aria-label=\"filter profiled lines by file\"></p>\n<table id=\"profile\"></table>\n"
	"<p id=\"flamegraph\" hidden><a href=\"flamegraph.svg\"><img "
	"alt=\"flame graph of the profile\" style=\"max-width:100%\"></a></p>\n</section>\n"
	"<section id=\"exits-section\">\n<h2>Hot exits</h2>\n<p class=\"muted\">The most taken exits "
	"(-jdump=+x), with the side trace compiled there if there is one.</p>\n<table id=\"exits\"></table>\n</section>\n"
	"<section id=\"bushes-section\">\n<h2>Largest bushes</h2>\n<p class=\"muted\">Each links to its "
	"generation's page, where it is drawn and each trace has a panel.</p>\n<table id=\"bushes\"></table>\n</section>\n"
	"<section id=\"traces-section\">\n<h2>Traces</h2>\n<p><input type=\"search\" id=\"trace-filter\" "
	"placeholder=\"filter by file\" aria-label=\"filter traces by file\"></p>\n<table id=\"traces\"></table>\n"
	"</section>\n</main>\n";

static int write_index(struct view_ctx *c, struct html_state *s)
{
	struct outfile *f = outfile_create(c->out, "index.html");
	FILE *fp = f ? outfile_fp(f) : NULL;
	if (!fp)
		return -1;
	html_page_head(fp, "JIT report", c->name);
	fputs(index_body, fp);
	fputs("<script type=\"application/json\" id=\"da-data\">\n", fp);
	put_data(fp, s, c);
	fputs("</script>\n", fp);
	if (s->traces)
		fputs("<script src=\"index-traces.js\"></script>\n", fp);
	fputs("<script>\n", fp);
	fputs(html_js, fp);
	fputs("</script>\n</body>\n</html>\n", fp);
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
			r = write_index(c, s);
	} else if (s->traces) {
		outfile_discard(s->traces);
	}
	answers_free(&s->answers);
	tally_free(&s->locs);
	html_gen_free(&s->gen);
	html_text_free(&s->text);
	return r;
}

/* The report's source lines link to the source view's pages. */
static const char *const html_requires[] = { "source", NULL };

const struct view view_html = {
	.name = "html",
	.summary = "a report to open in a browser: bushes drawn in it, a panel per trace",
	.files = "index.html index-traces.js source-links.js gen-N-bushes.html gen-N-bushes.js gen-N-text-K.js",
	.readme = "a report to open in a browser: bushes drawn in the page (zoom and pan), "
	          "a panel per trace and aborted attempt with the dump's text; brings the `source` view "
	          "along, and abort sites, blacklisting, exits, bushes, profiled lines and panels link to the source lines",
	.man =
		".BR index.html ,\n"
		".BR index\\-traces.js ,\n"
		".BR source\\-links.js ,\n"
		".BI gen\\- N \\-bushes.html ,\n"
		".BI gen\\- N \\-bushes.js ,\n"
		".BI gen\\- N \\-text\\- K .js :\n"
		"a report for a browser, self-contained (its CSS and\n"
		"JavaScript are inside the page; no network) and opened from\n"
		".BR file:// .\n"
		".B index.html\n"
		"holds the summary numbers, how traces end, the traces and aborts of each\n"
		"generation, aborts by reason and by site (a filter by file narrows both),\n"
		"likely blacklisting, the hottest exits with their side traces, the largest\n"
		"bushes, and every trace (generation, id, parent and exit, file, line,\n"
		"link, bytecode, IR and snapshot counts, mcode bytes, exits taken) in a\n"
		"table of 200-row pages.\n"
		"Every table sorts on a click on a column header.\n"
		"The trace rows are in\n"
		".BR index\\-traces.js ,\n"
		"which the page loads.\n"
		".BI gen\\- N \\-bushes.html\n"
		"draws the bushes of generation\n"
		".IR N ,\n"
		"largest first, from the tidy-tree layout of the pictures in\n"
		".BI gen\\- N \\-bushes.js\n"
		"(only the bushes on screen are drawn); a bush opens full size, to zoom\n"
		"with the wheel or the buttons and pan by dragging.\n"
		"A click on a trace opens its panel: where it starts, its parent, its exits\n"
		"with the times taken and the side traces grown from them, its link, and\n"
		"its bytecode, IR, snapshots and machine code as the dump wrote them.\n"
		"Each aborted attempt has a panel too, with its reason and the bytecode it\n"
		"recorded (the text of the first attempt at each abort site, same place and\n"
		"reason, is kept; later attempts there link to it).\n"
		"Addresses:\n"
		".BI gen\\- G \\-bushes.html#trace\\- T\n"
		"(\n"
		".BI #trace\\- T \\- K\n"
		"for the\n"
		".IR K -th\n"
		"trace numbered\n"
		".I T\n"
		"in the generation),\n"
		".BI #bush\\- R\n"
		"and\n"
		".BI #abort\\- L\n"
		"(the dump line of the abort).\n"
		"The trace text is gzip-compressed in chunks of about 256 KB,\n"
		".BI gen\\- N \\-text\\- K .js ,\n"
		"loaded when a panel needs it; a run keeps text in dump order, all of it\n"
		"until its chunks reach 12 MB, then without the machine code until they\n"
		"reach 24 MB, and a panel of a trace past that names its lines\n"
		"in the dump and the\n"
		".B sed\n"
		"command that prints them\n"
		"(the\n"
		".B bush\\-txt\n"
		"view writes all of it).\n"
		"Text from the dump is escaped for where it goes (HTML text, or JSON that\n"
		"the page inserts as text only), so a chunk name such as\n"
		".B <script>\n"
		"is shown, never run.\n"
		"The view brings the\n"
		".B source\n"
		"view along (its files are written too): on\n"
		".BR index.html ,\n"
		"the line of each abort site, the places of each likely\n"
		"blacklisting row, hot exit and largest bush, and (with\n"
		".BR \\-\\-profile )\n"
		"each profiled line link to\n"
		".BI source\\- K .html#L N\n"
		"when the file was found (see\n"
		".BR \\-\\-source\\-root ),\n"
		"and the page links\n"
		".BR source\\-index.html ;\n"
		"in a generation page's panels, where a trace starts and where an\n"
		"attempt started and aborted link to their source lines through\n"
		".BR source\\-links.js ,\n"
		"a map written when the run ends.\n"
		"A link is made only from the form the source view writes, never\n"
		"from text in the dump.\n"
		".B index.html\n"
		"is written when the run ends; a run that fails leaves none.\n",
	.needs = NEEDS_TEXT,
	.is_default = 0,
	.requires = html_requires,
	.state_size = sizeof(struct html_state),
	.trace = html_trace,
	.abort = html_abort,
	.gen_end = html_gen_end,
	.finish = html_finish,
};
