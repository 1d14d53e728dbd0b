/* flamegraph_view.c — flamegraph.svg and flamegraph.png from the folded stacks
 * of a -jp=G profile (--profile), drawn by draw/flamegraph.c: a frame's
 * width is its samples; frames at source lines where traces aborted or
 * were blacklisted are marked.  With -jp=Gvl the VM state is the
 * bottom frame of each stack. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cairo.h>
#include "output/message.h"
#include "views/view.h"
#include "outdir/outdir.h"
#include "util/intern.h"
#include "util/arena.h"
#include "util/diag.h"
#include "draw/flamegraph.h"
#include "draw/picture.h"
#include "profile/profile_join.h"
#include "profile/sysprof.h"
#include "profile/sysprof_callees.h"
#include "profile/sysprof_join.h"
#include "util/alloc.h"

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

static int draw(struct view_ctx *c, const char *title, const struct flame_stack *st,
                size_t n, const char *name, enum picture_format fmt, flame_mark_fn mark, void *ctx)
{
	struct outfile *f = outfile_create(c->out, name);
	FILE *fp = f ? outfile_fp(f) : NULL;
	if (!fp)
		return -1;
	int w = flamegraph_write(fp, fmt, title, st, n, mark, ctx);
	if (w < 0) {
		msg_error("%s/%s: cannot draw the flame graph%s", outdir_shown(c->out), name,
		          w == PICTURE_ENOMEM ? ": out of memory" : "");
		return -1;
	}
	return outfile_commit(f);
}

struct sysprof_marks {
	const struct sysprof *p;
	struct sp_holders holders;  /* functions that hold failed lines */
};

static int sysprof_mark(const char *frame, void *ctx)
{
	struct sysprof_marks *m = ctx;
	if (sysprof_is_host_frame(m->p, frame))
		return FLAME_MARK_HOST;
	return sp_holder_of(&m->holders, frame) ? FLAME_MARK_FAILED : 0;
}

/* A sysprof profile's stacks: its VM state as -jp=Gvl names it at the
 * bottom, then its frames; compiled samples as the bush and trace the
 * join charged them to (or a trace the dump lacks). */
static int draw_sysprof(struct view_ctx *c, const struct answers *a)
{
	const struct sysprof *p = c->sysprof;
	const struct sysprof_join *j = c->join;
	struct intern names;
	intern_init(&names);
	size_t cap = p->nstacks + j->ntraces + 2;
	struct flame_stack *st = xrealloc(NULL, cap * sizeof(*st));
	const char **frames = xrealloc(NULL, (p->nframes + p->nstacks + 3 * cap) * sizeof(*frames));
	size_t n = 0, k = 0;
	for (size_t i = 0; i < p->nstacks; i++) {
		const struct sp_stack *ps = &p->stacks[i];
		st[n] = (struct flame_stack){ frames + k, ps->nframes + 1, ps->count };
		frames[k++] = vm_state_names[sp_state_jp(ps->state)];
		for (uint32_t f = 0; f < ps->nframes; f++)
			frames[k++] = p->frames[ps->first + f];
		n++;
	}
	char buf[4300], loc[4200];
	for (size_t i = 0; i < j->ntraces; i++) {
		const struct sj_trace *t = &j->traces[i];
		if (!t->samples)
			continue;
		st[n] = (struct flame_stack){ frames + k, 1, t->samples };
		frames[k++] = vm_state_names[VM_COMPILED];
		if (t->bush != UINT32_MAX) {
			const struct sj_bush *b = &j->bushes[t->bush];
			sj_loc(loc, sizeof(loc), b->file, b->line);
			int m = b->dup > 1 ? snprintf(buf, sizeof(buf), "bush %u/%u.%u %s", b->gen, b->root,
			                              b->dup, loc)
			                   : snprintf(buf, sizeof(buf), "bush %u/%u %s", b->gen, b->root, loc);
			frames[k++] = intern_get(&names, buf, (size_t)m);
			st[n].nframes++;
		}
		sj_loc(loc, sizeof(loc), t->file, t->line);
		int m = snprintf(buf, sizeof(buf), "trace %u/%u %s", t->gen, t->id, loc);
		frames[k++] = intern_get(&names, buf, (size_t)m);
		st[n++].nframes++;
	}
	if (j->samples_apart) {
		st[n] = (struct flame_stack){ frames + k, 2, j->samples_apart };
		frames[k++] = vm_state_names[VM_COMPILED];
		frames[k++] = "traces the dump does not have";
		n++;
	}
	char title[512];
	snprintf(title, sizeof(title), "sysprof %s (Lua frames: functions at their defining line)",
	         p->path);
	struct callees failed;
	memset(&failed, 0, sizeof(failed));
	callees_failed_lines(&failed, a);
	struct sysprof_marks m = { p, { 0 } };
	sp_holders_build(&m.holders, &failed, p);
	int r = draw(c, title, st, n, "flamegraph-sysprof.svg", PICTURE_SVG, sysprof_mark, &m);
	if (r == 0)
		r = draw(c, title, st, n, "flamegraph-sysprof.png", PICTURE_PNG, sysprof_mark, &m);
	sp_holders_free(&m.holders);
	callees_free(&failed);
	free(st);
	free(frames);
	intern_free(&names);
	return r;
}

static int flamegraph_finish(struct view_ctx *c)
{
	struct flamegraph_state *s = c->state;
	const struct profile *p = c->profile;
	int r = 0;
	if (c->out && p && p->kind == PROFILE_STACKS && s->answers.ngens) {
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
		char title[512];
		snprintf(title, sizeof(title), "%s", p->path);
		r = draw(c, title, st, p->nstacks, "flamegraph.svg", PICTURE_SVG, marked, s);
		if (r == 0)
			r = draw(c, title, st, p->nstacks, "flamegraph.png", PICTURE_PNG, marked, s);
		free(st);
		free(frames);
		intern_free(&s->names);
		tally_free(&s->failed);
		picture_release();
	}
	if (r == 0 && c->out && c->sysprof && s->answers.ngens) {
		r = draw_sysprof(c, &s->answers);
		picture_release();
	}
	answers_free(&s->answers);
	return r;
}

const struct view view_flamegraph = {
	.name = "flamegraph",
	.files = "flamegraph.svg flamegraph.png flamegraph-sysprof.svg flamegraph-sysprof.png",
	.needs = NEEDS_CAIRO | NEEDS_STACKS,
	.is_default = 0,
	.state_size = sizeof(struct flamegraph_state),
	.trace = answers_view_trace,
	.abort = answers_view_abort,
	.gen_end = answers_view_gen_end,
	.finish = flamegraph_finish,
};
