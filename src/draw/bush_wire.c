/* bush_wire.c — a bush picture packed into bytes and read back; see
 * bush_wire.h.  Both ends are the same build (a worker is forked), so
 * numbers travel in the machine's own layout. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "draw/bush_wire.h"
#include "util/alloc.h"

/* The picture's own fields, then per block these, its exits, its start
 * location and its link text. */
struct wire_head {
	uint32_t gen, nblocks, name_len, title_len;
	double title_h, content_w, content_h, width, height, scale;
	uint64_t hottest;
};

struct wire_block {
	double x, y, w, h;
	uint32_t nexits, parent_block;
	uint32_t id, parent, link_target, num_bc, num_ir, size_mc;
	int32_t parent_exit;
	int32_t link_kind;
	uint32_t has_parent_trace;
	uint32_t loc_len, link_len, unused;     /* no padding: every byte sent is set */
};

struct wire_exit {
	uint64_t count;
	uint32_t exit, last, run, sides;
};

/* No padding in what is sent: every byte of a message is set. */
_Static_assert(sizeof(struct wire_head) == 16 + 6 * 8 + 8, "wire_head has padding");
_Static_assert(sizeof(struct wire_block) == 4 * 8 + 14 * 4, "wire_block has padding");
_Static_assert(sizeof(struct wire_exit) == 8 + 4 * 4, "wire_exit has padding");

void bush_wire_pack(struct strbuf *sb, const struct bush_picture *p, const char *name)
{
	sb->len = 0;
	struct wire_head h = {
		.gen = p->gen, .nblocks = (uint32_t)p->nblocks, .name_len = (uint32_t)strlen(name),
		.title_len = (uint32_t)strlen(p->title), .title_h = p->title_h,
		.content_w = p->content_w, .content_h = p->content_h, .width = p->width,
		.height = p->height, .scale = p->scale, .hottest = p->hottest,
	};
	strbuf_add(sb, &h, sizeof(h));
	strbuf_add(sb, name, h.name_len);
	strbuf_add(sb, p->title, h.title_len);
	for (size_t i = 0; i < p->nblocks; i++) {
		const struct bush_block *b = &p->blocks[i];
		const struct da_trace *t = b->trace;
		struct wire_block wb = {
			.x = b->x, .y = b->y, .w = b->w, .h = b->h,
			.nexits = b->nexits, .parent_block = b->parent_block,
			.id = t->id, .parent = t->parent, .link_target = t->link_target,
			.num_bc = t->num_bc, .num_ir = t->num_ir, .size_mc = t->size_mc,
			.parent_exit = t->parent_exit, .link_kind = (int32_t)t->link_kind,
			.has_parent_trace = t->parent_trace != NULL,
			.loc_len = (uint32_t)b->loc_len,
			.link_len = t->link ? (uint32_t)strlen(t->link) : 0,
		};
		strbuf_add(sb, &wb, sizeof(wb));
		for (uint32_t k = 0; k < b->nexits; k++) {
			const struct exit_node *x = &b->exits[k];
			struct wire_exit we = { x->count, x->exit, x->last, x->run, x->sides };
			strbuf_add(sb, &we, sizeof(we));
		}
		strbuf_add(sb, t->loc ? t->loc : "", wb.loc_len);
		strbuf_add(sb, t->link ? t->link : "", wb.link_len);
	}
}

/* The next n bytes of the message, or NULL when it has fewer. */
static const char *take(const char **at, const char *end, size_t n)
{
	if ((size_t)(end - *at) < n)
		return NULL;
	const char *p = *at;
	*at += n;
	return p;
}

