/* layout.h — tidy-tree layout (Walker's algorithm in the linear-time form
 * of Buchheim, Jünger and Leipert): parents centred over their children,
 * siblings in the order given, subtrees packed as close as the gap
 * allows, nothing overlapping.  Nodes may differ in size; all nodes of
 * one depth share a band as tall as the tallest of them. */
#ifndef DUMPANALYZE_LAYOUT_H
#define DUMPANALYZE_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#define LAYOUT_NONE UINT32_MAX

struct layout_node {
	/* in */
	double w, h;
	uint32_t first_child, next_sibling;     /* indices, or LAYOUT_NONE */
	/* out: top-left corner; depth 0 for the root */
	double x, y;
	uint32_t depth;
	/* working state */
	uint32_t parent, prev_sibling, last_child, thread, ancestor, number, dflt;
	double prelim, mod, shift, change, acc;
};

/* Lay out the tree of n nodes rooted at `root` (nodes not reachable from
 * it are left alone).  Coordinates start at (0, 0); *width and *height
 * receive the extent.  Returns 0, or -1 when the links do not form a tree.
 * Linear in the nodes, without recursion: *steps (when not NULL) grows by
 * the node visits and contour steps taken, which the tests count. */
int layout_tidy(struct layout_node *nodes, size_t n, uint32_t root,
                double hgap, double vgap, double *width, double *height, uint64_t *steps);

#endif
