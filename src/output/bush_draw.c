/* bush_draw.c — lay out and draw one bush; see bush_draw.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/message.h"
#include "output/bush_draw.h"
#include "output/layout.h"
#include "util/intern.h"
#include "util/arena.h"
#include "util/diag.h"
#include "output/outdir.h"
#include "views/view.h"
#include "output/workers.h"
#include "output/picture.h"

/* Geometry, in pixels at scale 1. */
#define COL_W 200.0         /* a trace's column */
#define START_H 46.0
#define EXIT_W 140.0
#define EXIT_H 17.0
#define ROW_GAP 7.0
#define END_H 20.0
#define HGAP 28.0
#define VGAP 44.0
#define MARGIN 24.0
#define TITLE_SIZE 14.0     /* the title's font size */
#define TITLE_LINE 18.0
#define PI 3.14159265358979323846

/* ---- exit counts ------------------------------------------------------ */

static int by_trace_exit(const void *x, const void *y)
{
	const struct tally_entry *a = x, *b = y;
	uintptr_t pa = (uintptr_t)a->a, pb = (uintptr_t)b->a;
	if (pa != pb)
		return pa < pb ? -1 : 1;
	return (a->c > b->c) - (a->c < b->c);
}

void exit_counts_build(struct exit_counts *ec, const struct tally *taken)
{
	ec->e = tally_entries(taken, &ec->n);
	qsort(ec->e, ec->n, sizeof(*ec->e), by_trace_exit);
}

