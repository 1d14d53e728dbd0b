/* layout.c — tidy-tree layout; see layout.h.  The names follow the paper
 * ("Improving Walker's Algorithm to Run in Linear Time", 2002): prelim,
 * mod, thread, ancestor, shift, change. */
#include <stdlib.h>
#include <string.h>
#include "output/layout.h"
#include "util/arena.h"

struct tidy {
	struct layout_node *n;
	double hgap;
};

static uint32_t last_child(const struct tidy *t, uint32_t v)
{
	uint32_t c = t->n[v].first_child, last = LAYOUT_NONE;
	while (c != LAYOUT_NONE) {
		last = c;
		c = t->n[c].next_sibling;
	}
	return last;
}

static uint32_t next_left(const struct tidy *t, uint32_t v)
{
	return t->n[v].first_child != LAYOUT_NONE ? t->n[v].first_child : t->n[v].thread;
}

static uint32_t next_right(const struct tidy *t, uint32_t v)
{
	return t->n[v].first_child != LAYOUT_NONE ? last_child(t, v) : t->n[v].thread;
}

static double distance(const struct tidy *t, uint32_t a, uint32_t b)
{
	return (t->n[a].w + t->n[b].w) / 2 + t->hgap;
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
	for (uint32_t w = last_child(t, v); w != LAYOUT_NONE; w = t->n[w].prev_sibling) {
		t->n[w].prelim += shift;
		t->n[w].mod += shift;
		change += t->n[w].change;
		shift += t->n[w].shift + change;
	}
}

static void first_walk(struct tidy *t, uint32_t v)
{
	struct layout_node *n = t->n;
	uint32_t w = n[v].prev_sibling;
	if (n[v].first_child == LAYOUT_NONE) {
		n[v].prelim = w != LAYOUT_NONE ? n[w].prelim + distance(t, w, v) : 0;
		return;
	}
	uint32_t dflt = n[v].first_child;
	for (uint32_t c = n[v].first_child; c != LAYOUT_NONE; c = n[c].next_sibling) {
		first_walk(t, c);
		dflt = apportion(t, c, dflt);
	}
	execute_shifts(t, v);
	double mid = (n[n[v].first_child].prelim + n[last_child(t, v)].prelim) / 2;
	if (w != LAYOUT_NONE) {
		n[v].prelim = n[w].prelim + distance(t, w, v);
		n[v].mod = n[v].prelim - mid;
	} else {
		n[v].prelim = mid;
	}
}

static void second_walk(struct tidy *t, uint32_t v, double m, double *minx)
{
	struct layout_node *n = t->n;
	n[v].x = n[v].prelim + m - n[v].w / 2;     /* prelim is the centre */
	if (n[v].x < *minx)
		*minx = n[v].x;
	for (uint32_t c = n[v].first_child; c != LAYOUT_NONE; c = n[c].next_sibling)
		second_walk(t, c, m + n[v].mod, minx);
}

/* Parent, sibling, depth links and numbering; -1 if not a tree. */
static int link(struct layout_node *n, size_t count, uint32_t v, uint32_t depth,
                uint32_t *visited, uint32_t *maxdepth)
{
	if (v >= count || ++*visited > count)
		return -1;
	n[v].depth = depth;
	if (depth > *maxdepth)
		*maxdepth = depth;
	uint32_t prev = LAYOUT_NONE, number = 1;
	for (uint32_t c = n[v].first_child; c != LAYOUT_NONE; c = n[c].next_sibling) {
		if (c >= count)
			return -1;
		n[c].parent = v;
		n[c].prev_sibling = prev;
		n[c].number = number++;
		if (link(n, count, c, depth + 1, visited, maxdepth) < 0)
			return -1;
		prev = c;
	}
	return 0;
}

static void reset(struct layout_node *n, uint32_t v)
{
	n[v].thread = LAYOUT_NONE;
	n[v].ancestor = v;
	n[v].prelim = n[v].mod = n[v].shift = n[v].change = 0;
	for (uint32_t c = n[v].first_child; c != LAYOUT_NONE; c = n[c].next_sibling)
		reset(n, c);
}

static void band_y(struct layout_node *n, uint32_t v, const double *top)
{
	n[v].y = top[n[v].depth];
	for (uint32_t c = n[v].first_child; c != LAYOUT_NONE; c = n[c].next_sibling)
		band_y(n, c, top);
}

static void band_heights(const struct layout_node *n, uint32_t v, double *band)
{
	if (n[v].h > band[n[v].depth])
		band[n[v].depth] = n[v].h;
	for (uint32_t c = n[v].first_child; c != LAYOUT_NONE; c = n[c].next_sibling)
		band_heights(n, c, band);
}

static void shift_x(struct layout_node *n, uint32_t v, double dx, double *maxx)
{
	n[v].x -= dx;
	if (n[v].x + n[v].w > *maxx)
		*maxx = n[v].x + n[v].w;
	for (uint32_t c = n[v].first_child; c != LAYOUT_NONE; c = n[c].next_sibling)
		shift_x(n, c, dx, maxx);
}

int layout_tidy(struct layout_node *nodes, size_t n, uint32_t root,
                double hgap, double vgap, double *width, double *height)
{
	uint32_t visited = 0, maxdepth = 0;
	if (root >= n)
		return -1;
	nodes[root].parent = LAYOUT_NONE;
	nodes[root].prev_sibling = LAYOUT_NONE;
	nodes[root].number = 1;
	if (link(nodes, n, root, 0, &visited, &maxdepth) < 0)
		return -1;
	reset(nodes, root);

	struct tidy t = { nodes, hgap };
	first_walk(&t, root);
	double minx = 0;
	second_walk(&t, root, -nodes[root].prelim, &minx);
	double maxx = 0;
	shift_x(nodes, root, minx, &maxx);

	double *band = xrealloc(NULL, (maxdepth + 2) * sizeof(*band));
	memset(band, 0, (maxdepth + 2) * sizeof(*band));
	band_heights(nodes, root, band);
	double y = 0;
	for (uint32_t d = 0; d <= maxdepth; d++) {
		double h = band[d];
		band[d] = y;
		y += h + (d < maxdepth ? vgap : 0);
	}
	band_y(nodes, root, band);
	free(band);
	*width = maxx;
	*height = y;
	return 0;
}
