/* flamegraph.c — merge folded stacks into a tree and draw it as a flame
 * graph; see flamegraph.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cairo.h>
#include "draw/flamegraph.h"
#include "util/arena.h"

#define NONE UINT32_MAX

/* Geometry, in pixels. */
#define MARGIN 10.0
#define TITLE_H 28.0        /* title line and the gap below it */
#define ROW_H 16.0          /* a frame is ROW_H - 1 high: 1 px between rows */
#define LEGEND_H 24.0
#define FONT 11.0
#define TITLE_FONT 14.0
#define MIN_W 0.5           /* narrower frames are not drawn */

/* ---- the tree ---------------------------------------------------------- */

/* Frame by frame, bytewise; a stack before the longer ones it begins. */
static int by_frames(const void *x, const void *y)
{
	const struct flame_stack *a = *(const struct flame_stack *const *)x;
	const struct flame_stack *b = *(const struct flame_stack *const *)y;
	for (uint32_t i = 0; i < a->nframes && i < b->nframes; i++) {
		int c = strcmp(a->frames[i], b->frames[i]);
		if (c)
			return c;
	}
	return (a->nframes > b->nframes) - (a->nframes < b->nframes);
}

/* Sorted, stacks sharing a path are neighbours: each stack reuses the
 * previous one's nodes as far as they agree and appends new last children
 * after that, which builds the tree in depth-first order, children sorted,
 * without searching sibling lists. */
size_t flamegraph_tree(const struct flame_stack *stacks, size_t n, struct flame_node **nodes)
{
	const struct flame_stack **order = xrealloc(NULL, (n ? n : 1) * sizeof(*order));
	size_t m = 0, cap = 1, deepest = 0;
	for (size_t i = 0; i < n; i++)
		if (stacks[i].count) {
			order[m++] = &stacks[i];
			cap += stacks[i].nframes;
			if (stacks[i].nframes > deepest)
				deepest = stacks[i].nframes;
		}
	qsort(order, m, sizeof(*order), by_frames);
	struct flame_node *t = xrealloc(NULL, cap * sizeof(*t));
	uint32_t *path = xrealloc(NULL, (deepest + 1) * sizeof(*path));  /* by depth */
	t[0] = (struct flame_node){ "all", 0, NONE, NONE, 0 };
	path[0] = 0;
	size_t nn = 1, plen = 1;    /* plen: nodes on the previous stack's path */
	const struct flame_stack *prev = NULL;
	for (size_t i = 0; i < m; i++) {
		const struct flame_stack *s = order[i];
		size_t k = 0;
		while (prev && k < s->nframes && k < prev->nframes &&
		       strcmp(s->frames[k], prev->frames[k]) == 0)
			k++;
		for (size_t f = k; f < s->nframes; f++) {
			uint32_t node = (uint32_t)nn++;
			t[node] = (struct flame_node){ s->frames[f], 0, NONE, NONE, (uint32_t)f + 1 };
			if (f + 1 < plen)   /* the previous path's node here: the last child */
				t[path[f + 1]].next_sibling = node;
			else
				t[path[f]].first_child = node;
			path[f + 1] = node;
			plen = f + 2;
		}
		plen = (size_t)s->nframes + 1;
		for (size_t d = 0; d < plen; d++)
			t[path[d]].count += s->count;
		prev = s;
	}
	free(path);
	free(order);
	*nodes = xrealloc(t, nn * sizeof(*t));
	return nn;
}

/* ---- drawing ----------------------------------------------------------- */

struct flame_picture {
	const char *title;
	const struct flame_node *nodes;
	size_t n;
	const uint64_t *offset;         /* samples left of each node */
	const unsigned char *marked;    /* NULL when there is no mark() */
	size_t nmarked, nhost;
	uint32_t rows, depth;           /* rows drawn, rows in the tree */
	double scale;                   /* pixels per sample */
	double height;
};

/* Red to yellow, the same for the same name in every picture: FNV-1a of
 * the name picks the hue and a little of the other channels. */
