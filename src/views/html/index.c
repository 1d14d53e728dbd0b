/* index.c — index.html, the report's first page: what to fix first (the
 * findings, first.c), then the profile's lines and flame graph, the
 * summary as cards, how traces end, the generations, aborts by reason and
 * site, likely blacklisting, exits and the largest bushes, as JSON inside
 * the page that report.js renders (the trace rows are html.c's
 * index-traces.js).  Places link to the source view's pages
 * (source_page_link), in the one form the page turns into a link. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "views/html/html.h"
#include "views/source.h"
#include "outdir/outdir.h"
#include "util/intern.h"
#include "util/tally.h"
#include "analysis/answers.h"
#include "analysis/reason_advice.h"
#include "profile/profile_join.h"
#include "profile/sysprof.h"
#include "profile/sysprof_join.h"
#include "util/alloc.h"
#include "html_assets.h"       /* html_js: made by scripts/embed.sh */

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

/* "written": each reason as the dump wrote it and its normal form, for
 * the tables that show the normal one with the written one on hover. */
static void put_written(FILE *fp, const struct answers *a, const struct tally_entry *e, size_t n)
{
	struct tally seen = { 0 };
	fputs(",\n\"written\":[", fp);
	for (size_t i = 0; i < n; i++) {
		if (tally_get(&seen, e[i].a, NULL, 0))
			continue;
		tally_add(&seen, e[i].a, NULL, 0, 1);
		fputs(seen.count > 1 ? ",[" : "[", fp);
		html_put_json_str(fp, e[i].a);
		putc(',', fp);
		html_put_json_str(fp, a->site_extra[e[i].first].reason_normal);
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
		html_put_json_line(fp, (int32_t)e[i].c);
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
	put_written(fp, a, e, n);
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

/* Exits by what they cost, as summary.txt lists them: "cold", those
 * without a side trace (each taking returns to the interpreter), most
 * taken first; "exits", the most taken, of which those with a side trace
 * were counted only until it attached; and how many of each the run has
 * (gen-N-exits.csv has them all).  A row: [gen, trace, exit, taken, side
 * trace or null, where the trace starts, its source line]. */
static void put_exit_rows(FILE *fp, const char *name, const struct top_exit *x,
                          const struct view_set *set)
{
	fprintf(fp, "\"%s\":[", name);
	for (size_t i = 0; i < ANSWERS_TOP && x[i].count; i++) {
		fprintf(fp, "%s[%u,%u,%u,%" PRIu64 ",", i ? "," : "", x[i].gen, x[i].trace, x[i].exit,
		        x[i].count);
		if (x[i].side)
			fprintf(fp, "%u,", x[i].side);
		else
			fputs("null,", fp);
		html_put_json_loc(fp, x[i].file, x[i].line);
		putc(',', fp);
		put_json_source(fp, set, x[i].file, x[i].line);
		putc(']', fp);
	}
	fputs("]", fp);
}

static void put_exits(FILE *fp, const struct answers *a, const struct view_set *set)
{
	put_exit_rows(fp, "exits", a->hot, set);
	fputs(",\n", fp);
	put_exit_rows(fp, "cold", a->cold, set);
	fprintf(fp, ",\n\"nexits\":%" PRIu64 ",\"ncold\":%" PRIu64, a->nexits_all, a->ncold_all);
}

static void put_flamegraph(FILE *fp, int *n, const char *file, const char *title)
{
	fprintf(fp, "%s[\"%s\",", (*n)++ ? "," : "", file);
	html_put_json(fp, title, strlen(title));
	putc(']', fp);
}

/* "flamegraphs": [file, title] of each flame graph this run draws (the
 * flamegraph view, which html brings along for a profile of stacks), for
 * the page to show. */
static void put_flamegraphs(FILE *fp, struct view_ctx *c)
{
	int n = 0;
	fputs(",\n\"flamegraphs\":[", fp);
	if (c->profile && c->profile->kind == PROFILE_STACKS && view_set_has(c->set, "flamegraph"))
		put_flamegraph(fp, &n, "flamegraph.svg", c->profile->path);
	fputs("]", fp);
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
	        "\"unmatched\":%" PRIu64 ",\"lines\":%" PRIu64 ",\"rows\":[",
	        p->total, p->percent, p->states, p->thresholded, j.unmatched_lines, j.profile_lines);
	static const int cols[] = { VM_INTERPRETED, VM_COMPILED, VM_C, VM_GC, VM_JIT };
	for (size_t i = 0; i < j.n; i++) {
		const struct joined_line *r = &j.rows[i];
		fputs(i ? ",\n[" : "\n[", fp);
		html_put_json(fp, r->file, r->file_len);
		putc(',', fp);
		html_put_json_line(fp, r->line);
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

/* A bush row: [gen, label, traces, mcode bytes, root start, its source
 * line], and with sysprof [..., samples, share of all samples]. */
static void put_bush(FILE *fp, const struct view_ctx *c, int first, uint32_t gen, uint32_t root,
                     uint32_t dup, uint32_t traces, uint64_t mcode, const char *file, int32_t line,
                     const struct sj_bush *t)
{
	char label[32];
	snprintf(label, sizeof(label), dup > 1 ? "%u.%u" : "%u", root, dup);
	fprintf(fp, "%s[%u,\"%s\",%u,%" PRIu64 ",", first ? "" : ",", gen, label, traces, mcode);
	html_put_json_loc(fp, file, line);
	putc(',', fp);
	put_json_source(fp, c->set, file, line);
	if (t) {
		char share[32];
		sj_percent(share, sizeof(share), t->samples, c->sysprof->samples);
		fprintf(fp, ",%" PRIu64 ",%s", t->samples, share);
	}
	putc(']', fp);
}

static void put_sj_bush(FILE *fp, const struct view_ctx *c, int first, const struct sj_bush *t)
{
	put_bush(fp, c, first, t->gen, t->root, t->dup, t->ntraces, t->mcode, t->file, t->line, t);
}

/* "bushes": the largest (answers.c's, by traces); with a sysprof profile
 * also those that took the most samples (the join's ranking, as
 * profile-bushes.csv has it), each with its samples, in that file's
 * order: ranked by time, then the rest in dump order; and "bush_time". */
static void put_bushes(FILE *fp, const struct answers *a, const struct view_ctx *c)
{
	const struct sysprof_join *j = c->sysprof ? c->join : NULL;
	fputs(",\n\"bushes\":[", fp);
	if (!j) {
		for (size_t i = 0; i < ANSWERS_TOP && a->bushes[i].traces; i++) {
			const struct top_bush *b = &a->bushes[i];
			put_bush(fp, c, i == 0, b->gen, b->root, b->dup, b->traces, b->mcode, b->file, b->line,
			         NULL);
		}
		fputs("],\n\"bush_time\":null", fp);
		return;
	}
	char *shown = xrealloc(NULL, j->nbushes + 1);
	memset(shown, 0, j->nbushes + 1);
	size_t n, *rank = sj_ranked_bushes(j, &n);
	for (size_t i = 0; i < n && i < ANSWERS_TOP; i++)
		shown[rank[i]] = 1;
	for (size_t i = 0; i < ANSWERS_TOP && a->bushes[i].traces; i++) {
		const struct top_bush *b = &a->bushes[i];
		for (size_t k = 0; k < j->nbushes; k++)
			if (j->bushes[k].gen == b->gen && j->bushes[k].root == b->root &&
			    j->bushes[k].dup == b->dup) {
				shown[k] = 1;
				break;
			}
	}
	int first = 1;
	/* ranked by time as profile-bushes.csv ranks them, then those
	 * without samples in dump order, as it lists them */
	for (size_t i = 0; i < n; i++)
		if (shown[rank[i]]) {
			put_sj_bush(fp, c, first, &j->bushes[rank[i]]);
			first = 0;
		}
	for (size_t k = 0; k < j->nbushes; k++)
		if (shown[k] && !j->bushes[k].samples) {
			put_sj_bush(fp, c, first, &j->bushes[k]);
			first = 0;
		}
	free(rank);
	free(shown);
	fputs("],\n\"bush_time\":{\"profile\":", fp);
	html_put_json(fp, c->sysprof->path, strlen(c->sysprof->path));
	fprintf(fp, ",\"samples\":%" PRIu64 "}", c->sysprof->samples);
}

static void put_data(FILE *fp, const struct answers *a, struct view_ctx *c,
                     const struct html_gen_lines *gl)
{
	const struct da_counts *t = &a->total;
	int first = 1;
	fputc('{', fp);
	html_put_first(fp, c, gl);
	fputs(",\n\"cards\":[", fp);
	put_card(fp, &first, "traces compiled", t->traces);
	put_card(fp, &first, "root traces", t->root);
	put_card(fp, &first, "side traces", t->side);
	put_card(fp, &first, "stitched", t->stitched);
	put_card(fp, &first, "orphan traces", t->orphans);
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
		        ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]", i ? ",\n" : "\n",
		        a->gens[i].number, n->traces, n->root, n->side, n->stitched, n->orphans,
		        n->aborts, n->exits, n->bushes, n->incomplete);
	}
	fputs("],\n", fp);
	put_sites(fp, a, c->set);
	fputs(",\n", fp);
	put_exits(fp, a, c->set);
	fputs(",\n\"blacklist\":[", fp);
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
		/* the main reason (normal), its attempts, the last one's normal */
		putc(',', fp);
		html_put_json_str(fp, st->main_reason);
		fprintf(fp, ",%" PRIu64 ",", st->main_attempts);
		html_put_json_str(fp, st->last_normal);
		putc(']', fp);
	}
	fputs("]", fp);
	put_bushes(fp, a, c);
	fputs(",\n\"diagnoses\":[", fp);
	char **dl;
	size_t nd = diagnose_lines(&a->diag, a->ngave_up, a->nmcode_gave_up, &dl);
	for (size_t i = 0; i < nd; i++) {
		if (i)
			putc(',', fp);
		html_put_json(fp, dl[i], strlen(dl[i]));
	}
	diagnose_lines_free(dl, nd);
	fputs("]", fp);
	put_flamegraphs(fp, c);
	if (c->profile)
		put_profile(fp, a, c);
	fputs("}\n", fp);
}

