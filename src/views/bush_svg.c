/* bush_svg.c — gen-N-bush-ROOT.svg: the bush picture of bush_png.c as SVG
 * (drawn by bush_draw.c), for browsers and documents. */
#include <cairo.h>
#include "views/view.h"
#include "draw/bush_files.h"
#include "draw/picture.h"
#include "draw/bush_queue.h"

static int bush_svg_gen_end(struct view_ctx *c, const struct da_gen *g)
{
	struct bush_choice all = { 1, 0 };
	return bush_draw_generation(c->out, c->jobs, c->state, g, PICTURE_SVG, all, &c->left_out);
}

/* Give back the kept pixels and the font caches, so leak checkers see only
 * our own memory. */
static int bush_svg_finish(struct view_ctx *c)
{
	int r = bush_queue_finish(c->state);
	picture_release();
	return r;
}

const struct view view_bush_svg = {
	.name = "bush-svg",
	.files = "gen-N-bush-ROOT.svg",
	.needs = NEEDS_CAIRO,
	.is_default = 0,
	.state_size = sizeof(struct bush_queue),
	.gen_end = bush_svg_gen_end,
	.finish = bush_svg_finish,
};