int bush_wire_unpack(struct bush_wire_picture *w, const char *msg, size_t n)
{
	memset(w, 0, sizeof(*w));
	const char *at = msg, *end = msg + n, *q;
	struct wire_head h;
	if (!(q = take(&at, end, sizeof(h))))
		return -1;
	memcpy(&h, q, sizeof(h));
	struct bush_picture *p = &w->p;
	/* every block takes sizeof(struct wire_block) bytes at least */
	if (h.name_len >= sizeof(w->name) || h.title_len >= sizeof(p->title) || h.nblocks == 0 ||
	    h.nblocks > (size_t)(end - at) / sizeof(struct wire_block))
		return -1;
	if (!(q = take(&at, end, h.name_len)))
		return -1;
	memcpy(w->name, q, h.name_len);
	if (!(q = take(&at, end, h.title_len)))
		return -1;
	memcpy(p->title, q, h.title_len);
	p->gen = h.gen;
	p->title_h = h.title_h;
	p->content_w = h.content_w;
	p->content_h = h.content_h;
	p->width = h.width;
	p->height = h.height;
	p->scale = h.scale;
	p->hottest = h.hottest;
	p->blocks = xrealloc(NULL, h.nblocks * sizeof(*p->blocks));
	memset(p->blocks, 0, h.nblocks * sizeof(*p->blocks));
	w->traces = xrealloc(NULL, h.nblocks * sizeof(*w->traces));
	memset(w->traces, 0, h.nblocks * sizeof(*w->traces));
	w->bush.root = &w->traces[0];
	w->bush.ntraces = h.nblocks;
	p->bush = &w->bush;
	for (uint32_t i = 0; i < h.nblocks; i++) {
		struct wire_block wb;
		if (!(q = take(&at, end, sizeof(wb))))
			goto bad;
		memcpy(&wb, q, sizeof(wb));
		p->nblocks = i + 1;         /* for bush_wire_free from here on */
		struct bush_block *b = &p->blocks[i];
		struct da_trace *t = &w->traces[i];
		if ((wb.parent_block != UINT32_MAX && wb.parent_block >= h.nblocks) ||
		    wb.nexits > (size_t)(end - at) / sizeof(struct wire_exit))
			goto bad;
		b->x = wb.x;
		b->y = wb.y;
		b->w = wb.w;
		b->h = wb.h;
		b->nexits = wb.nexits;
		b->parent_block = wb.parent_block;
		b->trace = t;
		b->exits = xrealloc(NULL, (wb.nexits ? wb.nexits : 1) * sizeof(*b->exits));
		for (uint32_t k = 0; k < wb.nexits; k++) {
			struct wire_exit we;
			memcpy(&we, take(&at, end, sizeof(we)), sizeof(we));
			b->exits[k] = (struct exit_node){ we.exit, we.last, we.run, we.count, we.sides };
		}
		const char *loc = take(&at, end, wb.loc_len), *link = take(&at, end, wb.link_len);
		if (!loc || !link)
			goto bad;
		t->bush = &w->bush;
		t->id = wb.id;
		t->parent = wb.parent;
		t->parent_exit = wb.parent_exit;
		/* the drawing asks only whether there is one */
		t->parent_trace = wb.has_parent_trace ? t : NULL;
		t->link_kind = (enum da_link)wb.link_kind;
		t->link_target = wb.link_target;
		t->num_bc = wb.num_bc;
		t->num_ir = wb.num_ir;
		t->size_mc = wb.size_mc;
		t->loc = loc;
		b->loc_len = wb.loc_len;
		/* the link is shown with %s: its own NUL-terminated copy */
		char *l = xrealloc(NULL, wb.link_len + 1);
		memcpy(l, link, wb.link_len);
		l[wb.link_len] = '\0';
		t->link = l;
	}
	if (at != end)
		goto bad;
	return 0;
bad:
	bush_wire_free(w);
	return -1;
}

void bush_wire_free(struct bush_wire_picture *w)
{
	for (size_t i = 0; i < w->p.nblocks; i++)
		free((char *)w->traces[i].link);
	bush_picture_free(&w->p);
	free(w->traces);
	w->traces = NULL;
}