static void warm_colour(cairo_t *cr, const char *name)
{
	uint32_t h = 2166136261u;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	double a = (h & 0xff) / 255.0, b = ((h >> 8) & 0xff) / 255.0, c = ((h >> 16) & 0xff) / 255.0;
	cairo_set_source_rgb(cr, 0.86 + 0.14 * b, 0.30 + 0.55 * a, 0.05 + 0.25 * c);
}

/* The title on the left; on the right what it must not lose to cutting:
 * the sample count and whether rows were left out. */
static void draw_title(cairo_t *cr, const struct flame_picture *p, uint64_t total)
{
	char right[128];
	int n = snprintf(right, sizeof(right), "%llu sample%s", (unsigned long long)total,
	                 total == 1 ? "" : "s");
	if (p->rows < p->depth)
		snprintf(right + n, sizeof(right) - (size_t)n, ", %u deepest rows not drawn",
		         p->depth - p->rows);
	double rw = (double)strlen(right) * TITLE_FONT * PICTURE_CHAR_W;
	double lw = FLAMEGRAPH_WIDTH - 2 * MARGIN - rw - 2 * TITLE_FONT;
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	if (lw > TITLE_FONT)
		picture_text(cr, MARGIN, MARGIN + TITLE_FONT, TITLE_FONT, lw, p->title, strlen(p->title));
	picture_text(cr, FLAMEGRAPH_WIDTH - MARGIN - rw, MARGIN + TITLE_FONT, TITLE_FONT, rw + 1,
	             right, strlen(right));
}

static void draw_frames(cairo_t *cr, const struct flame_picture *p)
{
	double bottom = MARGIN + TITLE_H + p->rows * ROW_H;    /* below the root's row */
	for (size_t i = 0; i < p->n; i++) {
		const struct flame_node *f = &p->nodes[i];
		double w = (double)f->count * p->scale;
		if (f->depth >= p->rows || w < MIN_W)
			continue;
		double x = MARGIN + (double)p->offset[i] * p->scale;
		double y = bottom - (f->depth + 1) * ROW_H;
		if (p->marked && p->marked[i] == FLAME_MARK_FAILED)
			cairo_set_source_rgb(cr, FLAMEGRAPH_MARK_R, FLAMEGRAPH_MARK_G, FLAMEGRAPH_MARK_B);
		else if (p->marked && p->marked[i] == FLAME_MARK_HOST)
			cairo_set_source_rgb(cr, FLAMEGRAPH_HOST_R, FLAMEGRAPH_HOST_G, FLAMEGRAPH_HOST_B);
		else
			warm_colour(cr, f->name);
		/* a pixel of white between neighbours wide enough to spare it */
		cairo_rectangle(cr, x, y, w >= 3 ? w - 1 : w, ROW_H - 1);
		cairo_fill(cr);
		if (w - 6 >= 3 * FONT * PICTURE_CHAR_W) {
			cairo_set_source_rgb(cr, 0, 0, 0);
			picture_text(cr, x + 3, y + ROW_H - 4.5, FONT, w - 6, f->name, strlen(f->name));
		}
	}
}

static void draw_legend(cairo_t *cr, const struct flame_picture *p)
{
	double y = p->height - MARGIN - 6;
	double x = MARGIN, w = FLAMEGRAPH_WIDTH - 2 * MARGIN;
	if (p->nhost) {
		/* host frames: a swatch and a few words before the rest */
		cairo_set_source_rgb(cr, FLAMEGRAPH_HOST_R, FLAMEGRAPH_HOST_G, FLAMEGRAPH_HOST_B);
		cairo_rectangle(cr, x, y - 10, 24, 12);
		cairo_fill(cr);
		cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
		picture_textf(cr, x + 32, y, FONT, 150, "host (C) frames");
		x += 182;
		w -= 182;
	}
	if (p->marked && !(p->nhost && !p->nmarked)) {
		cairo_set_source_rgb(cr, FLAMEGRAPH_MARK_R, FLAMEGRAPH_MARK_G, FLAMEGRAPH_MARK_B);
		cairo_rectangle(cr, x, y - 10, 24, 12);
		cairo_fill(cr);
		x += 32;
		w -= 32;
	}
	cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
	if (p->marked && !(p->nhost && !p->nmarked))
		picture_textf(cr, x, y, FONT, w, "marked (%zu frame%s): source lines where traces aborted "
		         "or were blacklisted.  Width: samples; callers below their callees.",
		         p->nmarked, p->nmarked == 1 ? "" : "s");
	else
		picture_textf(cr, x, y, FONT, w, "Width: samples; callers below their callees.");
}

