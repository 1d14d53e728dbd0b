/* bush_draw.h — a bush picture's blocks (bush_blocks.h) drawn with cairo
 * on any surface: the columns, the side traces hanging from their
 * parent's exit, the title. */
#ifndef DUMPANALYZE_BUSH_DRAW_H
#define DUMPANALYZE_BUSH_DRAW_H

#include <cairo.h>
#include "draw/bush_blocks.h"

void bush_picture_draw(const struct bush_picture *p, cairo_t *cr);

/* The colour of the root trace (crimson), for tests that look for it. */
#define BUSH_ROOT_R 0.86
#define BUSH_ROOT_G 0.08
#define BUSH_ROOT_B 0.24

#endif
