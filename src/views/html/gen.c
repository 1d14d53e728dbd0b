/* gen.c — a generation's page of the report: gen-N-bushes.html, a small
 * page that draws its bushes in the browser (html/bushes.js) from
 * gen-N-bushes.js, which holds the generation's traces, its bushes as
 * laid out by the tidy-tree layout of the pictures (bush_blocks.c: each
 * trace's column at x, y), and its aborted attempts.  Trace text lives in
 * the generation's chunks (text.c), loaded when a trace's panel opens.
 * The script and style every page shares are files beside it (html.c). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "views/html/html.h"
#include "outdir/outdir.h"
#include "draw/bush_blocks.h"
#include "draw/bush_geometry.h"
#include "draw/exit_counts.h"
#include "util/alloc.h"
#include "util/intern.h"

static void put_ref(FILE *fp, const struct html_text_ref *r)
{
	if (r->chunk < 0) {
		fputs("null", fp);
		return;
	}
	fprintf(fp, "[%d,%u", r->chunk, r->off);
	for (int s = 0; s < DA_SEC_COUNT; s++)
		fprintf(fp, ",%u", r->len[s]);
	fputs(r->no_mcode ? ",1]" : "]", fp);
}

int html_gen_trace(struct html_gen *hg, struct html_text *h, struct view_ctx *c,
                   const struct da_trace *t)
{
	ALLOC_GROW(hg->trace_text, (size_t)t->seq + 1, hg->trace_text_cap);
	while (hg->ntrace_text <= t->seq)
		hg->trace_text[hg->ntrace_text++].chunk = -1;
	return html_text_add(h, c, t->gen, t->counts_known ? t->text : NULL, &hg->trace_text[t->seq]);
}

/* Where an attempt started, "FILE:LINE" as a trace's LOC reads, or null. */
static void put_start(FILE *fp, const struct da_abort *r)
{
	html_put_json_loc(fp, r->start_file, r->start_line);
}

int html_gen_abort(struct html_gen *hg, struct html_text *h, struct view_ctx *c,
                   const struct da_abort *r)
{
	struct html_text_ref ref = { .chunk = -1 };
	uint64_t first = tally_get(&hg->sites, r->reason, r->file, r->line);
	if (!first) {
		tally_add(&hg->sites, r->reason, r->file, r->line, (uint64_t)r->gen << 40 | r->line_no);
		if (html_text_add(h, c, r->gen, r->text, &ref) < 0)
			return -1;
	}
	if (r->reason_normal && r->reason_normal != r->reason &&
	    !tally_get(&hg->normal, r->reason, r->reason_normal, 0))
		tally_add(&hg->normal, r->reason, r->reason_normal, 0, 1);
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	if (!fp)
		out_of_memory();        /* a memory stream fails for want of memory only */
	/* [dump line, id, parent, parent exit (-1 none, -2 stitched), loc,
	 *  reason, start line,
	 *  [last bytecode lines], text, the site's first attempt: [gen, dump
	 *  line] or null when this is it, where it started or null] */
	fprintf(fp, "%s[%" PRIu64 ",%u,%u,%d,", hg->naborts ? ",\n" : "\n", r->line_no, r->id,
	        r->parent, r->parent_exit >= 0 ? r->parent_exit :
	        r->parent_exit == PARENT_EXIT_STITCH ? -2 : -1);
	html_put_json_str(fp, r->loc);
	putc(',', fp);
	html_put_json_str(fp, r->reason);
	fprintf(fp, ",%" PRIu64 ",[", r->start_line_no);
	for (uint32_t i = 0; i < r->nbytecode; i++) {
		if (i)
			putc(',', fp);
		html_put_json(fp, r->bytecode[i], strlen(r->bytecode[i]));
	}
	fputs("],", fp);
	put_ref(fp, &ref);
	if (first)
		fprintf(fp, ",[%" PRIu64 ",%" PRIu64 "],", first >> 40, first & ((UINT64_C(1) << 40) - 1));
	else
		fputs(",null,", fp);
	put_start(fp, r);
	putc(']', fp);
	fclose(fp);
	ALLOC_GROW(hg->aborts, hg->aborts_len + len, hg->aborts_cap);
	memcpy(hg->aborts + hg->aborts_len, buf, len);
	hg->aborts_len += len;
	hg->naborts++;
	free(buf);
	return 0;
}

static int bush_order(const void *x, const void *y)
{
	const struct da_bush *a = *(const struct da_bush *const *)x, *b = *(const struct da_bush *const *)y;
	if (a->ntraces != b->ntraces)
		return a->ntraces > b->ntraces ? -1 : 1;
	if (a->mcode_bytes != b->mcode_bytes)
		return a->mcode_bytes > b->mcode_bytes ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* The traces, in stop order: [id, K (the K-th trace of this number in the
 * generation), parent's index or null, parent's number, parent exit
 * (-1: none, -2: stitched), start LOC, link, linked trace's number (0:
 * none), bytecodes, IR, snapshots, mcode bytes (null from a -jv log),
 * bush (index in the page's order), block in the bush, start and stop
 * header's dump lines, [[exit, times taken], ...] (the exits the picture
 * shows), text]. */
