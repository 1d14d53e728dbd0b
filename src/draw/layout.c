/* layout.c — tidy-tree layout; see layout.h.  The names follow the paper
 * ("Improving Walker's Algorithm to Run in Linear Time", 2002): prelim,
 * mod, thread, ancestor, shift, change.  No recursion: a bush can be a
 * chain 65,535 traces deep, and every walk goes by the parent, child and
 * sibling links instead, each node and edge a bounded number of times. */
#include <stdlib.h>
#include <string.h>
#include "draw/layout.h"
#include "util/arena.h"

struct tidy {
	struct layout_node *n;
	double hgap;
	uint64_t steps;             /* node visits and contour steps */
	uint64_t budget;            /* steps allowed: bounds a walk of links
	                               that are no tree */
};

static uint32_t next_left(const struct tidy *t, uint32_t v)
{
	return t->n[v].first_child != LAYOUT_NONE ? t->n[v].first_child : t->n[v].thread;
}

static uint32_t next_right(const struct tidy *t, uint32_t v)
{
	return t->n[v].first_child != LAYOUT_NONE ? t->n[v].last_child : t->n[v].thread;
}

static double distance(const struct tidy *t, uint32_t a, uint32_t b)
{
	return (t->n[a].w + t->n[b].w) / 2 + t->hgap;
}

/* The node after v in pre-order within root's subtree, or LAYOUT_NONE:
 * over a whole walk each edge is climbed once. */
static uint32_t preorder_next(struct tidy *t, uint32_t v, uint32_t root)
{
	const struct layout_node *n = t->n;
	if (n[v].first_child != LAYOUT_NONE)
		return n[v].first_child;
	while (v != root) {
		if (++t->steps > t->budget)
			return LAYOUT_NONE;
		if (n[v].next_sibling != LAYOUT_NONE)
			return n[v].next_sibling;
		v = n[v].parent;
	}
	return LAYOUT_NONE;
}

static void move_subtree(struct tidy *t, uint32_t wm, uint32_t wp, double shift)
{
	double subtrees = (double)t->n[wp].number - (double)t->n[wm].number;
	t->n[wp].change -= shift / subtrees;
	t->n[wp].shift += shift;
	t->n[wm].change += shift / subtrees;
	t->n[wp].prelim += shift;
	t->n[wp].mod += shift;
}

static uint32_t ancestor_of(const struct tidy *t, uint32_t vim, uint32_t v, uint32_t dflt)
{
	uint32_t a = t->n[vim].ancestor;
	return t->n[a].parent == t->n[v].parent ? a : dflt;
}

static uint32_t apportion(struct tidy *t, uint32_t v, uint32_t dflt)
{
	uint32_t w = t->n[v].prev_sibling;
	if (w == LAYOUT_NONE)
		return dflt;
	uint32_t vip = v, vop = v, vim = w;
	uint32_t vom = t->n[t->n[v].parent].first_child;
	double sip = t->n[vip].mod, sop = t->n[vop].mod;
	double sim = t->n[vim].mod, som = t->n[vom].mod;
	while (next_right(t, vim) != LAYOUT_NONE && next_left(t, vip) != LAYOUT_NONE) {
		t->steps++;
		vim = next_right(t, vim);
		vip = next_left(t, vip);
		vom = next_left(t, vom);
		vop = next_right(t, vop);
		t->n[vop].ancestor = v;
		double shift = (t->n[vim].prelim + sim) - (t->n[vip].prelim + sip) +
		               distance(t, vim, vip);
		if (shift > 0) {
			move_subtree(t, ancestor_of(t, vim, v, dflt), v, shift);
			sip += shift;
			sop += shift;
		}
		sim += t->n[vim].mod;
		sip += t->n[vip].mod;
		som += t->n[vom].mod;
		sop += t->n[vop].mod;
	}
	if (next_right(t, vim) != LAYOUT_NONE && next_right(t, vop) == LAYOUT_NONE) {
		t->n[vop].thread = next_right(t, vim);
		t->n[vop].mod += sim - sop;
	}
	if (next_left(t, vip) != LAYOUT_NONE && next_left(t, vom) == LAYOUT_NONE) {
		t->n[vom].thread = next_left(t, vip);
		t->n[vom].mod += sip - som;
		dflt = v;
	}
	return dflt;
}

static void execute_shifts(struct tidy *t, uint32_t v)
{
	double shift = 0, change = 0;
	for (uint32_t w = t->n[v].last_child; w != LAYOUT_NONE; w = t->n[w].prev_sibling) {
		t->steps++;
		t->n[w].prelim += shift;
		t->n[w].mod += shift;
		change += t->n[w].change;
		shift += t->n[w].shift + change;
	}
}

/* v's prelim: a leaf's from its left sibling, a parent's centred over its
 * children once they are placed (and shifted). */
