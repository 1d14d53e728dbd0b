/* bush_png.c — gen-N-bush-ROOT.png: the picture of each bush (drawn by
 * bush_draw.c), with the exits annotated by how often they were taken. */
#include <cairo.h>
#include "views/view.h"
#include "output/bush_files.h"
#include "output/picture.h"
#include "output/workers.h"

static int bush_png_gen_end(struct view_ctx *c, const struct da_gen *g)
{
	return bush_draw_generation(c, c->state, g, PICTURE_PNG);
}

/* Give back the kept pixels and the font caches, so leak checkers see only
 * our own memory. */
static int bush_png_finish(struct view_ctx *c)
{
	int r = workers_wait_all(c->state);
	workers_free(c->state);
	picture_release();
	return r;
}

const struct view view_bush_png = {
	.name = "bush-png",
	.summary = "a picture of each bush",
	.files = "gen-N-bush-ROOT.png",
	.needs = NEEDS_CAIRO,
	.is_default = 1,
	.state_size = sizeof(struct workers),
	.gen_end = bush_png_gen_end,
	.finish = bush_png_finish,
};
