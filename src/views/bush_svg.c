/* bush_svg.c — gen-N-bush-ROOT.svg: the bush picture of bush_png.c as SVG
 * (drawn by bush_draw.c), for browsers and documents. */
#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include "dumpanalyze/view.h"
#include "dumpanalyze/bush_draw.h"

struct bush_svg_state {
	struct tally taken;         /* (trace, NULL, exit) -> count */
};

static int bush_svg_exit(struct view_ctx *c, const struct exit_rec *e)
{
	struct bush_svg_state *s = c->state;
	if (e->trace)
		tally_add(&s->taken, e->trace, NULL, e->exit, 1);
	return 0;
}

static int bush_svg_gen_end(struct view_ctx *c, const struct gen *g)
{
	struct bush_svg_state *s = c->state;
	int r = bush_draw_generation(c, g, &s->taken, PICTURE_SVG);
	tally_clear(&s->taken);
	return r;
}

/* Give back cairo's and fontconfig's caches, so leak checkers see only
 * our own memory. */
static int bush_svg_finish(struct view_ctx *c)
{
	struct bush_svg_state *s = c->state;
	tally_free(&s->taken);
	cairo_debug_reset_static_data();
	FcFini();
	return 0;
}

const struct view view_bush_svg = {
	.name = "bush-svg",
	.summary = "the same picture as SVG",
	.files = "gen-N-bush-ROOT.svg",
	.needs = NEEDS_CAIRO,
	.is_default = 0,
	.state_size = sizeof(struct bush_svg_state),
	.exit = bush_svg_exit,
	.gen_end = bush_svg_gen_end,
	.finish = bush_svg_finish,
};