static void place(struct tidy *t, uint32_t v)
{
	struct layout_node *n = t->n;
	uint32_t w = n[v].prev_sibling;
	if (n[v].first_child == LAYOUT_NONE) {
		n[v].prelim = w != LAYOUT_NONE ? n[w].prelim + distance(t, w, v) : 0;
		return;
	}
	execute_shifts(t, v);
	double mid = (n[n[v].first_child].prelim + n[n[v].last_child].prelim) / 2;
	if (w != LAYOUT_NONE) {
		n[v].prelim = n[w].prelim + distance(t, w, v);
		n[v].mod = n[v].prelim - mid;
	} else {
		n[v].prelim = mid;
	}
}

/* The first walk in post-order: each child placed, then apportioned
 * against its left siblings; a parent placed after its last child. */
static void first_walk(struct tidy *t, uint32_t root)
{
	struct layout_node *n = t->n;
	uint32_t v = root;
	for (;;) {
		while (n[v].first_child != LAYOUT_NONE) {   /* down to a leaf */
			t->steps++;
			n[v].dflt = n[v].first_child;
			v = n[v].first_child;
		}
		place(t, v);
		for (;;) {                                   /* up, or across */
			if (v == root)
				return;
			uint32_t p = n[v].parent;
			n[p].dflt = apportion(t, v, n[p].dflt);
			if (n[v].next_sibling != LAYOUT_NONE) {
				v = n[v].next_sibling;
				break;
			}
			v = p;
			place(t, v);
		}
	}
}

/* Parent, sibling, last child, depth links, numbering and the working
 * state reset, in pre-order; -1 if the links do not form a tree (a node
 * out of range, reached twice or in a cycle: the work is bounded). */
static int link(struct tidy *t, size_t count, uint32_t root, uint32_t *maxdepth)
{
	struct layout_node *n = t->n;
	uint64_t visited = 0, budget = t->steps + 3 * (uint64_t)count + 3;
	t->budget = budget;
	n[root].parent = LAYOUT_NONE;
	n[root].prev_sibling = LAYOUT_NONE;
	n[root].number = 1;
	n[root].depth = 0;
	for (uint32_t v = root; v != LAYOUT_NONE; v = preorder_next(t, v, root)) {
		if (++visited > count || t->steps > budget)
			return -1;
		t->steps++;
		if (n[v].depth > *maxdepth)
			*maxdepth = n[v].depth;
		uint32_t prev = LAYOUT_NONE, number = 1;
		for (uint32_t c = n[v].first_child; c != LAYOUT_NONE; c = n[c].next_sibling) {
			if (c >= count || c == root || ++t->steps > budget)
				return -1;
			n[c].parent = v;
			n[c].prev_sibling = prev;
			n[c].number = number++;
			n[c].depth = n[v].depth + 1;
			prev = c;
		}
		n[v].last_child = prev;
		n[v].thread = LAYOUT_NONE;
		n[v].ancestor = v;
		n[v].prelim = n[v].mod = n[v].shift = n[v].change = 0;
	}
	if (t->steps > budget)
		return -1;
	t->budget = UINT64_MAX;
	return 0;
}

int layout_tidy(struct layout_node *nodes, size_t n, uint32_t root,
                double hgap, double vgap, double *width, double *height, uint64_t *steps)
{
	uint32_t maxdepth = 0;
	struct tidy t = { nodes, hgap, 0, UINT64_MAX };
	if (root >= n || link(&t, n, root, &maxdepth) < 0)
		return -1;
	first_walk(&t, root);

	/* x from prelim and the mods of the ancestors (acc), its least;
	 * then x from 0, the extent and the bands' heights. */
	double minx = 0, maxx = 0;
	nodes[root].acc = -nodes[root].prelim;
	for (uint32_t v = root; v != LAYOUT_NONE; v = preorder_next(&t, v, root)) {
		t.steps++;
		struct layout_node *x = &nodes[v];
		if (v != root)
			x->acc = nodes[x->parent].acc + nodes[x->parent].mod;
		x->x = x->prelim + x->acc - x->w / 2;      /* prelim is the centre */
		if (x->x < minx)
			minx = x->x;
	}
	double *band = xrealloc(NULL, (maxdepth + 2) * sizeof(*band));
	memset(band, 0, (maxdepth + 2) * sizeof(*band));
	for (uint32_t v = root; v != LAYOUT_NONE; v = preorder_next(&t, v, root)) {
		t.steps++;
		struct layout_node *x = &nodes[v];
		x->x -= minx;
		if (x->x + x->w > maxx)
			maxx = x->x + x->w;
		if (x->h > band[x->depth])
			band[x->depth] = x->h;
	}
	double y = 0;
	for (uint32_t d = 0; d <= maxdepth; d++) {
		double h = band[d];
		band[d] = y;
		y += h + (d < maxdepth ? vgap : 0);
	}
	for (uint32_t v = root; v != LAYOUT_NONE; v = preorder_next(&t, v, root)) {
		t.steps++;
		nodes[v].y = band[nodes[v].depth];
	}
	free(band);
	*width = maxx;
	*height = y;
	if (steps)
		*steps += t.steps;
	return 0;
}
