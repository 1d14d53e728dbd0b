/* source_html.c — the source view's report pages: source-K.html, each
 * file read shown whole with its JIT story in a gutter and under its
 * lines (anchors #L1 ...; links to the report's traces and aborted
 * attempts) and the library's findings marked over their whole extent,
 * each named by its rank under its first line (#finding-R) and linked
 * back to the report; and source-index.html, every file and chunk the
 * dump names.
 * Static HTML without scripts; every byte from the dump or a source file
 * is escaped. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "views/source.h"
#include "views/source_story.h"
#include "views/html/html.h"
#include "outdir/outdir.h"
#include "util/intern.h"

static const char page_css[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fff}"
	"header{padding:12px 20px;border-bottom:1px solid #ddd;background:#f6f7f9}"
	"header h1{font-size:18px;margin:4px 0}header p{margin:4px 0;color:#444}"
	"nav a{margin-right:12px}"
	"table.src{border-collapse:collapse;font:13px/1.45 ui-monospace,Menlo,Consolas,monospace;width:100%}"
	"table.src td{padding:0 8px;vertical-align:top}"
	"td.n{text-align:right;color:#888;user-select:none;width:1%;white-space:nowrap}"
	"td.n a{color:inherit;text-decoration:none}"
	"td.g{width:1%;white-space:nowrap;color:#555;user-select:none}"
	"td.c{white-space:pre-wrap;word-break:break-all;width:auto}"
	"tr.story td.c{background:#fff7e0}tr.fail td.c{background:#fde8e8}"
	"tr.cov td.n{border-left:4px solid #4caf50}"
	"tr:target td{background:#fff3a8!important}"
	"tr.ann td{padding-bottom:4px}tr.ann ul{margin:0 0 2px 0;padding:2px 10px;list-style:none;"
	"font:12px/1.45 system-ui,sans-serif;border-left:3px solid #e0a800;background:#fffbea}"
	"tr.ann.fail ul{border-left-color:#d33;background:#fff1f1}"
	"span.b{display:inline-block;min-width:2.2em;margin-right:2px;border-radius:3px;padding:0 3px;"
	"font:11px/1.5 system-ui,sans-serif;text-align:center}"
	"span.t{background:#dff3df}span.a{background:#f9d5d5}span.x{background:#333;color:#fff}"
	"span.s{background:#dde7fb}span.k{background:#efe0fb}"
	"table.idx{border-collapse:collapse;margin:12px 20px}table.idx td,table.idx th{padding:2px 10px;"
	"border-bottom:1px solid #eee;text-align:right}table.idx td.f,table.idx th.f{text-align:left}"
	"main{padding:0 0 40px}p.note{margin:12px 20px;color:#444}"
	"td.c{border-left:4px solid transparent;padding-left:16px!important}tr.ext td.c{border-left-color:#c0392b}"
	"tr.x2 td.c{box-shadow:inset 3px 0 #fff,inset 6px 0 #c0392b}"
	"tr.x3 td.c{box-shadow:inset 3px 0 #fff,inset 6px 0 #c0392b,inset 9px 0 #fff,inset 12px 0 #c0392b}"
	"span.f{background:#c0392b;color:#fff}span.cz{background:#f3c98b}"
	"tr.finding td{padding:2px 8px 6px}tr.finding div{font:13px/1.45 system-ui,sans-serif;"
	"border:1px solid #c0392b;border-left-width:4px;background:#fff5f3;padding:4px 10px}"
	"span.fr{font-weight:bold}tr.finding:target div{outline:3px solid #e6a700}tr{scroll-margin-top:5em}";

/* Text between tags or in a quoted attribute (tabs kept: source code). */
static void put_html(FILE *fp, const char *s, size_t n)
{
	html_put_text(fp, s, n);
}

static void put_str(FILE *fp, const char *s) { put_html(fp, s, strlen(s)); }
static void put_interned(FILE *fp, const char *s) { put_html(fp, s, intern_len(s)); }

static void html_text(void *arg, const char *s, size_t n) { put_html(arg, s, n); }
static void html_link(void *arg, const char *href, const char *s, size_t n)
{
	fputs("<a href=\"", arg);
	put_str(arg, href);
	fputs("\">", arg);
	put_html(arg, s, n);
	fputs("</a>", arg);
}
static void html_end(void *arg) { fputs("</li><li>", arg); }

static void page_head(FILE *fp, const char *title, size_t tn)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n<title>", fp);
	put_html(fp, title, tn);
	fprintf(fp, "</title>\n<style>%s</style></head>\n<body>\n", page_css);
}

