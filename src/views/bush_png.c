/* bush_png.c — gen-N-bush-ROOT.png: a picture of each bush.  For now an
 * indented tree of its traces (root in crimson, side traces under the
 * trace and exit they grew from); the graph drawing with a tidy-tree
 * layout replaces it later without changing the file names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include "dumpanalyze/view.h"
#include "dumpanalyze/outdir.h"
#include "dumpanalyze/intern.h"
#include "dumpanalyze/diag.h"
#include "bush_name.h"

#define ROW_H 18
#define INDENT 22
#define MARGIN 12
#define FONT_PX 12.0
#define MAX_ROWS 1500               /* keeps the canvas below cairo's limit */

static cairo_status_t write_fp(void *closure, const unsigned char *data,
                               unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS
	                                            : CAIRO_STATUS_WRITE_ERROR;
}

static unsigned depth_of(const struct trace *t)
{
	unsigned d = 0;
	for (const struct trace *p = t->parent_trace; p; p = p->parent_trace)
		d++;
	return d;
}

static void describe(char *buf, size_t n, const struct trace *t)
{
	char from[32] = "";
	if (t->parent_trace)
		snprintf(from, sizeof(from), " from %u/%d", t->parent, t->parent_exit);
	else if (t->parent_exit == PARENT_EXIT_STITCH)
		snprintf(from, sizeof(from), " stitched after %u", t->parent);
	snprintf(buf, n, "TRACE %u%s  %.*s  -> %s   IR %u  mcode %u",
	         t->id, from, (int)(intern_len(t->loc) > 60 ? 60 : intern_len(t->loc)),
	         t->loc, t->link, t->num_ir, t->size_mc);
	for (char *p = buf; *p; p++)     /* chunk names may hold newlines */
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
}

static int draw_bush(FILE *fp, const struct bush *b)
{
	unsigned rows = b->ntraces < MAX_ROWS ? b->ntraces : MAX_ROWS + 1;
	unsigned maxdepth = 0;
	for (const struct trace *t = b->root; t; t = t->next_in_bush) {
		unsigned d = depth_of(t);
		if (d > maxdepth)
			maxdepth = d;
	}
	if (maxdepth > 40)
		maxdepth = 40;
	int width = 2 * MARGIN + (int)maxdepth * INDENT + 560;
	int height = 2 * MARGIN + (int)rows * ROW_H;
	cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
	cairo_t *cr = cairo_create(surf);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_select_font_face(cr, "DejaVu Sans Mono", CAIRO_FONT_SLANT_NORMAL,
	                       CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, FONT_PX);
	unsigned row = 0;
	char text[256];
	for (const struct trace *t = b->root; t && row < rows; t = t->next_in_bush, row++) {
		double y = MARGIN + row * ROW_H + FONT_PX;
		if (row == MAX_ROWS) {
			snprintf(text, sizeof(text), "... %u more traces", b->ntraces - MAX_ROWS);
			cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
			cairo_move_to(cr, MARGIN, y);
			cairo_show_text(cr, text);
			break;
		}
		unsigned d = depth_of(t);
		double x = MARGIN + (d > 40 ? 40 : d) * INDENT;
		if (t == b->root)
			cairo_set_source_rgb(cr, 0.86, 0.08, 0.24);     /* crimson */
		else
			cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		cairo_rectangle(cr, x, y - FONT_PX + 2, 8, 8);
		cairo_fill(cr);
		describe(text, sizeof(text), t);
		cairo_move_to(cr, x + 14, y);
		cairo_show_text(cr, text);
	}
	cairo_destroy(cr);
	cairo_surface_flush(surf);
	cairo_status_t st = cairo_surface_write_to_png_stream(surf, write_fp, fp);
	cairo_surface_destroy(surf);
	return st == CAIRO_STATUS_SUCCESS ? 0 : -1;
}

static int bush_png_gen_end(struct view_ctx *c, const struct gen *g)
{
	for (const struct bush *b = g->bushes; b; b = b->next) {
		char name[64];
		bush_file_suffix(name, sizeof(name), b, "png");
		struct outfile *f = view_create_file(c, g, name);
		FILE *fp = f ? outfile_fp(f) : NULL;
		if (!fp)
			return -1;
		if (draw_bush(fp, b) < 0) {
			da_error("%s/gen-%u-%s: cannot draw the picture", outdir_path(c->out),
			         g->number, name);
			return -1;
		}
		if (outfile_commit(f) < 0)
			return -1;
	}
	return 0;
}

/* Give back cairo's and fontconfig's caches, so leak checkers see only
 * our own memory. */
static int bush_png_finish(struct view_ctx *c)
{
	(void)c;
	cairo_debug_reset_static_data();
	FcFini();
	return 0;
}

const struct view view_bush_png = {
	.name = "bush-png",
	.summary = "a picture of each bush",
	.files = "gen-N-bush-ROOT.png",
	.needs = NEEDS_CAIRO,
	.is_default = 1,
	.gen_end = bush_png_gen_end,
	.finish = bush_png_finish,
};
