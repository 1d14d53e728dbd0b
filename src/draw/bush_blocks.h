/* bush_blocks.h — the picture of one bush, before drawing: each trace a
 * block (START, the exits its machine code references, those that grew
 * side traces and those taken, runs of the quiet ones as one row, END), side traces under their parent,
 * placed by the tidy-tree layout and scaled to fit the canvas. */
#ifndef DUMPANALYZE_BUSH_BLOCKS_H
#define DUMPANALYZE_BUSH_BLOCKS_H

#include <stddef.h>
#include <stdint.h>
#include "model/model.h"
#include "draw/exit_counts.h"

/* Canvas cap in pixels: a larger bush is scaled down to fit (and says so). */
#define BUSH_CANVAS_MAX 2048.0      /* 16 MB of pixels at most */

/* Runs of at least this many shown exits that were neither taken nor grew
 * a side trace are one row ("107/4-52  49 exits"): most of a trace's
 * exits are such, and a column of empty boxes made pictures tall and
 * large without saying more. */
#define EXIT_RUN_MIN 3

struct exit_node {
	uint32_t exit;
	uint32_t last;              /* the run's last exit; == exit for one */
	uint32_t run;               /* exits in the row: 1, or >= EXIT_RUN_MIN */
	uint64_t count;             /* times taken (+x), 0 when unknown */
	uint32_t sides;             /* side traces grown from this exit */
};

struct bush_block {
	const struct da_trace *trace;
	size_t loc_len;             /* trace->loc's bytes (it may hold NULs) */
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
	uint64_t steps;                 /* blocks, exits and layout steps
	                                   visited in building it: linear in
	                                   the bush's traces and exits */
};

/* 0, or negative when the bush does not form a tree; free p either way. */
int bush_picture_build(struct bush_picture *p, const struct da_bush *b, uint32_t gen,
                       const struct exit_counts *ec);
void bush_picture_free(struct bush_picture *p);
/* The row of b showing exit (a run of quiet exits holds several), or
 * b->nexits when none does. */
uint32_t exit_row(const struct bush_block *b, uint32_t exit);

#endif
