/* test_layout.c — the tidy-tree layout: known positions, no overlaps,
 * centred parents, sibling order, determinism. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "draw/layout.h"

#define EPS 1e-6

static void init(struct layout_node *n, size_t count, double w, double h)
{
	memset(n, 0, count * sizeof(*n));
	for (size_t i = 0; i < count; i++) {
		n[i].w = w;
		n[i].h = h;
		n[i].first_child = n[i].next_sibling = LAYOUT_NONE;
	}
}

/* Append child c to parent p's children. */
static void add_child(struct layout_node *n, uint32_t p, uint32_t c)
{
	if (n[p].first_child == LAYOUT_NONE) {
		n[p].first_child = c;
		return;
	}
	uint32_t k = n[p].first_child;
	while (n[k].next_sibling != LAYOUT_NONE)
		k = n[k].next_sibling;
	n[k].next_sibling = c;
}

static double centre(const struct layout_node *n) { return n->x + n->w / 2; }

static void test_single_node(void **s)
{
	(void)s;
	struct layout_node n[1];
	init(n, 1, 30, 20);
	double w, h;
	assert_int_equal(layout_tidy(n, 1, 0, 5, 7, &w, &h, NULL), 0);
	assert_true(fabs(n[0].x) < EPS && fabs(n[0].y) < EPS);
	assert_true(fabs(w - 30) < EPS && fabs(h - 20) < EPS);
}

static void test_three_children_known_positions(void **s)
{
	(void)s;
	struct layout_node n[4];
	init(n, 4, 10, 10);
	add_child(n, 0, 1);
	add_child(n, 0, 2);
	add_child(n, 0, 3);
	double w, h;
	assert_int_equal(layout_tidy(n, 4, 0, 2, 5, &w, &h, NULL), 0);
	assert_true(fabs(n[1].x - 0) < EPS);
	assert_true(fabs(n[2].x - 12) < EPS);
	assert_true(fabs(n[3].x - 24) < EPS);
	assert_true(fabs(n[0].x - 12) < EPS);       /* centred */
	assert_true(fabs(n[0].y - 0) < EPS);
	assert_true(fabs(n[1].y - 15) < EPS);       /* band 10 + gap 5 */
	assert_true(fabs(w - 34) < EPS);
	assert_true(fabs(h - 25) < EPS);
}

static void test_subtrees_pack_without_overlap_known(void **s)
{
	(void)s;
	/*      0
	 *    1   2
	 *   3 4   5      node 5 must not slide under node 4 */
	struct layout_node n[6];
	init(n, 6, 10, 10);
	add_child(n, 0, 1);
	add_child(n, 0, 2);
	add_child(n, 1, 3);
	add_child(n, 1, 4);
	add_child(n, 2, 5);
	double w, h;
	assert_int_equal(layout_tidy(n, 6, 0, 2, 5, &w, &h, NULL), 0);
	assert_true(fabs(n[3].x - 0) < EPS);
	assert_true(fabs(n[4].x - 12) < EPS);
	assert_true(fabs(n[1].x - 6) < EPS);
	assert_true(n[5].x >= n[4].x + 10 + 2 - EPS);
	assert_true(fabs(centre(&n[2]) - centre(&n[5])) < EPS);
	assert_true(fabs(centre(&n[0]) - (centre(&n[1]) + centre(&n[2])) / 2) < EPS);
}

static uint32_t lcg(uint32_t *state)
{
	*state = *state * 1664525u + 1013904223u;
	return *state >> 8;
}

/* A random tree with random sizes, children appended in creation order. */
static struct layout_node *random_tree(size_t count, uint32_t seed)
{
	struct layout_node *n = calloc(count, sizeof(*n));
	init(n, count, 0, 0);
	for (size_t i = 0; i < count; i++) {
		n[i].w = 10 + lcg(&seed) % 50;
		n[i].h = 10 + lcg(&seed) % 40;
		if (i > 0) {
			/* Favour recent parents: long chains and wide fans both occur. */
			uint32_t back = 1 + lcg(&seed) % (uint32_t)(i < 8 ? i : 8);
			uint32_t p = lcg(&seed) % 3 == 0 ? lcg(&seed) % (uint32_t)i : (uint32_t)i - back;
			add_child(n, p, (uint32_t)i);
		}
	}
	return n;
}

