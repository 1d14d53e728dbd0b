/* bush_blocks.c — a bush as blocks: a trace's column (START, its exits,
 * END) sized, placed by the tidy-tree layout and scaled to the canvas;
 * see bush_blocks.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "draw/bush_blocks.h"
#include "draw/bush_geometry.h"
#include "draw/layout.h"
#include "draw/picture.h"
#include "util/alloc.h"
#include "util/intern.h"

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static uint32_t block_of(const struct bush_picture *p, const struct da_trace *t)
{
	size_t lo = 0, hi = p->nblocks;
	while (lo < hi) {           /* blocks are in stop order: seq ascends */
		size_t mid = (lo + hi) / 2;
		if (p->blocks[mid].trace->seq < t->seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->nblocks && p->blocks[lo].trace == t ? (uint32_t)lo : UINT32_MAX;
}

struct child_key { uint32_t parent, exit, block; };

static int by_parent_exit(const void *x, const void *y)
{
	const struct child_key *a = x, *b = y;
	if (a->parent != b->parent)
		return a->parent < b->parent ? -1 : 1;
	if (a->exit != b->exit)
		return a->exit < b->exit ? -1 : 1;
	return (a->block > b->block) - (a->block < b->block);
}

uint32_t exit_row(const struct bush_block *b, uint32_t exit)
{
	uint32_t lo = 0, hi = b->nexits;
	while (lo < hi) {           /* the last row whose first exit <= exit */
		uint32_t mid = lo + (hi - lo) / 2;
		if (b->exits[mid].exit <= exit)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && b->exits[lo - 1].last >= exit ? lo - 1 : b->nexits;
}

static int quiet(const struct exit_node *x)
{
	return x->count == 0 && x->sides == 0;
}

/* Runs of EXIT_RUN_MIN or more quiet exits (not taken, no side trace) as
 * one row each, in place. */
static void collapse_quiet_runs(struct bush_block *blk)
{
	uint32_t out = 0;
	for (uint32_t i = 0; i < blk->nexits;) {
		uint32_t j = i;
		while (j < blk->nexits && quiet(&blk->exits[j]))
			j++;
		if (j - i >= EXIT_RUN_MIN) {
			struct exit_node x = blk->exits[i];
			x.last = blk->exits[j - 1].exit;
			x.run = j - i;
			blk->exits[out++] = x;
			i = j;
		} else {
			blk->exits[out++] = blk->exits[i++];
		}
	}
	blk->nexits = out;
}

/* The exits shown for a trace: those its machine code references, those
 * that grew side traces (its children, nkids blocks) and those taken, in
 * exit order.  Linear in them, whatever the size of the bush. */
static void collect_exits(struct bush_picture *p, uint32_t bi, const struct exit_counts *ec,
                          const uint32_t *kids, size_t nkids)
{
	struct bush_block *blk = &p->blocks[bi];
	const struct da_trace *t = blk->trace;
	size_t cap = t->nexits + nkids + 1;
	size_t first = ec ? exit_counts_first(ec, t) : 0, ntaken = 0;
	while (ec && first + ntaken < ec->n && ec->e[first + ntaken].a == t)
		ntaken++;
	cap += ntaken;
	p->steps += cap;
	uint32_t *all = xrealloc(NULL, cap * sizeof(*all));
	size_t n = 0;
	for (uint32_t i = 0; i < t->nexits; i++)
		all[n++] = t->exits[i];
	for (size_t i = 0; i < nkids; i++)
		all[n++] = (uint32_t)p->blocks[kids[i]].trace->parent_exit;
	for (size_t i = 0; i < ntaken; i++)
		all[n++] = EXIT_KEY_EXIT(ec->e[first + i].c);
	qsort(all, n, sizeof(*all), cmp_u32);
	size_t u = 0;
	for (size_t i = 0; i < n; i++)
		if (u == 0 || all[u - 1] != all[i])
			all[u++] = all[i];
	blk->exits = xrealloc(NULL, (u ? u : 1) * sizeof(*blk->exits));
	blk->nexits = (uint32_t)u;
	for (size_t i = 0; i < u; i++) {
		struct exit_node *x = &blk->exits[i];
		x->exit = x->last = all[i];
		x->run = 1;
		x->count = ec ? exit_counts_get(ec, t, all[i]) : 0;
		x->sides = 0;
		if (x->count > p->hottest)
			p->hottest = x->count;
	}
	for (size_t i = 0; i < nkids; i++)
		blk->exits[exit_row(blk, (uint32_t)p->blocks[kids[i]].trace->parent_exit)].sides++;
	free(all);
	collapse_quiet_runs(blk);
}

/* The title's parts, wrapped into lines of at most width pixels (wider
 * only for a part that is wider itself): a bush of one column needs half
 * the width of the title on one line, and most bushes have one.  Returns
 * the width of the widest line. */
static double wrap_title(struct bush_picture *p, double width)
{
	const struct da_bush *b = p->bush;
	char part[5][48];
	snprintf(part[0], sizeof(part[0]), "gen %u", p->gen);
	snprintf(part[1], sizeof(part[1]), "bush %u", b->root->id);
	snprintf(part[2], sizeof(part[2]), "%u trace%s", b->ntraces, b->ntraces == 1 ? "" : "s");
	snprintf(part[3], sizeof(part[3]), "%llu B mcode", (unsigned long long)b->mcode_bytes);
	snprintf(part[4], sizeof(part[4]), "(exits: times taken)");
	size_t nparts = p->hottest ? 5 : 4, room = (size_t)(width / (TITLE_SIZE * PICTURE_CHAR_W));
	size_t len = 0, line = 0, widest = 0, lines = 1;
	for (size_t i = 0; i < nparts; i++) {
		size_t n = strlen(part[i]);
		if (line && line + 2 + n > room) {
			p->title[len++] = '\n';
			lines++;
			line = 0;
		} else if (line) {
			memcpy(p->title + len, "  ", 2);
			len += 2;
			line += 2;
		}
		memcpy(p->title + len, part[i], n);
		len += n;
		line += n;
		if (line > widest)
			widest = line;
	}
	p->title[len] = '\0';
	p->title_h = 12 + lines * TITLE_LINE;
	return (double)widest * TITLE_SIZE * PICTURE_CHAR_W;
}

int bush_picture_build(struct bush_picture *p, const struct da_bush *b, uint32_t gen,
                       const struct exit_counts *ec)
{
	memset(p, 0, sizeof(*p));
	p->bush = b;
	p->gen = gen;
	p->nblocks = b->ntraces;
	p->blocks = xrealloc(NULL, p->nblocks * sizeof(*p->blocks));
	memset(p->blocks, 0, p->nblocks * sizeof(*p->blocks));
	size_t i = 0;
	for (const struct da_trace *t = b->root; t && i < p->nblocks; t = t->next_in_bush) {
		p->blocks[i].loc_len = t->loc ? intern_len(t->loc) : 0;
		p->blocks[i++].trace = t;
	}
	p->nblocks = i;
	/* Each block's children, in stop order, as one array (kid_at[b] to
	 * kid_at[b + 1]): nothing below looks at every block per block. */
	uint32_t *kid_at = xrealloc(NULL, (p->nblocks + 2) * sizeof(*kid_at));
	uint32_t *kids = xrealloc(NULL, (p->nblocks ? p->nblocks : 1) * sizeof(*kids));
	memset(kid_at, 0, (p->nblocks + 2) * sizeof(*kid_at));
	for (i = 0; i < p->nblocks; i++) {
		const struct da_trace *par = p->blocks[i].trace->parent_trace;
		uint32_t pb = i && par ? block_of(p, par) : UINT32_MAX;
		p->blocks[i].parent_block = pb;
		if (pb != UINT32_MAX)
			kid_at[pb + 2]++;
	}
	for (i = 2; i < p->nblocks + 2; i++)
		kid_at[i] += kid_at[i - 1];
	for (i = 0; i < p->nblocks; i++)
		if (p->blocks[i].parent_block != UINT32_MAX)
			kids[kid_at[p->blocks[i].parent_block + 1]++] = (uint32_t)i;
	p->steps += 3 * (uint64_t)p->nblocks;
	for (i = 0; i < p->nblocks; i++)
		collect_exits(p, (uint32_t)i, ec, kids + kid_at[i], kid_at[i + 1] - kid_at[i]);
	free(kid_at);
	free(kids);

	/* Tree for the layout: children ordered by parent exit, then by
	 * stop order. */
	struct layout_node *ln = xrealloc(NULL, p->nblocks * sizeof(*ln));
	memset(ln, 0, p->nblocks * sizeof(*ln));
	struct child_key *keys = xrealloc(NULL, (p->nblocks ? p->nblocks : 1) * sizeof(*keys));
	size_t nk = 0;
	for (i = 0; i < p->nblocks; i++) {
		ln[i].w = COL_W;
		ln[i].h = block_height(p->blocks[i].nexits);
		ln[i].first_child = ln[i].next_sibling = LAYOUT_NONE;
		if (p->blocks[i].parent_block != UINT32_MAX)
			keys[nk++] = (struct child_key){ p->blocks[i].parent_block,
			                                 (uint32_t)p->blocks[i].trace->parent_exit,
			                                 (uint32_t)i };
	}
	qsort(keys, nk, sizeof(*keys), by_parent_exit);
	for (size_t k = nk; k-- > 0;) {     /* prepend in reverse: ordered lists */
		ln[keys[k].block].next_sibling = ln[keys[k].parent].first_child;
		ln[keys[k].parent].first_child = keys[k].block;
	}
	free(keys);
	double w = 0, h = 0;
	int r = p->nblocks ? layout_tidy(ln, p->nblocks, 0, HGAP, VGAP, &w, &h, &p->steps) : 0;
	/* Room for the loop arcs on the left, and for the title. */
	double title_w = wrap_title(p, w + 24);
	p->content_w = 2 * MARGIN + (w + 24 > title_w ? w + 24 : title_w);
	for (i = 0; r == 0 && i < p->nblocks; i++) {
		p->blocks[i].x = MARGIN + ln[i].x;
		p->blocks[i].y = MARGIN + p->title_h + ln[i].y;
		p->blocks[i].w = ln[i].w;
		p->blocks[i].h = ln[i].h;
	}
	free(ln);
	p->content_h = 2 * MARGIN + p->title_h + h;
	p->scale = 1;
	if (p->content_w > BUSH_CANVAS_MAX || p->content_h > BUSH_CANVAS_MAX) {
		double sx = BUSH_CANVAS_MAX / p->content_w, sy = BUSH_CANVAS_MAX / p->content_h;
		p->scale = sx < sy ? sx : sy;
	}
	p->width = ceil(p->content_w * p->scale);
	p->height = ceil(p->content_h * p->scale);
	return r;
}

void bush_picture_free(struct bush_picture *p)
{
	for (size_t i = 0; i < p->nblocks; i++)
		free(p->blocks[i].exits);
	free(p->blocks);
	p->blocks = NULL;
	p->nblocks = 0;
}