static void put_traces(FILE *fp, const struct da_gen *g, const struct html_gen *hg,
                       const struct da_bush *const *order, size_t nb, const struct exit_counts *ec)
{
	size_t n = g->n.traces;
	uint32_t *bush_of = xrealloc(NULL, (n + 1) * sizeof(*bush_of));
	uint32_t *block_of = xrealloc(NULL, (n + 1) * sizeof(*block_of));
	struct exit_node **exits = xrealloc(NULL, (n + 1) * sizeof(*exits));
	uint32_t *nexits = xrealloc(NULL, (n + 1) * sizeof(*nexits));
	struct bush_picture *pics = xrealloc(NULL, (nb + 1) * sizeof(*pics));
	memset(exits, 0, (n + 1) * sizeof(*exits));
	memset(nexits, 0, (n + 1) * sizeof(*nexits));
	for (size_t i = 0; i < n; i++)
		bush_of[i] = block_of[i] = UINT32_MAX;
	fputs("\"bushes\":[", fp);
	for (size_t i = 0; i < nb; i++) {
		struct bush_picture *p = &pics[i];
		int ok = bush_picture_build(p, order[i], g->number, ec) == 0;
		char label[32];
		html_bush_label(label, sizeof(label), order[i]);
		/* [label, traces, mcode bytes, width, height, [[trace, x, y], ...]] */
		double w = 0, h = 0, x0 = MARGIN, y0 = MARGIN + p->title_h;
		for (size_t k = 0; ok && k < p->nblocks; k++) {
			const struct bush_block *b = &p->blocks[k];
			if (b->x - x0 + b->w > w)
				w = b->x - x0 + b->w;
			if (b->y - y0 + b->h > h)
				h = b->y - y0 + b->h;
		}
		fprintf(fp, "%s[\"%s\",%u,%" PRIu64 ",%.0f,%.0f,[", i ? ",\n" : "\n", label,
		        order[i]->ntraces, order[i]->mcode_bytes, w, h);
		for (size_t k = 0; ok && k < p->nblocks; k++) {
			const struct bush_block *b = &p->blocks[k];
			uint32_t seq = b->trace->seq;
			fprintf(fp, "%s[%u,%.0f,%.0f]", k ? "," : "", seq, b->x - x0, b->y - y0);
			if (seq < n) {
				bush_of[seq] = (uint32_t)i;
				block_of[seq] = (uint32_t)k;
				exits[seq] = b->exits;
				nexits[seq] = b->nexits;
			}
		}
		fputs("]]", fp);
	}
	fputs("],\n\"traces\":[", fp);
	uint32_t *seen = NULL;      /* by trace number: how many so far */
	size_t nseen = 0;
	for (const struct da_trace *t = g->traces; t; t = t->next) {
		if (t->id >= nseen) {
			size_t m = (size_t)t->id + 1 > 2 * nseen ? (size_t)t->id + 1 : 2 * nseen;
			seen = xrealloc(seen, m * sizeof(*seen));
			memset(seen + nseen, 0, (m - nseen) * sizeof(*seen));
			nseen = m;
		}
		uint32_t k = ++seen[t->id];
		fprintf(fp, "%s[%u,%u,", t->seq ? ",\n" : "\n", t->id, k);
		if (t->parent_trace)
			fprintf(fp, "%u,", t->parent_trace->seq);
		else
			fputs("null,", fp);
		fprintf(fp, "%u,%d,", t->parent_exit == PARENT_EXIT_NONE ? 0 : t->parent,
		        t->parent_exit >= 0 ? t->parent_exit : t->parent_exit == PARENT_EXIT_STITCH ? -2 : -1);
		html_put_json_str(fp, t->loc);
		putc(',', fp);
		html_put_json_str(fp, t->link);
		fprintf(fp, ",%u,", t->link_target);
		if (t->counts_known)
			fprintf(fp, "%u,%u,%u,%u,", t->num_bc, t->num_ir, t->num_sn, t->size_mc);
		else
			fputs("null,null,null,null,", fp);
		uint32_t s = t->seq < n ? t->seq : 0;
		if (t->seq < n && bush_of[s] != UINT32_MAX)
			fprintf(fp, "%u,%u,", bush_of[s], block_of[s]);
		else
			fputs("null,null,", fp);
		fprintf(fp, "%" PRIu64 ",%" PRIu64 ",[", t->start_line, t->stop_line);
		for (uint32_t e = 0; t->seq < n && e < nexits[s]; e++)
			fprintf(fp, "%s[%u,%" PRIu64 "]", e ? "," : "", exits[s][e].exit, exits[s][e].count);
		fputs("],", fp);
		if (t->seq < hg->ntrace_text)
			put_ref(fp, &hg->trace_text[t->seq]);
		else
			fputs("null", fp);
		putc(']', fp);
	}
	fputs("]", fp);
	free(seen);
	for (size_t i = 0; i < nb; i++)
		bush_picture_free(&pics[i]);
	free(pics);
	free(bush_of);
	free(block_of);
	free(exits);
	free(nexits);
}

