/* bush_png.c — gen-N-bush-ROOT.png: the picture of each bush (drawn by
 * bush_draw.c), with the exits annotated by how often they were taken. */
#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include "dumpanalyze/view.h"
#include "dumpanalyze/bush_draw.h"

struct bush_png_state {
	struct tally taken;         /* (trace, NULL, exit) -> count */
};

static int bush_png_exit(struct view_ctx *c, const struct exit_rec *e)
{
	struct bush_png_state *s = c->state;
	if (e->trace)
		tally_add(&s->taken, e->trace, NULL, e->exit, 1);
	return 0;
}

static int bush_png_gen_end(struct view_ctx *c, const struct gen *g)
{
	struct bush_png_state *s = c->state;
	int r = bush_draw_generation(c, g, &s->taken, PICTURE_PNG);
	tally_clear(&s->taken);
	return r;
}

/* Give back cairo's and fontconfig's caches, so leak checkers see only
 * our own memory. */
static int bush_png_finish(struct view_ctx *c)
{
	struct bush_png_state *s = c->state;
	tally_free(&s->taken);
	cairo_debug_reset_static_data();
	FcFini();
	return 0;
}

const struct view view_bush_png = {
	.name = "bush-png",
	.summary = "a picture of each bush",
	.files = "gen-N-bush-ROOT.png",
	.needs = NEEDS_CAIRO,
	.is_default = 1,
	.state_size = sizeof(struct bush_png_state),
	.exit = bush_png_exit,
	.gen_end = bush_png_gen_end,
	.finish = bush_png_finish,
};
