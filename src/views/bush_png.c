/* bush_png.c — gen-N-bush-ROOT.png: the picture of each bush (drawn by
 * bush_draw.c), with the exits annotated by how often they were taken. */
#include <cairo.h>
#include "views/view.h"
#include "output/bush_files.h"
#include "output/picture.h"
#include "output/bush_queue.h"

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
	.summary = "a picture of each bush (by default, of bushes with side traces up to 1024 px)",
	.files = "gen-N-bush-ROOT.png",
	.readme = "a picture of each bush; as one of the default views, only of bushes with side traces whose picture fits 1024 px at full scale (a lone root is one column: its row in `traces.csv` says as much; a larger bush would be scaled below legibility: the report draws it with zoom and pan); named, of every bush",
	.man =
		".BI gen\\- N \\-bush\\- ROOT .png\n"
		"(and\n"
		".BI . K .png ):\n"
		"a picture of every bush, drawn with cairo and laid out as a tidy tree\n"
		"(parents centred over their children, side traces in the order of the\n"
		"exits they grew from, nothing overlapping).\n"
		"Each trace is a column: its START box (trace number, where it came from,\n"
		"start location, bytecode, IR and machine code sizes), then one box per\n"
		"exit its machine code references or that was taken or that grew a side\n"
		"trace (three or more in a row that were neither taken nor grew one are\n"
		"one row, such as\n"
		".BR \"107/4\\(en52  49 exits\" ),\n"
		"then its END box, labelled by how it ends:\n"
		".B loop\n"
		"(with an arc back to its own start),\n"
		".B \"return to VM\" ,\n"
		".B \"enforce VM\"\n"
		"(link\n"
		".BR interpreter ),\n"
		".BI \"goto \" N\n"
		"(a link to another trace; when\n"
		".I N\n"
		"is the bush's root, a faint arc goes back to it), or the link\n"
		"type by name\n"
		".RB ( stitch ,\n"
		"the recursion kinds).\n"
		"A side trace hangs from its parent's exit box by a bold arrow.\n"
		"The root trace is drawn in crimson and heavier, side traces in grey with\n"
		"dashed paths.\n"
		"When the dump has exit records\n"
		".RB ( \\-jdump=+x ),\n"
		"each exit box says how many times the exit was taken\n"
		".RB ( \\(mu N )\n"
		"and is shaded from white to orange by that count (logarithmic, relative\n"
		"to the bush's hottest exit); exits that grew a side trace have a bold\n"
		"frame, the others a thin light one.\n"
		"The title (generation, root trace, traces, machine code) wraps rather\n"
		"than widen the picture of a narrow bush.\n"
		"The canvas grows with the bush up to 2048 pixels either way; a larger\n"
		"bush is scaled down to fit and says so in its bottom-left corner.\n"
		"Text is DejaVu Sans Mono (Debian's\n"
		".BR fonts\\-dejavu\\-core ),\n"
		"hinted to the pixel grid and drawn without antialiasing, as are the\n"
		"shapes, so a picture has few colours; a scaled-down picture keeps\n"
		"antialiased text, which it needs to be read.\n"
		"A picture of at most 16 colours is a 4-bit palette PNG, of at most 256\n"
		"an 8-bit palette PNG, any other 8-bit RGB; the rows are unfiltered and\n"
		"compressed by libdeflate\n"
		"(level 2): the same bush gives the same bytes.\n"
		"As one of the default views (no\n"
		".BR \\-\\-views ,\n"
		"or\n"
		".B default\n"
		"in it) only bushes with side traces whose picture fits 1024 pixels\n"
		"either way at full scale are drawn: a larger bush would be scaled down\n"
		"below legibility, and such pictures are most of a large dump's pixels;\n"
		"the run's closing lines on standard error count the bushes left out\n"
		"(the report,\n"
		".BR \"\\-\\-views html\" ,\n"
		"draws every bush with zoom and pan).\n"
		"Named\n"
		".RB ( \"\\-\\-views bush\\-png\" ,\n"
		".BR default,bush\\-png ,\n"
		".BR all ),\n"
		"every bush is drawn, as before 0.3.0.\n",
	.needs = NEEDS_CAIRO,
	.is_default = 1,
	.state_size = sizeof(struct bush_queue),
	.gen_end = bush_png_gen_end,
	.finish = bush_png_finish,
};
