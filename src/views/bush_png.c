/* bush_png.c — gen-N-bush-ROOT.png: the picture of each bush (drawn by
 * bush_draw.c), with the exits annotated by how often they were taken. */
#include <cairo.h>
#include "views/view.h"
#include "draw/bush_files.h"
#include "draw/picture.h"
#include "draw/bush_queue.h"

/* With the default set only bushes that grew side traces are drawn (a
 * lone trace's picture is one column that traces.csv says as well, and in
 * large dumps they are a third of the pictures), and only those whose
 * picture is readable at full scale: larger ones, scaled down to the
 * canvas, were unreadable and most of a large run's pixels.  Named, every
 * bush, as 0.9.1 drew them. */
static int bush_png_gen_end(struct view_ctx *c, const struct da_gen *g)
{
	struct bush_choice all = { 1, 0 }, chosen = { 2, BUSH_DEFAULT_MAX_SIDE };
	return bush_draw_generation(c->out, c->jobs, c->state, g, PICTURE_PNG,
	                            c->named ? all : chosen, &c->left_out);
}

/* Give back the kept pixels and the font caches, so leak checkers see only
 * our own memory. */
static int bush_png_finish(struct view_ctx *c)
{
	int r = bush_queue_finish(c->state);
	picture_release();
	return r;
}

const struct view view_bush_png = {
	.name = "bush-png",
	.files = "gen-N-bush-ROOT.png",
	.needs = NEEDS_CAIRO,
	.is_default = 1,
	.state_size = sizeof(struct bush_queue),
	.gen_end = bush_png_gen_end,
	.finish = bush_png_finish,
};