static int line_fails(const struct src_line *l)
{
	return l->aborts || l->attempts || l->blacklisted || l->callee_samples;
}

/* The gutter: short badges, the words are in the row below. */
static void put_badges(FILE *fp, const struct src_model *m, const struct src_line *l)
{
	if (l->traces)
		fprintf(fp, "<span class=\"b t\" title=\"compiled traces start here\">\u25b6%" PRIu64 "</span>", l->traces);
	if (l->aborts || l->attempts)
		fprintf(fp, "<span class=\"b a\" title=\"aborts here / aborted attempts started here\">\u2717%" PRIu64 "</span>",
		        l->aborts + l->attempts);
	if (l->blacklisted)
		fputs("<span class=\"b x\" title=\"likely blacklisted\">BL</span>", fp);
	if (l->samples && !m->percent)
		fprintf(fp, "<span class=\"b s\" title=\"samples\">%" PRIu64 "</span>", l->samples);
	if (l->callee_samples)
		fprintf(fp, "<span class=\"b k\" title=\"samples in callees that failed to compile\">+%" PRIu64 "</span>",
		        l->callee_samples);
}

static void put_story(FILE *fp, const struct src_model *m, const struct src_line *l)
{
	struct src_writer w = { html_text, html_link, html_end, NULL };
	/* Each annotation ends with "</li><li>" */
	size_t n;
	char *buf = source_story(m, l, w, "", "</li><li>", &n);
	if (!buf)
		return;
	fprintf(fp, "<tr class=\"ann%s\"><td></td><td></td><td><ul><li>", line_fails(l) ? " fail" : "");
	fwrite(buf, 1, n, fp);
	fputs("</li></ul></td></tr>\n", fp);
	free(buf);
}

/* The findings (the library's list) among a page's lines: the extent of
 * each marked, its start named in a row under it and linked back to the
 * report when the run has one. */
struct page_findings {
	const struct da_finding **v;
	size_t n;
	int report;                 /* the html view is in the run */
};

/* How many findings' extents hold the line (a bar each, nested). */
static int in_extent(const struct page_findings *pf, int32_t ln)
{
	int n = 0;
	for (size_t i = 0; i < pf->n; i++)
		n += pf->v[i]->line <= ln && ln <= pf->v[i]->end_line;
	return n;
}

/* A line of extents: which findings hold it, for the eye (title) and
 * for scripts (data-findings="1 7"). */
static void put_extent_attrs(FILE *fp, const struct page_findings *pf, int32_t ln)
{
	const char *sep = "";
	fputs(" data-findings=\"", fp);
	for (size_t i = 0; i < pf->n; i++)
		if (pf->v[i]->line <= ln && ln <= pf->v[i]->end_line) {
			fprintf(fp, "%s%u", sep, pf->v[i]->rank);
			sep = " ";
		}
	fputs("\" title=\"", fp);
	sep = "";
	for (size_t i = 0; i < pf->n; i++)
		if (pf->v[i]->line <= ln && ln <= pf->v[i]->end_line) {
			fprintf(fp, "%sfinding %u (lines %d-%d)", sep, pf->v[i]->rank, pf->v[i]->line,
			        pf->v[i]->end_line);
			sep = ", ";
		}
	putc('"', fp);
}

static void put_finding_badges(FILE *fp, const struct page_findings *pf, const char *name,
                               int32_t ln)
{
	for (size_t i = 0; i < pf->n; i++) {
		const struct da_finding *x = pf->v[i];
		if (x->line == ln)
			fprintf(fp, "<span class=\"b f\" title=\"finding %u starts here (lines %d-%d)\">"
			        "#%u</span>", x->rank, x->line, x->end_line, x->rank);
		if (x->cause_file && x->cause_line == ln && strcmp(x->cause_file, name) == 0 &&
		    !(x->at_file && x->at_line == ln && strcmp(x->at_file, name) == 0))
			fprintf(fp, "<span class=\"b cz\" title=\"the code that causes finding %u\">"
			        "cause #%u</span>", x->rank, x->rank);
	}
}

/* "finding 1 · blacklisted-loop · costly · lines 19-29 (from the
 * source) · 16.44% of the samples: advice · in the report" */
