/* bush_draw.c — draw a bush's blocks with cairo; see bush_draw.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "draw/bush_draw.h"
#include "draw/bush_geometry.h"
#include "draw/picture.h"

#define PI 3.14159265358979323846

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
	uint32_t k = exit_row(par, (uint32_t)b->trace->parent_exit);
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
	picture_text(cr, b->x + 7, b->y + 27, 9, COL_W - 14, t->loc, b->loc_len);
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
		if (x->run > 1) {
			picture_textf(cr, ex + 6, ey + 11, 9, 76, "%u/%u\u2013%u", t->id, x->exit,
			              x->last);
			cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
			picture_textf(cr, ex + 84, ey + 11, 9, EXIT_W - 88, "%u exits", x->run);
		} else {
			picture_textf(cr, ex + 6, ey + 11, 9, 62, "%u/%u", t->id, x->exit);
		}
		if (x->count)
			picture_textf(cr, ex + 66, ey + 11, 9, EXIT_W - 70, "\u00d7%llu",
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
	/* Shapes without antialiasing: no dotted strokes (frames, arcs: they
	 * cost more than the rest together), and no blends of edge colours,
	 * so that the picture keeps to a palette (below). */
	cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
	/* Curves (box corners, arcs) flattened to half a pixel, not cairo's
	 * tenth: without antialiasing the finer polygon moved only a few
	 * edge pixels, and stroking it was a third of the drawing. */
	cairo_set_tolerance(cr, 0.5);
	/* Text without antialiasing, hinted to the pixel grid: crisp at 9 px,
	 * and with it most pictures have at most 256 colours, which
	 * picture.c writes as a palette PNG (a third of the bytes to
	 * compress).  Scaled down, glyphs of 7 px and less need their grey
	 * edges to be read: those pictures keep them (and are RGB). */
	if (p->scale >= 1) {
		cairo_font_options_t *fo = cairo_font_options_create();
		cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_NONE);
		cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_FULL);
		cairo_set_font_options(cr, fo);
		cairo_font_options_destroy(fo);
	}
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
