/* flamegraph.h — a flame graph of folded stacks (LuaJIT's -jp=G), drawn
 * with cairo and written as PNG or SVG; frames at source lines where the
 * JIT failed can be marked in a colour of their own. */
#ifndef DUMPANALYZE_FLAMEGRAPH_H
#define DUMPANALYZE_FLAMEGRAPH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "draw/picture.h"

/* One folded stack as LuaJIT's profiler writes it with -jp=G: frames from the
 * outermost caller to the leaf, and how many samples had that stack. */
struct flame_stack {
	const char *const *frames;  /* NUL-terminated frame names, e.g. "@0x55..", "tablex.lua:575", "xpcall" */
	uint32_t nframes;
	uint64_t count;
};

/* How a frame is coloured: FLAME_MARK_FAILED (its source line had JIT
 * aborts or blacklisting; any other non-zero value counts as this too),
 * FLAME_MARK_HOST (a host, C stack, frame), or 0.  NULL: none marked. */
enum { FLAME_MARK_FAILED = 1, FLAME_MARK_HOST = 2 };
typedef int (*flame_mark_fn)(const char *frame, void *ctx);

/* Merge the stacks into a tree (same frame name under the same parent = one
 * node; children ordered by name bytewise, like flamegraph.pl, so the picture
 * does not depend on input order) and draw it: width proportional to samples,
 * the root at the bottom, one row per depth, a label in each frame wide enough
 * for it (cut with an ellipsis), frames for which mark() returns
 * FLAME_MARK_FAILED in the marked colour (with a legend line explaining
 * the marking), FLAME_MARK_HOST in grey (with a legend of its own), other
 * frames in warm colours chosen from a hash of the frame name, a title line
 * at the top (the title argument) with the total sample count.
 * Frames narrower than ~0.5 px are not drawn.  Width 1200 px; height from
 * the depth (16 px per row plus title, legend and margins), capped so the
 * canvas stays under 2048 px high (deeper rows are not drawn, and the title
 * line says so).
 * Writes PNG or SVG through picture_write(), whose result it returns (0,
 * PICTURE_ENOMEM or -1).
 * Zero stacks or a zero total: draws a small picture saying "no samples". */
int flamegraph_write(FILE *fp, enum picture_format fmt, const char *title,
                     const struct flame_stack *stacks, size_t n,
                     flame_mark_fn mark, void *ctx);

/* A node of the merged tree: indexes into the array, UINT32_MAX for none;
 * node 0 is the root (name "all"), the others follow in depth-first order
 * with children sorted by name.  count: samples of the stacks through it. */
struct flame_node {
	const char *name;
	uint64_t count;
	uint32_t first_child, next_sibling, depth;
};

/* The merged tree, as above; caller frees *nodes.  Returns the node count
 * (at least 1, the root).  Names point into the stacks' frame strings or
 * static "all"; stacks with a zero count add nothing. */
size_t flamegraph_tree(const struct flame_stack *stacks, size_t n, struct flame_node **nodes);

/* Canvas width, height cap (exclusive), and the colour of marked frames
 * (a cool blue among the warm ones), for tests that look for them. */
#define FLAMEGRAPH_WIDTH 1200
#define FLAMEGRAPH_HEIGHT_MAX 2048
#define FLAMEGRAPH_MARK_R 0.35
#define FLAMEGRAPH_MARK_G 0.55
#define FLAMEGRAPH_MARK_B 0.95
/* host frames (sysprof's C stacks): a grey of their own */
#define FLAMEGRAPH_HOST_R 0.66
#define FLAMEGRAPH_HOST_G 0.68
#define FLAMEGRAPH_HOST_B 0.70

#endif