static void draw_flamegraph(cairo_t *cr, const void *arg)
{
	const struct flame_picture *p = arg;
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_select_font_face(cr, PICTURE_FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	if (p->nodes[0].count == 0) {
		draw_title(cr, p, 0);
		cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
		picture_textf(cr, MARGIN, MARGIN + TITLE_H + FONT, FONT, 400, "no samples");
		return;
	}
	draw_title(cr, p, p->nodes[0].count);
	draw_frames(cr, p);
	draw_legend(cr, p);
}

int flamegraph_write(FILE *fp, enum picture_format fmt, const char *title,
                     const struct flame_stack *stacks, size_t n,
                     flame_mark_fn mark, void *ctx)
{
	struct flame_node *nodes;
	struct flame_picture p = { title ? title : "flame graph", NULL, 0, NULL, NULL, 0, 0, 0, 0, 0, 0 };
	p.n = flamegraph_tree(stacks, n, &nodes);
	p.nodes = nodes;
	if (nodes[0].count == 0) {
		p.height = 2 * MARGIN + TITLE_H + ROW_H;
		int r = picture_write(fp, fmt, FLAMEGRAPH_WIDTH, p.height, draw_flamegraph, &p);
		free(nodes);
		return r;
	}

	/* Each node starts where its elder siblings end, above its parent's
	 * start; parents come before children in the array.  Only rows with
	 * a frame wide enough to draw count, or a wide profile of rare deep
	 * stacks would be a tall empty canvas. */
	p.scale = (FLAMEGRAPH_WIDTH - 2 * MARGIN) / (double)nodes[0].count;
	uint64_t *offset = xrealloc(NULL, p.n * sizeof(*offset));
	offset[0] = 0;
	for (size_t i = 0; i < p.n; i++) {
		uint64_t x = offset[i];
		for (uint32_t c = nodes[i].first_child; c != NONE; c = nodes[c].next_sibling) {
			offset[c] = x;
			x += nodes[c].count;
		}
		if (nodes[i].depth + 1 > p.depth && (double)nodes[i].count * p.scale >= MIN_W)
			p.depth = nodes[i].depth + 1;
	}
	p.offset = offset;

	double fixed = 2 * MARGIN + TITLE_H + LEGEND_H;
	uint32_t fit = (uint32_t)((FLAMEGRAPH_HEIGHT_MAX - 1 - fixed) / ROW_H);
	p.rows = p.depth < fit ? p.depth : fit;
	p.height = fixed + p.rows * ROW_H;

	unsigned char *marked = NULL;
	if (mark) {
		marked = xrealloc(NULL, p.n);
		marked[0] = 0;      /* "all" is no frame of the program */
		for (size_t i = 1; i < p.n; i++) {
			int drawn = nodes[i].depth < p.rows && (double)nodes[i].count * p.scale >= MIN_W;
			int m = drawn ? mark(nodes[i].name, ctx) : 0;
			marked[i] = (unsigned char)(m == FLAME_MARK_HOST ? m : m ? FLAME_MARK_FAILED : 0);
			p.nmarked += marked[i] == FLAME_MARK_FAILED;
			p.nhost += marked[i] == FLAME_MARK_HOST;
		}
	}
	p.marked = marked;

	int r = picture_write(fp, fmt, FLAMEGRAPH_WIDTH, p.height, draw_flamegraph, &p);
	free(marked);
	free(offset);
	free(nodes);
	return r;
}