static void check_tree(const struct layout_node *n, size_t count, double gap)
{
	for (size_t i = 0; i < count; i++) {
		/* parents centred over their children */
		if (n[i].first_child != LAYOUT_NONE) {
			uint32_t first = n[i].first_child, last = first;
			while (n[last].next_sibling != LAYOUT_NONE) {
				uint32_t nx = n[last].next_sibling;
				/* siblings in the order given, apart by the gap */
				assert_true(n[nx].x >= n[last].x + n[last].w + gap - EPS);
				last = nx;
			}
			double mid = (centre(&n[first]) + centre(&n[last])) / 2;
			assert_true(fabs(centre(&n[i]) - mid) < 1e-6);
		}
		/* no two nodes overlap */
		for (size_t j = i + 1; j < count; j++) {
			int apart_x = n[i].x + n[i].w <= n[j].x + EPS || n[j].x + n[j].w <= n[i].x + EPS;
			int apart_y = n[i].y + n[i].h <= n[j].y + EPS || n[j].y + n[j].h <= n[i].y + EPS;
			assert_true(apart_x || apart_y);
		}
		assert_true(n[i].x >= -EPS && n[i].y >= -EPS);
	}
}

static void test_random_trees_1_to_1000_nodes(void **s)
{
	(void)s;
	static const size_t sizes[] = { 1, 2, 3, 5, 8, 13, 50, 100, 333, 1000 };
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		for (uint32_t seed = 1; seed <= 3; seed++) {
			struct layout_node *n = random_tree(sizes[k], seed * 7919u + (uint32_t)k);
			double w, h;
			assert_int_equal(layout_tidy(n, sizes[k], 0, 4, 9, &w, &h, NULL), 0);
			check_tree(n, sizes[k], 4);
			for (size_t i = 0; i < sizes[k]; i++) {
				assert_true(n[i].x + n[i].w <= w + EPS);
				assert_true(n[i].y + n[i].h <= h + EPS);
			}
			free(n);
		}
	}
}

static void test_deterministic(void **s)
{
	(void)s;
	struct layout_node *a = random_tree(500, 42), *b = random_tree(500, 42);
	double wa, ha, wb, hb;
	layout_tidy(a, 500, 0, 3, 3, &wa, &ha, NULL);
	layout_tidy(b, 500, 0, 3, 3, &wb, &hb, NULL);
	for (size_t i = 0; i < 500; i++) {
		assert_memory_equal(&a[i].x, &b[i].x, sizeof(double));
		assert_memory_equal(&a[i].y, &b[i].y, sizeof(double));
	}
	/* running again on laid-out nodes gives the same result */
	layout_tidy(a, 500, 0, 3, 3, &wa, &ha, NULL);
	for (size_t i = 0; i < 500; i++)
		assert_memory_equal(&a[i].x, &b[i].x, sizeof(double));
	free(a);
	free(b);
}

/* Shapes of n nodes: a chain (each node the only child of the one
 * before), a fan (every node a child of the root), a binary tree, and
 * a comb (a chain whose every node also has a leaf). */
enum shape { CHAIN, FAN, BINARY, COMB };

static struct layout_node *shaped(size_t count, enum shape sh)
{
	struct layout_node *n = calloc(count, sizeof(*n));
	init(n, count, 20, 10);
	uint32_t last = 0;          /* the last node of each: fast appends */
	uint32_t *tail = calloc(count, sizeof(*tail));
	for (uint32_t i = 1; i < count; i++) {
		uint32_t p = sh == CHAIN ? i - 1 : sh == FAN ? 0 : sh == BINARY ? (i - 1) / 2
		             : (i % 2 ? (i > 1 ? i - 2 : 0) : i - 1);
		if (n[p].first_child == LAYOUT_NONE)
			n[p].first_child = i;
		else
			n[tail[p]].next_sibling = i;
		tail[p] = i;
		last = i;
	}
	(void)last;
	free(tail);
	return n;
}