static void put_finding_rows(FILE *fp, const struct page_findings *pf, int32_t ln)
{
	for (size_t i = 0; i < pf->n; i++) {
		const struct da_finding *x = pf->v[i];
		if (x->line != ln)
			continue;
		fprintf(fp, "<tr class=\"finding\" id=\"finding-%u\"><td></td><td></td><td><div><span class=\"fr\">finding %u</span> "
		        "\u00b7 ", x->rank, x->rank);
		put_str(fp, x->kind_word);
		fputs(" \u00b7 ", fp);
		put_str(fp, x->level_word);
		fprintf(fp, " \u00b7 lines %d\u2013%d (from the ", x->line, x->end_line);
		put_str(fp, x->extent_word);
		fputs(")", fp);
		if (x->costed)
			fprintf(fp, " \u00b7 %.2f%% of the samples", x->share);
		if (x->reason) {
			fputs(" \u00b7 ", fp);
			put_str(fp, x->reason);
			fprintf(fp, " in %" PRIu64 " of %" PRIu64 " attempts", x->reason_attempts, x->attempts);
		}
		if (x->advice) {
			fputs("<br>", fp);
			put_str(fp, x->advice);
		}
		if (pf->report)
			fprintf(fp, " <a href=\"index.html#finding-%u\">finding %u in the report</a>", x->rank,
			        x->rank);
		fputs("</div></td></tr>\n", fp);
	}
}

/* "Findings here: #1 lines 19-29, #4 lines 67-71" */
static void put_finding_list(FILE *fp, const struct page_findings *pf)
{
	if (!pf->n)
		return;
	fputs("<p>Red bar: the lines of a finding's loop or function (findings.csv). Findings here:", fp);
	for (size_t i = 0; i < pf->n; i++)
		fprintf(fp, "%s <a href=\"#finding-%u\">#%u</a> lines %d\u2013%d", i ? "," : "",
		        pf->v[i]->rank, pf->v[i]->rank, pf->v[i]->line, pf->v[i]->end_line);
	fputs(".</p>", fp);
}

static int write_page(struct view_ctx *c, const struct src_model *m, const struct src_file *f,
                      size_t rank)
{
	char name[48];
	snprintf(name, sizeof(name), "source-%u.html", f->page);
	struct outfile *of = outfile_create(c->out, name);
	FILE *fp = of ? outfile_fp(of) : NULL;
	if (!fp)
		return -1;
	page_head(fp, f->name, intern_len(f->name));
	fputs("<header><nav><a href=\"source-index.html\">all source files</a>"
	      "<a href=\"index.html\">report</a></nav>\n<h1>", fp);
	put_interned(fp, f->name);
	fprintf(fp, "</h1>\n<p>rank %zu \u00b7 read from <code>", rank);
	put_str(fp, f->shown);
	fprintf(fp, "</code> \u00b7 %" PRIu64 " aborts, %" PRIu64 " aborted attempts started, %" PRIu64
	        " traces compiled, %" PRIu64 " likely blacklisted", f->aborts, f->attempts, f->traces,
	        f->blacklisted);
	if (m->profiled && !m->percent)
		fprintf(fp, ", %" PRIu64 " samples", f->samples);
	fputs("</p>\n<p>", fp);
	if (m->annotated)
		fputs("Green bar: a line compiled traces hold (the dump's bytecode lines end in "
		      "<code>(file:line)</code>).", fp);
	else
		fputs("This dump shows where traces start and abort; which lines compiled traces hold "
		      "is not known (only OpenResty luajit2 writes <code>(file:line)</code> after "
		      "bytecode lines).", fp);
	if (f->ambiguous)
		fprintf(fp, " Read over %zu other file%s of this name: its path ends in more of the name.",
		        f->ambiguous, f->ambiguous == 1 ? "" : "s");
	fputs("</p>", fp);
	struct page_findings pf = { NULL, 0, view_set_has(c->set, "html") };
	pf.v = source_file_findings(c->dump, f->name, &pf.n);
	put_finding_list(fp, &pf);
	fputs("</header>\n<main><table class=\"src\"><tbody>\n", fp);

	size_t k = 0, nsrc = 0;
	for (size_t i = 0, ln = 1; i <= f->len; ln++) {
		const char *nl = i < f->len ? memchr(f->text + i, '\n', f->len - i) : NULL;
		size_t e = nl ? (size_t)(nl - f->text) : f->len;
		if (!nl && e == i && i == f->len && ln > 1)
			break;              /* the newline ending the last line */
		while (k < f->nlines && m->lines[f->lines[k]].line < (int32_t)ln)
			k++;
		const struct src_line *l = k < f->nlines && m->lines[f->lines[k]].line == (int32_t)ln
		                           ? &m->lines[f->lines[k]] : NULL;
		int story = l && src_line_notable(l), ext = in_extent(&pf, (int32_t)ln);
		fprintf(fp, "<tr id=\"L%zu\"", ln);
		if (story || (l && l->covered) || ext)
			fprintf(fp, " class=\"%s%s%s%s\"", story ? "story" : "",
			        story && line_fails(l) ? " fail" : "", l && l->covered ? " cov" : "",
			        ext ? ext > 2 ? " ext x3" : ext > 1 ? " ext x2" : " ext" : "");
		if (ext)
			put_extent_attrs(fp, &pf, (int32_t)ln);
		fprintf(fp, "><td class=\"n\"><a href=\"#L%zu\">%zu</a></td><td class=\"g\">", ln, ln);
		put_finding_badges(fp, &pf, f->name, (int32_t)ln);
		if (story)
			put_badges(fp, m, l);
		fputs("</td><td class=\"c\">", fp);
		size_t n = e - i;
		if (n && f->text[i + n - 1] == '\r')
			n--;
		put_html(fp, f->text + i, n);
		fputs("</td></tr>\n", fp);
		put_finding_rows(fp, &pf, (int32_t)ln);
		if (story)
			put_story(fp, m, l);
		nsrc = ln;
		i = e + 1;
		if (!nl)
			break;
	}
	/* Stories past the end of the text: the file changed since the dump. */
	for (; k < f->nlines; k++) {
		const struct src_line *l = &m->lines[f->lines[k]];
		if (l->line <= (int32_t)nsrc || !src_line_notable(l))
			continue;
		fprintf(fp, "<tr id=\"L%d\" class=\"story\"><td class=\"n\"><a href=\"#L%d\">%d</a></td>"
		        "<td class=\"g\">", l->line, l->line, l->line);
		put_badges(fp, m, l);
		fputs("</td><td class=\"c\"><i>past the end of the file: has it changed since the dump?</i>"
		      "</td></tr>\n", fp);
		put_story(fp, m, l);
	}
	fputs("</tbody></table></main>\n</body></html>\n", fp);
	free(pf.v);
	return outfile_commit(of);
}