/* First entry of trace t (or where it would be). */
static size_t first_of(const struct exit_counts *ec, const struct da_trace *t)
{
	size_t lo = 0, hi = ec->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if ((uintptr_t)ec->e[mid].a < (uintptr_t)t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint64_t exit_counts_get(const struct exit_counts *ec, const struct da_trace *t, uint32_t exit)
{
	for (size_t i = first_of(ec, t); i < ec->n && ec->e[i].a == t; i++)
		if (EXIT_KEY_EXIT(ec->e[i].c) == exit)
			return ec->e[i].count;
	return 0;
}

void exit_counts_free(struct exit_counts *ec)
{
	free(ec->e);
	ec->e = NULL;
	ec->n = 0;
}

/* ---- building --------------------------------------------------------- */

static double block_height(uint32_t nexits)
{
	return START_H + nexits * (EXIT_H + ROW_GAP) + ROW_GAP + END_H;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static uint32_t block_of(const struct bush_picture *p, const struct da_trace *t)
{
	size_t lo = 0, hi = p->nblocks;
	while (lo < hi) {           /* blocks are in stop order: seq ascends */
		size_t mid = (lo + hi) / 2;
		if (p->blocks[mid].trace->seq < t->seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->nblocks && p->blocks[lo].trace == t ? (uint32_t)lo : UINT32_MAX;
}

struct child_key { uint32_t parent, exit, block; };

static int by_parent_exit(const void *x, const void *y)
{
	const struct child_key *a = x, *b = y;
	if (a->parent != b->parent)
		return a->parent < b->parent ? -1 : 1;
	if (a->exit != b->exit)
		return a->exit < b->exit ? -1 : 1;
	return (a->block > b->block) - (a->block < b->block);
}

/* The exits shown for a trace: those its machine code references, those
 * that grew side traces and those taken, in exit order. */
static void collect_exits(struct bush_picture *p, uint32_t bi, const struct exit_counts *ec)
{
	struct bush_block *blk = &p->blocks[bi];
	const struct da_trace *t = blk->trace;
	size_t cap = t->nexits + p->nblocks + 1;
	size_t first = ec ? first_of(ec, t) : 0, ntaken = 0;
	while (ec && first + ntaken < ec->n && ec->e[first + ntaken].a == t)
		ntaken++;
	cap += ntaken;
	uint32_t *all = xrealloc(NULL, cap * sizeof(*all));
	size_t n = 0;
	for (uint32_t i = 0; i < t->nexits; i++)
		all[n++] = t->exits[i];
	for (size_t i = 0; i < p->nblocks; i++)
		if (p->blocks[i].parent_block == bi)
			all[n++] = (uint32_t)p->blocks[i].trace->parent_exit;
	for (size_t i = 0; i < ntaken; i++)
		all[n++] = EXIT_KEY_EXIT(ec->e[first + i].c);
	qsort(all, n, sizeof(*all), cmp_u32);
	size_t u = 0;
	for (size_t i = 0; i < n; i++)
		if (u == 0 || all[u - 1] != all[i])
			all[u++] = all[i];
	blk->exits = xrealloc(NULL, (u ? u : 1) * sizeof(*blk->exits));
	blk->nexits = (uint32_t)u;
	for (size_t i = 0; i < u; i++) {
		struct exit_node *x = &blk->exits[i];
		x->exit = all[i];
		x->count = ec ? exit_counts_get(ec, t, all[i]) : 0;
		x->sides = 0;
		if (x->count > p->hottest)
			p->hottest = x->count;
	}
	for (size_t i = 0; i < p->nblocks; i++)
		if (p->blocks[i].parent_block == bi)
			for (size_t k = 0; k < u; k++)
				if (blk->exits[k].exit == (uint32_t)p->blocks[i].trace->parent_exit)
					blk->exits[k].sides++;
	free(all);
}

/* The title's parts, wrapped into lines of at most width pixels (wider
 * only for a part that is wider itself): a bush of one column needs half
 * the width of the title on one line, and most bushes have one.  Returns
 * the width of the widest line. */
static double wrap_title(struct bush_picture *p, double width)
{
	const struct da_bush *b = p->bush;
	char part[5][48];
	snprintf(part[0], sizeof(part[0]), "gen %u", p->gen);
	snprintf(part[1], sizeof(part[1]), "bush %u", b->root->id);
	snprintf(part[2], sizeof(part[2]), "%u trace%s", b->ntraces, b->ntraces == 1 ? "" : "s");
	snprintf(part[3], sizeof(part[3]), "%llu B mcode", (unsigned long long)b->mcode_bytes);
	snprintf(part[4], sizeof(part[4]), "(exits: times taken)");
	size_t nparts = p->hottest ? 5 : 4, room = (size_t)(width / (TITLE_SIZE * PICTURE_CHAR_W));
	size_t len = 0, line = 0, widest = 0, lines = 1;
	for (size_t i = 0; i < nparts; i++) {
		size_t n = strlen(part[i]);
		if (line && line + 2 + n > room) {
			p->title[len++] = '\n';
			lines++;
			line = 0;
		} else if (line) {
			memcpy(p->title + len, "  ", 2);
			len += 2;
			line += 2;
		}
		memcpy(p->title + len, part[i], n);
		len += n;
		line += n;
		if (line > widest)
			widest = line;
	}
	p->title[len] = '\0';
	p->title_h = 12 + lines * TITLE_LINE;
	return (double)widest * TITLE_SIZE * PICTURE_CHAR_W;
}

int bush_picture_build(struct bush_picture *p, const struct da_bush *b, uint32_t gen,
                       const struct exit_counts *ec)
{
	memset(p, 0, sizeof(*p));
	p->bush = b;
	p->gen = gen;
	p->nblocks = b->ntraces;
	p->blocks = xrealloc(NULL, p->nblocks * sizeof(*p->blocks));
	memset(p->blocks, 0, p->nblocks * sizeof(*p->blocks));
	size_t i = 0;
	for (const struct da_trace *t = b->root; t && i < p->nblocks; t = t->next_in_bush)
		p->blocks[i++].trace = t;
	p->nblocks = i;
	for (i = 0; i < p->nblocks; i++) {
		const struct da_trace *par = p->blocks[i].trace->parent_trace;
		p->blocks[i].parent_block = i && par ? block_of(p, par) : UINT32_MAX;
	}
	for (i = 0; i < p->nblocks; i++)
		collect_exits(p, (uint32_t)i, ec);

	/* Tree for the layout: children ordered by parent exit, then by
	 * stop order. */
	struct layout_node *ln = xrealloc(NULL, p->nblocks * sizeof(*ln));
	memset(ln, 0, p->nblocks * sizeof(*ln));
	struct child_key *keys = xrealloc(NULL, (p->nblocks ? p->nblocks : 1) * sizeof(*keys));
	size_t nk = 0;
	for (i = 0; i < p->nblocks; i++) {
		ln[i].w = COL_W;
		ln[i].h = block_height(p->blocks[i].nexits);
		ln[i].first_child = ln[i].next_sibling = LAYOUT_NONE;
		if (p->blocks[i].parent_block != UINT32_MAX)
			keys[nk++] = (struct child_key){ p->blocks[i].parent_block,
			                                 (uint32_t)p->blocks[i].trace->parent_exit,
			                                 (uint32_t)i };
	}
	qsort(keys, nk, sizeof(*keys), by_parent_exit);
	for (size_t k = nk; k-- > 0;) {     /* prepend in reverse: ordered lists */
		ln[keys[k].block].next_sibling = ln[keys[k].parent].first_child;
		ln[keys[k].parent].first_child = keys[k].block;
	}
	free(keys);
	double w = 0, h = 0;
	int r = p->nblocks ? layout_tidy(ln, p->nblocks, 0, HGAP, VGAP, &w, &h) : 0;
	/* Room for the loop arcs on the left, and for the title. */
	double title_w = wrap_title(p, w + 24);
	p->content_w = 2 * MARGIN + (w + 24 > title_w ? w + 24 : title_w);
	for (i = 0; r == 0 && i < p->nblocks; i++) {
		p->blocks[i].x = MARGIN + ln[i].x;
		p->blocks[i].y = MARGIN + p->title_h + ln[i].y;
		p->blocks[i].w = ln[i].w;
		p->blocks[i].h = ln[i].h;
	}
	free(ln);
	p->content_h = 2 * MARGIN + p->title_h + h;
	p->scale = 1;
	if (p->content_w > BUSH_CANVAS_MAX || p->content_h > BUSH_CANVAS_MAX) {
		double sx = BUSH_CANVAS_MAX / p->content_w, sy = BUSH_CANVAS_MAX / p->content_h;
		p->scale = sx < sy ? sx : sy;
	}
	p->width = ceil(p->content_w * p->scale);
	p->height = ceil(p->content_h * p->scale);
	return r;
}

void bush_picture_free(struct bush_picture *p)
{
	for (size_t i = 0; i < p->nblocks; i++)
		free(p->blocks[i].exits);
	free(p->blocks);
	p->blocks = NULL;
	p->nblocks = 0;
}

/* ---- drawing ---------------------------------------------------------- */

static void arrow_head(cairo_t *cr, double x, double y, double dx, double dy)
{
	double len = sqrt(dx * dx + dy * dy);
	if (len == 0)
		return;
	dx /= len;
	dy /= len;
	cairo_move_to(cr, x, y);
	cairo_line_to(cr, x - 8 * dx + 4 * dy, y - 8 * dy - 4 * dx);
	cairo_line_to(cr, x - 8 * dx - 4 * dy, y - 8 * dy + 4 * dx);
	cairo_close_path(cr);
	cairo_fill(cr);
}

static void trace_colour(cairo_t *cr, int root)
{
	if (root)
		cairo_set_source_rgb(cr, BUSH_ROOT_R, BUSH_ROOT_G, BUSH_ROOT_B);
	else
		cairo_set_source_rgb(cr, 0.35, 0.35, 0.40);
}

static double exit_y(const struct bush_block *b, uint32_t k)
{
	return b->y + START_H + ROW_GAP + k * (EXIT_H + ROW_GAP);
}

static double end_y(const struct bush_block *b)
{
	return b->y + START_H + ROW_GAP + b->nexits * (EXIT_H + ROW_GAP);
}

static double inner_x(const struct bush_block *b)
{
	return b->x + (COL_W - EXIT_W) / 2;
}

static const char *end_label(const struct da_trace *t, char *buf, size_t n)
{
	switch (t->link_kind) {
	case DA_LINK_LOOP: return "loop";
	case DA_LINK_RETURN: return "return to VM";
	case DA_LINK_INTERPRETER: return "enforce VM";
	case DA_LINK_ROOT:
		snprintf(buf, n, "goto %u", t->link_target);
		return buf;
	default:
		snprintf(buf, n, "%s", t->link);
		return buf;
	}
}

/* The path of one trace: START -> exits -> END, and how it ends. */
static void draw_chain(cairo_t *cr, const struct bush_picture *p, const struct bush_block *b)
{
	int root = b == &p->blocks[0];
	double cx = b->x + COL_W / 2;
	trace_colour(cr, root);
	cairo_set_line_width(cr, root ? 2.2 : 1.2);
	if (!root) {
		double dash[] = { 5, 3 };
		cairo_set_dash(cr, dash, 2, 0);
	}
	double y = b->y + START_H;
	for (uint32_t k = 0; k <= b->nexits; k++) {
		double ny = k < b->nexits ? exit_y(b, k) : end_y(b);
		cairo_move_to(cr, cx, y);
		cairo_line_to(cr, cx, ny - 2);
		cairo_stroke(cr);
		y = ny + (k < b->nexits ? EXIT_H : 0);
	}
	cairo_set_dash(cr, NULL, 0, 0);
	for (uint32_t k = 0; k <= b->nexits; k++)
		arrow_head(cr, cx, k < b->nexits ? exit_y(b, k) : end_y(b), 0, 1);

	/* loop: back to its own start; goto the root: back to the root. */
	const struct da_trace *t = b->trace;
	const struct bush_block *target = NULL;
	if (t->link_kind == DA_LINK_LOOP)
		target = b;
	else if (t->link_kind == DA_LINK_ROOT && t->link_target == p->bush->root->id)
		target = &p->blocks[0];
	if (target) {
		double x0 = inner_x(b), y0 = end_y(b) + END_H / 2;
		double x1 = target->x, y1 = target->y + START_H / 2;
		double bend = target == b ? 22 : 40;
		if (target != b)        /* links back to the root can be many: faint */
			cairo_set_source_rgba(cr, 0.35, 0.35, 0.40, 0.3);
		cairo_move_to(cr, x0, y0);
		cairo_curve_to(cr, x0 - bend - (x0 - x1), y0, x1 - bend, y1, x1 - 2, y1);
		cairo_stroke(cr);
		arrow_head(cr, x1, y1, 1, 0);
	}
}

/* A side trace hangs from its parent's exit node. */
static void draw_side_edge(cairo_t *cr, const struct bush_picture *p, const struct bush_block *b)
{
	const struct bush_block *par = &p->blocks[b->parent_block];
	uint32_t k = 0;
	while (k < par->nexits && par->exits[k].exit != (uint32_t)b->trace->parent_exit)
		k++;
	double x1 = b->x + COL_W / 2, y1 = b->y;
	/* Leave the exit on the side the child lies on: no crossing the
	 * parent's own path. */
	int left = x1 < par->x + COL_W / 2;
	double x0 = left ? inner_x(par) : inner_x(par) + EXIT_W, y0 = exit_y(par, k) + EXIT_H / 2;
	cairo_set_source_rgb(cr, 0.15, 0.18, 0.30);
	cairo_set_line_width(cr, 2.0);
	cairo_move_to(cr, x0, y0);
	double out = left ? -50 : 50;
	/* A child right below the parent: swing wide around the parent's END. */
	double x2 = fabs(x1 - (par->x + COL_W / 2)) < COL_W / 2 ? x0 + out : x1;
	cairo_curve_to(cr, x0 + out, y0, x2, y1 - 30, x1, y1 - 2);
	cairo_stroke(cr);
	arrow_head(cr, x1, y1, 0, 1);
}

static void box(cairo_t *cr, double x, double y, double w, double h)
{
	double r = 4;
	cairo_new_sub_path(cr);
	cairo_arc(cr, x + w - r, y + r, r, -PI / 2, 0);
	cairo_arc(cr, x + w - r, y + h - r, r, 0, PI / 2);
	cairo_arc(cr, x + r, y + h - r, r, PI / 2, PI);
	cairo_arc(cr, x + r, y + r, r, PI, 3 * PI / 2);
	cairo_close_path(cr);
}

static void draw_block(cairo_t *cr, const struct bush_picture *p, const struct bush_block *b)
{
	const struct da_trace *t = b->trace;
	int root = b == &p->blocks[0];
	char buf[96];

	/* START */
	box(cr, b->x, b->y, COL_W, START_H);
	if (root)
		cairo_set_source_rgb(cr, 1.0, 0.92, 0.93);
	else
		cairo_set_source_rgb(cr, 0.95, 0.95, 0.97);
	cairo_fill_preserve(cr);
	trace_colour(cr, root);
	cairo_set_line_width(cr, root ? 2.5 : 1.2);
	cairo_stroke(cr);
	cairo_set_source_rgb(cr, 0.05, 0.05, 0.05);
	if (t->parent_trace)
		snprintf(buf, sizeof(buf), "  from %u/%d", t->parent, t->parent_exit);
	else if (t->parent_exit == PARENT_EXIT_STITCH)
		snprintf(buf, sizeof(buf), "  after %u/stitch", t->parent);
	else if (t->parent_exit >= 0)
		snprintf(buf, sizeof(buf), "  orphan of %u/%d", t->parent, t->parent_exit);
	else
		buf[0] = '\0';
	picture_textf(cr, b->x + 7, b->y + 13, 11, COL_W - 14, "TRACE %u%s", t->id, buf);
	picture_text(cr, b->x + 7, b->y + 27, 9, COL_W - 14, t->loc, intern_len(t->loc));
	picture_textf(cr, b->x + 7, b->y + 40, 9, COL_W - 14, "BC %u  IR %u  mcode %u B",
	         t->num_bc, t->num_ir, t->size_mc);

	/* exits: shaded by how often they were taken, framed bold when a side
	 * trace grew from them, thin and light when none did */
	for (uint32_t k = 0; k < b->nexits; k++) {
		const struct exit_node *x = &b->exits[k];
		double ex = inner_x(b), ey = exit_y(b, k);
		double heat = x->count && p->hottest ? log1p((double)x->count) / log1p((double)p->hottest) : 0;
		box(cr, ex, ey, EXIT_W, EXIT_H);
		cairo_set_source_rgb(cr, 1.0, 1.0 - 0.55 * heat, 1.0 - 0.9 * heat);
		cairo_fill_preserve(cr);
		if (x->sides) {
			trace_colour(cr, root);
			cairo_set_line_width(cr, root ? 2.0 : 1.4);
		} else {
			cairo_set_source_rgb(cr, 0.72, 0.72, 0.72);
			cairo_set_line_width(cr, 1.0);
		}
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0.05, 0.05, 0.05);
		picture_textf(cr, ex + 6, ey + 12, 9, 62, "%u/%u", t->id, x->exit);
		if (x->count)
			picture_textf(cr, ex + 66, ey + 12, 9, EXIT_W - 70, "\u00d7%llu",
			         (unsigned long long)x->count);
	}

	/* END */
	double ey = end_y(b);
	box(cr, inner_x(b), ey, EXIT_W, END_H);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_fill_preserve(cr);
	trace_colour(cr, root);
	cairo_set_line_width(cr, root ? 2.5 : 1.2);
	cairo_stroke(cr);
	cairo_set_source_rgb(cr, 0.05, 0.05, 0.05);
	const char *label = end_label(t, buf, sizeof(buf));
	picture_text(cr, inner_x(b) + 7, ey + 14, 10, EXIT_W - 14, label, strlen(label));
}

void bush_picture_draw(const struct bush_picture *p, cairo_t *cr)
{
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	/* Shapes with cairo's faster antialiasing (text keeps its own): the
	 * strokes were most of a picture's drawing, and dotted ones (frames,
	 * arcs) cost more than the rest together, so there are none. */
	cairo_set_antialias(cr, CAIRO_ANTIALIAS_FAST);
	cairo_save(cr);
	cairo_scale(cr, p->scale, p->scale);
	cairo_select_font_face(cr, PICTURE_FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);

	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	double ty = MARGIN + 12;
	for (const char *line = p->title; ; ty += TITLE_LINE) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		picture_text(cr, MARGIN, ty, TITLE_SIZE, p->content_w - 2 * MARGIN, line, n);
		if (!nl)
			break;
		line = nl + 1;
	}

	for (size_t i = 1; i < p->nblocks; i++)
		if (p->blocks[i].parent_block != UINT32_MAX)
			draw_side_edge(cr, p, &p->blocks[i]);
	for (size_t i = p->nblocks; i-- > 0;)      /* the root's on top */
		draw_chain(cr, p, &p->blocks[i]);
	for (size_t i = p->nblocks; i-- > 0;)
		draw_block(cr, p, &p->blocks[i]);
	cairo_restore(cr);

	if (p->scale < 1) {
		cairo_select_font_face(cr, PICTURE_FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
		cairo_set_source_rgb(cr, 0.6, 0.1, 0.1);
		picture_textf(cr, 8, p->height - 8, 14, p->width - 16,
		         "scaled to %.0f%%: wider or taller than %.0f px", p->scale * 100,
		         BUSH_CANVAS_MAX);
	}
}

/* ---- files ------------------------------------------------------------ */


/* bush_picture_draw with the picture's argument type, for picture_write. */
static void draw_bush(cairo_t *cr, const void *p)
{
	bush_picture_draw(p, cr);
}

static int render(FILE *fp, const struct bush_picture *p, enum picture_format fmt)
{
	return picture_write(fp, fmt, p->width, p->height, draw_bush, p);
}

static int draw_all(struct view_ctx *c, const struct da_gen *g, enum picture_format fmt)
{
	struct exit_counts ec;
	exit_counts_build(&ec, gen_exits(g));
	int r = 0;
	for (const struct da_bush *b = g->bushes; b && r == 0; b = b->next) {
		char name[64];
		const char *ext = fmt == PICTURE_SVG ? "svg" : "png";
		view_bush_name(name, sizeof(name), b, ext);
		struct bush_picture p;
		if (bush_picture_build(&p, b, g->number, &ec) < 0) {
			msg_error("gen-%u-%s: the bush does not form a tree", g->number, name);
			r = -1;
		} else {
			struct outfile *f = view_create_file(c, g, name);
			FILE *fp = f ? outfile_fp(f) : NULL;
			if (!fp)
				r = -1;
			else if (render(fp, &p, fmt) < 0) {
				msg_error("%s/gen-%u-%s: cannot draw the picture",
				         outdir_path(c->out), g->number, name);
				r = -1;
			} else if (outfile_commit(f) < 0)
				r = -1;
		}
		bush_picture_free(&p);
	}
	exit_counts_free(&ec);
	return r;
}

struct draw_job {
	struct view_ctx *c;
	const struct da_gen *g;
	enum picture_format fmt;
};

/* In a worker: a directory handle of its own, so that it renames only its
 * own files, all of them once they are complete. */
static int draw_job(void *arg)
{
	struct draw_job *j = arg;
	if (j->c->jobs <= 1)
		return draw_all(j->c, j->g, j->fmt);
	struct view_ctx own = *j->c;
	own.out = outdir_open(outdir_path(j->c->out));
	if (!own.out)
		return -1;
	int r = draw_all(&own, j->g, j->fmt);
	if (r == 0)
		r = outdir_publish(own.out);
	if (r == 0)
		r = outdir_sync(own.out);
	outdir_close(own.out);
	/* The worker ends here: give back its pixels and font caches, so
	 * leak checkers following it see only our own memory. */
	picture_release();
	return r;
}

int bush_draw_generation(struct view_ctx *c, struct workers *w, const struct da_gen *g,
                         enum picture_format fmt)
{
	struct draw_job j = { c, g, fmt };
	w->max = c->jobs;
	int r = workers_run(w, draw_job, &j);
	if (c->jobs > 1)
		outdir_add_written(c->out, g->n.bushes);    /* by the worker */
	return r;
}