/* The layout's work, counted (never timed): node visits and contour
 * steps per node stay under a constant from a thousand nodes to 65,535,
 * whatever the shape; a chain 65,535 deep is laid out without recursion
 * and costs what a fan of the same size costs. */
static void test_work_is_linear_in_the_nodes(void **s)
{
	(void)s;
	static const size_t sizes[] = { 1000, 8000, 65535 };
	uint64_t per[4][3];
	for (int sh = CHAIN; sh <= COMB; sh++)
		for (size_t k = 0; k < 3; k++) {
			struct layout_node *n = shaped(sizes[k], (enum shape)sh);
			double w, h;
			uint64_t steps = 0;
			assert_int_equal(layout_tidy(n, sizes[k], 0, 4, 9, &w, &h, &steps), 0);
			per[sh][k] = steps * 1000 / sizes[k];       /* per thousand nodes */
			assert_true(steps >= 4 * sizes[k]);     /* each pass visits each node */
			assert_true(steps <= 12 * (uint64_t)sizes[k]);
			if (sh == CHAIN)
				assert_true(fabs(h - (double)(sizes[k] * 10 + (sizes[k] - 1) * 9)) < EPS);
			if (sh == FAN)
				assert_true(fabs(w - (double)((sizes[k] - 1) * 20 + (sizes[k] - 2) * 4)) < EPS);
			if (sizes[k] <= 8000 && sh != FAN)
				check_tree(n, sizes[k], 4);
			free(n);
		}
	/* the same work per node at every size, within 1% */
	for (int sh = CHAIN; sh <= COMB; sh++)
		for (size_t k = 1; k < 3; k++)
			assert_true(per[sh][k] * 100 <= per[sh][0] * 101 && per[sh][0] * 100 <= per[sh][k] * 101);
	/* a chain costs what a fan costs, within a fifth */
	assert_true(per[CHAIN][2] * 5 <= per[FAN][2] * 6 && per[FAN][2] * 5 <= per[CHAIN][2] * 6);
}

static void test_not_a_tree_is_refused(void **s)
{
	(void)s;
	struct layout_node n[3];
	init(n, 3, 10, 10);
	add_child(n, 0, 1);
	n[1].first_child = 0;                   /* a cycle */
	double w, h;
	assert_int_equal(layout_tidy(n, 3, 0, 1, 1, &w, &h, NULL), -1);
	init(n, 3, 10, 10);
	n[0].first_child = 7;                   /* out of range */
	assert_int_equal(layout_tidy(n, 3, 0, 1, 1, &w, &h, NULL), -1);
	init(n, 3, 10, 10);
	add_child(n, 0, 1);
	add_child(n, 1, 2);
	n[2].next_sibling = 1;                  /* a sibling cycle */
	assert_int_equal(layout_tidy(n, 3, 0, 1, 1, &w, &h, NULL), -1);
	init(n, 3, 10, 10);
	add_child(n, 0, 1);
	add_child(n, 0, 2);
	n[1].first_child = 2;                   /* a node reached twice */
	assert_int_equal(layout_tidy(n, 3, 0, 1, 1, &w, &h, NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_node),
		cmocka_unit_test(test_three_children_known_positions),
		cmocka_unit_test(test_subtrees_pack_without_overlap_known),
		cmocka_unit_test(test_random_trees_1_to_1000_nodes),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_work_is_linear_in_the_nodes),
		cmocka_unit_test(test_not_a_tree_is_refused),
	};
	return cmocka_run_group_tests_name("layout", tests, NULL, NULL);
}
