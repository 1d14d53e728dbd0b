/* bush_files.c — a generation's bushes drawn into their PNG or SVG files,
 * in a worker or here; see bush_files.h. */
#include <stdio.h>
#include "draw/bush_files.h"
#include "output/message.h"
#include "outdir/outdir.h"
#include "draw/bush_queue.h"
#include "draw/bush_write.h"

/* Whether the bush has traces enough for a picture. */
static int enough(const struct da_bush *b, struct bush_choice ch)
{
	return b->ntraces >= ch.min_traces;
}

/* Whether its picture, built, is small enough to be drawn. */
static int fits(const struct bush_picture *p, struct bush_choice ch)
{
	return ch.max_side <= 0 || (p->content_w <= ch.max_side && p->content_h <= ch.max_side);
}

void bush_file_name(char *buf, size_t n, const struct da_bush *b, const char *ext)
{
	if (b->dup > 1)
		snprintf(buf, n, "bush-%u.%u.%s", b->root->id, b->dup, ext);
	else
		snprintf(buf, n, "bush-%u.%s", b->root->id, ext);
}

int bush_draw_generation(struct outdir *out, unsigned jobs, struct bush_queue *q,
                         const struct da_gen *g, enum picture_format fmt, struct bush_choice ch,
                         unsigned long *left_out)
{
	/* Each picture is built (its layout: cheap next to drawing) here,
	 * which says whether it fits, then drawn here or by the queue's
	 * workers: the generation's records end when this returns. */
	struct exit_counts ec;
	exit_counts_build(&ec, gen_exits(g));
	int r = 0;
	for (const struct da_bush *b = g->bushes; b && r == 0; b = b->next) {
		if (!enough(b, ch))
			continue;
		char stem[64], name[96];
		bush_file_name(stem, sizeof(stem), b, fmt == PICTURE_SVG ? "svg" : "png");
		snprintf(name, sizeof(name), "gen-%u-%s", g->number, stem);
		struct bush_picture p;
		if (bush_picture_build(&p, b, g->number, &ec) < 0) {
			msg_error("%s/%s: the bush does not form a tree", outdir_shown(out), name);
			r = -1;
		} else if (!fits(&p, ch)) {
			(*left_out)++;
		} else {
			int queued = bush_queue_put(q, out, jobs, fmt, &p, name);
			if (queued < 0)
				r = -1;
			else if (!queued)
				r = bush_file_write(out, &p, fmt, name);
		}
		bush_picture_free(&p);
	}
	exit_counts_free(&ec);
	return r;
}
