/* bush_txt.c — gen-N-bush-ROOT.txt: each bush's traces (root first, then
 * side traces in stop order) written back as dump text.  The file is a
 * valid dump itself.  Traces stream out as they stop: one file per bush
 * stays open (the output directory recycles descriptors). */
#include <stdlib.h>
#include <string.h>
#include "dumpanalyze/view.h"
#include "dumpanalyze/outdir.h"
#include "dumpanalyze/intern.h"
#include "dumpanalyze/arena.h"

struct bush_txt_state {
	struct outfile **files;     /* by bush seq */
	size_t nfiles, cap;
};

static void put_section(FILE *fp, const struct trace_text *tx, enum section s)
{
	if (tx && tx->len[s])
		fwrite(tx->buf + tx->off[s], 1, tx->len[s], fp);
}

static int bush_txt_trace(struct view_ctx *c, const struct trace *t)
{
	struct bush_txt_state *s = c->state;
	const struct bush *b = t->bush;
	if (b->root == t) {
		char name[64];
		view_bush_name(name, sizeof(name), b, "txt");
		if (b->seq >= s->cap) {
			s->cap = s->cap ? s->cap * 2 : 64;
			s->files = xrealloc(s->files, s->cap * sizeof(*s->files));
		}
		struct gen g = { .number = t->gen };
		s->files[b->seq] = view_create_file(c, &g, name);
		s->nfiles = b->seq + 1;
		if (!s->files[b->seq])
			return -1;
	}
	FILE *fp = outfile_fp(s->files[b->seq]);
	if (!fp)
		return -1;
	const struct trace_text *tx = t->text;
	fprintf(fp, "---- TRACE %u start ", t->id);
	if (t->parent_exit >= 0)
		fprintf(fp, "%u/%d ", t->parent, t->parent_exit);
	else if (t->parent_exit == PARENT_EXIT_STITCH)
		fprintf(fp, "%u/stitch ", t->parent);
	fwrite(t->loc, 1, intern_len(t->loc), fp);
	putc('\n', fp);
	if (!t->counts_known)       /* from a -jv log: no sections to write */
		goto stop;
	put_section(fp, tx, SEC_BYTECODE);
	fprintf(fp, "---- TRACE %u IR\n", t->id);
	put_section(fp, tx, SEC_IR);
	if (tx && (tx->present & (1u << SEC_SNAPSHOTS))) {
		fprintf(fp, "---- TRACE %u snapshots\n", t->id);
		put_section(fp, tx, SEC_SNAPSHOTS);
	}
	fprintf(fp, "---- TRACE %u mcode %u\n", t->id, t->size_mc);
	put_section(fp, tx, SEC_MCODE);
stop:
	fprintf(fp, "---- TRACE %u stop -> ", t->id);
	fwrite(t->link, 1, intern_len(t->link), fp);
	fputs("\n\n", fp);
	return 0;
}

static int bush_txt_gen_end(struct view_ctx *c, const struct gen *g)
{
	struct bush_txt_state *s = c->state;
	(void)g;
	int r = 0;
	for (size_t i = 0; i < s->nfiles; i++) {
		if (r == 0 && outfile_commit(s->files[i]) < 0)
			r = -1;     /* the rest are discarded with the directory */
		s->files[i] = NULL;
	}
	s->nfiles = 0;
	return r;
}

static int bush_txt_finish(struct view_ctx *c)
{
	struct bush_txt_state *s = c->state;
	free(s->files);
	return 0;
}

const struct view view_bush_txt = {
	.name = "bush-txt",
	.summary = "each bush's traces written back as dump text",
	.files = "gen-N-bush-ROOT.txt",
	.needs = NEEDS_TEXT,
	.is_default = 1,
	.state_size = sizeof(struct bush_txt_state),
	.trace = bush_txt_trace,
	.gen_end = bush_txt_gen_end,
	.finish = bush_txt_finish,
};
