/* bush_geometry.h — the measures of a bush picture, in pixels at scale 1:
 * the blocks are sized and placed by them (bush_blocks.c) and drawn by
 * them (bush_draw.c), so both read them here. */
#ifndef DUMPANALYZE_BUSH_GEOMETRY_H
#define DUMPANALYZE_BUSH_GEOMETRY_H

#include <stdint.h>
#include "draw/bush_blocks.h"

#define COL_W 200.0         /* a trace's column */
#define START_H 46.0
#define EXIT_W 140.0
#define EXIT_H 15.0
#define ROW_GAP 7.0
#define END_H 20.0
#define HGAP 20.0
#define VGAP 34.0
#define MARGIN 24.0
#define TITLE_SIZE 14.0     /* the title's font size */
#define TITLE_LINE 18.0

/* A column of nexits exits: START, a row per exit, END. */
static inline double block_height(uint32_t nexits)
{
	return START_H + nexits * (EXIT_H + ROW_GAP) + ROW_GAP + END_H;
}

/* The top of exit row k of block b. */
static inline double exit_y(const struct bush_block *b, uint32_t k)
{
	return b->y + START_H + ROW_GAP + k * (EXIT_H + ROW_GAP);
}

/* The top of block b's END. */
static inline double end_y(const struct bush_block *b)
{
	return b->y + START_H + ROW_GAP + b->nexits * (EXIT_H + ROW_GAP);
}

/* The left edge of block b's exits and END, narrower than its START. */
static inline double inner_x(const struct bush_block *b)
{
	return b->x + (COL_W - EXIT_W) / 2;
}

#endif