static int write_index(struct view_ctx *c, const struct src_model *m)
{
	struct outfile *of = outfile_create(c->out, "source-index.html");
	FILE *fp = of ? outfile_fp(of) : NULL;
	if (!fp)
		return -1;
	page_head(fp, "source files", 12);
	fputs("<header><nav><a href=\"index.html\">report</a></nav>\n<h1>Source files of ", fp);
	put_str(fp, c->name);
	fputs("</h1>\n<p>Every file and chunk the dump names, ranked by aborts there, then samples, "
	      "then compiled traces. Files are read only under the current directory and "
	      "<code>--source-root</code>.</p></header>\n<main><table class=\"idx\">\n"
	      "<thead><tr><th>rank</th><th class=\"f\">file or chunk</th><th class=\"f\">read from, or why not</th>"
	      "<th>aborts</th><th>attempts</th><th>traces</th><th>blacklisted</th>", fp);
	if (m->profiled)
		fputs("<th>samples</th><th>in failed callees</th>", fp);
	fputs("</tr></thead>\n<tbody>\n", fp);
	for (size_t r = 0; r < m->nfamilies; r++) {
		const struct src_family *fam = &m->families[r];
		const struct src_file *f = m->ranked[fam->first];
		fprintf(fp, "<tr><td>%zu</td><td class=\"f\">", r + 1);
		if (fam->members > 1) {
			put_html(fp, fam->name, fam->len);
			fprintf(fp, "</td><td class=\"f\">a family of %zu chunks", fam->members);
		} else {
			if (f->page)
				fprintf(fp, "<a href=\"source-%u.html\">", f->page);
			put_interned(fp, f->name);
			if (f->page)
				fputs("</a>", fp);
			fputs("</td><td class=\"f\">", fp);
			put_str(fp, f->kind == CHUNK_FILE ? f->shown : chunk_kind_names[f->kind]);
		}
		fprintf(fp, "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64
		        "</td>", fam->aborts, fam->attempts, fam->traces, fam->blacklisted);
		if (m->profiled)
			fprintf(fp, "<td>%" PRIu64 "</td><td>%" PRIu64 "</td>", fam->samples, fam->callee_samples);
		fputs("</tr>\n", fp);
	}
	fputs("</tbody></table>\n", fp);
	if (!m->nfiles)
		fputs("<p class=\"note\">The dump names no source.</p>\n", fp);
	fputs("</main>\n</body></html>\n", fp);
	return outfile_commit(of);
}

int source_write_pages(struct view_ctx *c, struct source_state *s)
{
	const struct src_model *m = &s->model;
	/* Pages are numbered in file rank order; each names its row. */
	for (size_t i = 0; i < m->nfiles; i++) {
		const struct src_file *f = m->ranked[i];
		if (f->page && write_page(c, m, f, f->family + 1) < 0)
			return -1;
	}
	return write_index(c, m);
}
