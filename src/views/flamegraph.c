/* flamegraph.c — flamegraph.svg and flamegraph.png from the folded stacks
 * of a -jp=G profile (--profile), drawn by src/flamegraph.c: a frame's
 * width is its samples; frames at source lines where traces aborted or
 * were blacklisted are marked.  With -jp=Gvl the VM state is the
 * bottom frame of each stack. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cairo.h>
#include "output/message.h"
#include "views/view.h"
#include "output/outdir.h"
#include "util/intern.h"
#include "util/arena.h"
#include "util/diag.h"
#include "output/flamegraph.h"
#include "output/picture.h"
#include "profile/profile_join.h"

struct flamegraph_state {
	struct answers answers;     /* first: the answers_view_* hooks */
	struct intern names;        /* file names of failed lines */
	struct tally failed;        /* (name, NULL, line) */
};

/* A frame "file:line" whose line had aborts or blacklisting. */
static int marked(const char *frame, void *ctx)
{
	struct flamegraph_state *s = ctx;
	size_t n = strlen(frame), flen, blen;
	int32_t line;
	if (!profile_split_frame(frame, n, &flen, &line))
		return 0;
	if (tally_get(&s->failed, intern_get(&s->names, frame, flen), NULL, line))
		return 1;
	const char *base = profile_basename(frame, flen, &blen);
	return base != frame && tally_get(&s->failed, intern_get(&s->names, base, blen), NULL, line);
}

static int draw(struct view_ctx *c, struct flamegraph_state *s, const struct flame_stack *st,
                size_t n, const char *name, enum picture_format fmt)
{
	char title[512];
	snprintf(title, sizeof(title), "%s", c->profile->path);
	struct outfile *f = outfile_create(c->out, name);
	FILE *fp = f ? outfile_fp(f) : NULL;
	if (!fp)
		return -1;
	int w = flamegraph_write(fp, fmt, title, st, n, marked, s);
	if (w < 0) {
		msg_error("%s/%s: cannot draw the flame graph%s", outdir_path(c->out), name,
		          w == PICTURE_ENOMEM ? ": out of memory" : "");
		return -1;
	}
	return outfile_commit(f);
}

static int flamegraph_finish(struct view_ctx *c)
{
	struct flamegraph_state *s = c->state;
	const struct profile *p = c->profile;
	int r = 0;
	if (c->out && p && s->answers.ngens) {
		intern_init(&s->names);
		tally_init(&s->failed);
		struct join j;
		join_build(&j, &s->answers, p);
		for (size_t i = 0; i < j.n && joined_failed(&j.rows[i]); i++)
			tally_add(&s->failed, intern_get(&s->names, j.rows[i].file, j.rows[i].file_len),
			          NULL, j.rows[i].line, 1);
		join_free(&j);
		/* With VM states, the state is each stack's outermost frame. */
		const char **frames = xrealloc(NULL, (p->nframes + p->nstacks + 1) * sizeof(*frames));
		struct flame_stack *st = xrealloc(NULL, (p->nstacks + 1) * sizeof(*st));
		size_t k = 0;
		for (size_t i = 0; i < p->nstacks; i++) {
			const struct profile_stack *ps = &p->stacks[i];
			st[i].frames = frames + k;
			st[i].nframes = ps->nframes;
			st[i].count = ps->count;
			if (ps->state >= 0) {
				frames[k++] = vm_state_names[ps->state];
				st[i].nframes++;
			}
			for (uint32_t f = 0; f < ps->nframes; f++)
				frames[k++] = p->frames[ps->first + f];
		}
		r = draw(c, s, st, p->nstacks, "flamegraph.svg", PICTURE_SVG);
		if (r == 0)
			r = draw(c, s, st, p->nstacks, "flamegraph.png", PICTURE_PNG);
		free(st);
		free(frames);
		intern_free(&s->names);
		tally_free(&s->failed);
		picture_release();
	}
	answers_free(&s->answers);
	return r;
}

const struct view view_flamegraph = {
	.name = "flamegraph",
	.summary = "with a -jp=G profile: a flame graph, JIT failures marked",
	.files = "flamegraph.svg flamegraph.png",
	.readme = "with a `-jp=G` profile: a flame graph, lines with aborts or blacklisting marked",
	.man =
		".B flamegraph.svg\n"
		"and\n"
		".B flamegraph.png\n"
		"(only with a\n"
		".B \\-jp=G\n"
		"profile): a flame graph drawn from the folded stacks, 1200 pixels wide,\n"
		"each frame as wide as its samples, callers below callees; with\n"
		".B \\-jp=Gvl\n"
		"the VM state is the bottom frame.\n"
		"Frames at source lines where traces aborted or were blacklisted are\n"
		"marked (see the legend).\n",
	.needs = NEEDS_CAIRO | NEEDS_PROFILE | NEEDS_STACKS,
	.is_default = 0,
	.state_size = sizeof(struct flamegraph_state),
	.trace = answers_view_trace,
	.abort = answers_view_abort,
	.gen_end = answers_view_gen_end,
	.finish = flamegraph_finish,
};