/* The first screen is what to fix first; the counts follow. */
static const char index_body[] =
	"<nav><a href=\"#first\">fix first</a><a href=\"#findings-section\">all findings</a>"
	"<a id=\"nav-profile\" href=\"#profile-section\" hidden>time</a><a href=\"#overview\">overview</a>"
	"<a href=\"#aborts\">aborts</a><a href=\"#exits-section\">exits</a><a href=\"#bushes-section\">bushes</a>"
	"<a href=\"#traces-section\">traces</a><a id=\"source-index\" href=\"source-index.html\">source files</a></nav>\n</header>\n<main>\n"
	"<noscript><p>The tables of this report need JavaScript; summary.txt, findings.csv and the CSV files hold the same numbers.</p></noscript>\n"
	"<section id=\"first\">\n<h2>What to fix first</h2>\n<div id=\"shares\"></div>\n"
	"<ol id=\"fix-first\"></ol>\n<p class=\"muted\" id=\"fix-about\"></p>\n</section>\n"
	"<section id=\"findings-section\">\n<h2>All findings</h2>\n<p class=\"muted\">Every finding in rank order, "
	"as findings.csv lists them: where (linked to its source page), why, what it costs, and its failed "
	"attempt (linked to its panel).</p>\n<p><input type=\"search\" id=\"findings-filter\" placeholder=\"filter by file\" "
	"aria-label=\"filter findings by file\"></p>\n<table id=\"findings\"></table>\n</section>\n"
	"<section id=\"profile-section\" hidden>\n<h2>Where the time went</h2>\n"
	"<div id=\"flamegraphs\"></div>\n"
	"<h3>Profiled lines</h3>\n<p class=\"muted\" id=\"profile-about\"></p>\n<ul id=\"profile-notes\"></ul>\n"
	"<p><input type=\"search\" id=\"profile-filter\" placeholder=\"filter by file\" "
	"aria-label=\"filter profiled lines by file\"></p>\n<table id=\"profile\"></table>\n</section>\n"
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
	"<section id=\"exits-section\">\n<h2>Exits</h2>\n<h3>Without a side trace</h3>\n<p class=\"muted\" id=\"cold-about\">"
	"Each taking returns to the interpreter (-jdump=+x): most taken first.</p>\n"
	"<table id=\"cold\"></table>\n<h3>That grew a side trace</h3>\n<p class=\"muted\" id=\"exits-about\">Counted only until "
	"the side trace attached: LuaJIT then jumps to it and reports the exit no more.</p>\n"
	"<table id=\"exits\"></table>\n</section>\n"
	"<section id=\"bushes-section\">\n<h2 id=\"bushes-title\">Largest bushes</h2>\n<p class=\"muted\" "
	"id=\"bushes-about\">Each links to its generation's page, where it is drawn and each trace has a "
	"panel.</p>\n<table id=\"bushes\"></table>\n</section>\n"
	"<section id=\"traces-section\">\n<h2>Traces</h2>\n<p><input type=\"search\" id=\"trace-filter\" "
	"placeholder=\"filter by file\" aria-label=\"filter traces by file\"></p>\n<table id=\"traces\"></table>\n"
	"</section>\n</main>\n";

int html_index_write(struct view_ctx *c, const struct answers *a, int trace_rows,
                     const struct html_gen_lines *gl)
{
	struct outfile *f = outfile_create(c->out, "index.html");
	FILE *fp = f ? outfile_fp(f) : NULL;
	if (!fp)
		return -1;
	html_page_head(fp, "JIT report", c->name);
	fputs(index_body, fp);
	fputs("<script type=\"application/json\" id=\"da-data\">\n", fp);
	put_data(fp, a, c, gl);
	fputs("</script>\n", fp);
	if (trace_rows)
		fputs("<script src=\"index-traces.js\"></script>\n", fp);
	fputs("<script>\n", fp);
	fputs(html_js, fp);
	fputs("</script>\n</body>\n</html>\n", fp);
	return outfile_commit(f);
}