static int write_data(struct html_gen *hg, const struct html_text *h, struct view_ctx *c,
                      const struct da_gen *g,
                      const struct da_bush *const *order, size_t nb, int chunks)
{
	struct outfile *f = view_create_file(c, g, "bushes.js");
	FILE *fp = f ? outfile_fp(f) : NULL;
	if (!fp)
		return -1;
	struct exit_counts ec;
	exit_counts_build(&ec, gen_exits(g));
	fprintf(fp, "/* dumpanalyze: the data of gen-%u-bushes.html */\nvar DA_GEN = {\"gen\":%u,"
	        "\"dump\":", g->number, g->number);
	html_put_json(fp, c->name, strlen(c->name));
	/* "dropped": texts this generation left out for the budget */
	fprintf(fp, ",\"chunks\":%d,\"dropped\":%" PRIu64 ",\n", chunks, h->dropped - hg->dropped_before);
	put_traces(fp, g, hg, order, nb, &ec);
	exit_counts_free(&ec);
	/* "normal": [[reason as written, its normal form], ...] where they
	 * differ, for the page to show the normal one */
	fputs(",\n\"normal\":[", fp);
	size_t nn;
	struct tally_entry *e = tally_entries(&hg->normal, &nn);
	qsort(e, nn, sizeof(*e), tally_by_c);
	for (size_t i = 0; i < nn; i++) {
		fputs(i ? ",[" : "[", fp);
		html_put_json_str(fp, e[i].a);
		putc(',', fp);
		html_put_json_str(fp, e[i].b);
		putc(']', fp);
	}
	free(e);
	tally_clear(&hg->normal);
	fputs("],\n\"aborts\":[", fp);
	if (hg->aborts_len)
		fwrite(hg->aborts, 1, hg->aborts_len, fp);
	fputs("]};\n", fp);
	return outfile_commit(f);
}

int html_gen_write(struct html_gen *hg, struct html_text *h, struct view_ctx *c,
                   const struct da_gen *g)
{
	int chunks = html_text_gen_end(h, c, g->number);
	if (chunks < 0)
		return -1;
	const struct da_bush **order = xrealloc(NULL, (g->n.bushes + 1) * sizeof(*order));
	size_t nb = 0;
	for (const struct da_bush *b = g->bushes; b && nb < g->n.bushes; b = b->next)
		order[nb++] = b;
	qsort(order, nb, sizeof(*order), bush_order);
	int r = write_data(hg, h, c, g, order, nb, chunks);
	free(order);
	hg->dropped_before = h->dropped;
	hg->ntrace_text = 0;
	hg->aborts_len = 0;
	hg->naborts = 0;
	if (r < 0)
		return -1;

	struct outfile *f = view_create_file(c, g, "bushes.html");
	FILE *fp = f ? outfile_fp(f) : NULL;
	if (!fp)
		return -1;
	char title[64];
	snprintf(title, sizeof(title), "Generation %u: bushes", g->number);
	html_page_head(fp, title, c->name);
	fprintf(fp, "<nav><a href=\"index.html\">report</a><a href=\"#bushes\">bushes</a>"
	        "<a href=\"#aborts\">aborted attempts</a></nav>\n</header>\n<main>\n"
	        "<noscript><p>This page draws its bushes with JavaScript; gen-%u-traces.csv and the "
	        "bush-txt view hold the same traces.</p></noscript>\n"
	        "<p id=\"about\"></p>\n<div id=\"bushes\"></div>\n"
	        "<section id=\"aborts\"><h2>Aborted attempts</h2><div id=\"abort-list\"></div></section>\n"
	        "</main>\n<aside id=\"panel\" hidden></aside>\n<div id=\"viewer\" hidden></div>\n"
	        "<script src=\"" HTML_LINKS_FILE "\"></script>\n", g->number);
	if (c->sysprof)
		fputs("<script src=\"" HTML_TIME_FILE "\"></script>\n", fp);
	fprintf(fp, "<script src=\"gen-%u-bushes.js\"></script>\n", g->number);
	fputs("<script src=\"" HTML_BUSHES_FILE "\"></script>\n</body>\n</html>\n", fp);
	return outfile_commit(f);
}

void html_gen_free(struct html_gen *hg)
{
	free(hg->trace_text);
	free(hg->aborts);
	tally_free(&hg->sites);
	tally_free(&hg->normal);
	memset(hg, 0, sizeof(*hg));
}
