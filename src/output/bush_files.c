/* bush_files.c — a generation's bushes drawn into their PNG or SVG files,
 * in a worker or here; see bush_files.h. */
#include <stdio.h>
#include "output/bush_files.h"
#include "output/bush_draw.h"
#include "output/message.h"
#include "output/outdir.h"
#include "output/picture.h"
#include "output/workers.h"

/* bush_picture_draw with the picture's argument type, for picture_write. */
static void draw_bush(cairo_t *cr, const void *p)
{
	bush_picture_draw(p, cr);
}

static int render(FILE *fp, const struct bush_picture *p, enum picture_format fmt)
{
	return picture_write(fp, fmt, p->width, p->height, draw_bush, p);
}

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

static int draw_all(struct outdir *out, const struct da_gen *g, enum picture_format fmt,
                    struct bush_choice ch)
{
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
		} else if (fits(&p, ch)) {
			struct outfile *f = outfile_create(out, name);
			FILE *fp = f ? outfile_fp(f) : NULL;
			int w = fp ? render(fp, &p, fmt) : -1;
			if (!fp)
				r = -1;
			else if (w < 0) {
				msg_error("%s/%s: cannot draw the picture%s", outdir_shown(out), name,
				          w == PICTURE_ENOMEM ? ": out of memory" : "");
				r = -1;
			} else if (outfile_commit(f) < 0)
				r = -1;
		}
		bush_picture_free(&p);
	}
	exit_counts_free(&ec);
	return r;
}

struct draw_job {
	struct outdir *out;
	unsigned jobs;
	const struct da_gen *g;
	enum picture_format fmt;
	struct bush_choice ch;
};

/* In a worker: a directory handle of its own, so that it renames only its
 * own files, all of them once they are complete. */
static int draw_job(void *arg)
{
	struct draw_job *j = arg;
	if (j->jobs <= 1)
		return draw_all(j->out, j->g, j->fmt, j->ch);
	struct outdir *own = outdir_open_fs(outdir_fs(j->out), outdir_path(j->out),
	                                    outdir_shown(j->out));
	if (!own)
		return -1;
	int r = draw_all(own, j->g, j->fmt, j->ch);
	if (r == 0)
		r = outdir_publish(own);
	if (r == 0)
		r = outdir_sync(own);
	outdir_close(own);
	/* The worker ends here: give back its pixels and font caches, so
	 * leak checkers following it see only our own memory. */
	picture_release();
	return r;
}

int bush_draw_generation(struct outdir *out, unsigned jobs_max, struct workers *w,
                         const struct da_gen *g, enum picture_format fmt, struct bush_choice ch,
                         unsigned long *left_out)
{
	/* Counted here, before any worker: the files a worker writes, the
	 * bushes left out for their size and the pixels to draw (each needs
	 * the bush's layout, cheap next to drawing). */
	unsigned long n = 0;
	double pixels = 0;
	struct exit_counts ec;
	exit_counts_build(&ec, gen_exits(g));
	for (const struct da_bush *b = g->bushes; b; b = b->next) {
		if (!enough(b, ch))
			continue;
		struct bush_picture p;
		if (bush_picture_build(&p, b, g->number, &ec) < 0) {
			n++;            /* its error is said when drawing */
		} else if (fits(&p, ch)) {
			n++;
			pixels += (double)p.width * p.height;
		} else {
			(*left_out)++;
		}
		bush_picture_free(&p);
	}
	exit_counts_free(&ec);
	if (n == 0)
		return 0;               /* no worker for nothing */
	/* A worker costs a fork, the copies of the pages the parent then
	 * writes, and its own font setup: tens of milliseconds on the VMs
	 * measured (bench/RESULTS.md), worth it only for many pixels. */
	unsigned jobs = pixels >= BUSH_WORKER_MIN_PIXELS ? jobs_max : 1;
	if (jobs <= 1)
		return draw_all(out, g, fmt, ch);
	struct draw_job j = { out, jobs_max, g, fmt, ch };
	w->max = jobs_max;
	int r = workers_run(w, draw_job, &j);
	outdir_add_written(out, n);         /* by the worker */
	return r;
}
