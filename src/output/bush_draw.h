/* bush_draw.h — the picture of one bush, shared by the PNG and SVG views:
 * each trace a column (START, the exits its machine code references, END
 * with how it ends), side traces hanging from their parent's exit, placed
 * by the tidy-tree layout; drawn with cairo on any surface. */
#ifndef DUMPANALYZE_BUSH_DRAW_H
#define DUMPANALYZE_BUSH_DRAW_H

#include <stddef.h>
#include <stdint.h>
#include <cairo.h>
#include "model/model.h"
#include "util/tally.h"
#include "output/picture.h"

/* Canvas cap in pixels: a larger bush is scaled down to fit (and says so). */
#define BUSH_CANVAS_MAX 2048.0      /* 16 MB of pixels at most */

/* Exit counts of a generation (gen.exits), sorted for lookup. */
struct exit_counts {
	struct tally_entry *e;      /* a = trace, c = exit, count */
	size_t n;
};

void exit_counts_build(struct exit_counts *ec, const struct tally *taken);
uint64_t exit_counts_get(const struct exit_counts *ec, const struct da_trace *t, uint32_t exit);
void exit_counts_free(struct exit_counts *ec);

struct exit_node {
	uint32_t exit;
	uint64_t count;             /* times taken (+x), 0 when unknown */
	uint32_t sides;             /* side traces grown from this exit */
};

struct bush_block {
	const struct da_trace *trace;
	double x, y, w, h;          /* in layout units (before scaling) */
	struct exit_node *exits;
	uint32_t nexits;
	uint32_t parent_block;      /* index, or UINT32_MAX for the root */
};

struct bush_picture {
	const struct da_bush *bush;
	uint32_t gen;
	struct bush_block *blocks;  /* in the bush's stop order, root first */
	size_t nblocks;
	char title[160];            /* its lines separated by '\n' */
	double title_h;
	double content_w, content_h;    /* layout extent plus margins */
	double width, height;           /* canvas, after the cap */
	double scale;                   /* 1, or < 1 when capped */
	uint64_t hottest;               /* largest exit count in the bush */
};

int bush_picture_build(struct bush_picture *p, const struct da_bush *b, uint32_t gen,
                       const struct exit_counts *ec);
void bush_picture_draw(const struct bush_picture *p, cairo_t *cr);
void bush_picture_free(struct bush_picture *p);



struct view_ctx;
struct workers;
/* Draw every bush of the generation into gen-N-bush-ROOT[.K].png/.svg,
 * exits annotated from g->exits: in a worker when c->jobs > 1 (the files
 * appear when the worker is done; wait with workers_wait_all), else here. */
int bush_draw_generation(struct view_ctx *c, struct workers *w, const struct da_gen *g,
                         enum picture_format fmt);

/* The colour of the root trace (crimson), for tests that look for it. */
#define BUSH_ROOT_R 0.86
#define BUSH_ROOT_G 0.08
#define BUSH_ROOT_B 0.24

#endif
