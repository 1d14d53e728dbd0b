/* bush_txt.c — gen-N-bush-ROOT.txt: each bush's traces (root first, then
 * side traces in stop order) written back as dump text.  The file is a
 * valid dump itself.  Traces stream out as they stop: one file per bush
 * stays open (the output directory recycles descriptors). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "views/view.h"
#include "draw/bush_files.h"
#include "outdir/outdir.h"
#include "util/intern.h"
#include "util/arena.h"
#include "util/digits.h"

struct bush_txt_state {
	struct outfile **files;     /* by bush seq */
	size_t nfiles, cap;
};

/* A header line, built here: the trace text between them is most of the
 * output and goes to the file past stdio (outfile_write), so the lines
 * around it do too. */
struct header_line {
	char buf[128];
	size_t len;
};

static void add(struct header_line *l, const char *s, size_t n)
{
	if (n > sizeof(l->buf) - l->len)
		n = sizeof(l->buf) - l->len;        /* never: words and numbers */
	memcpy(l->buf + l->len, s, n);
	l->len += n;
}

static void add_str(struct header_line *l, const char *s)
{
	add(l, s, strlen(s));
}

static void add_uint(struct header_line *l, uint64_t v)
{
	char d[DIGITS_MAX], *end = d + sizeof(d);
	char *p = digits_u64(end, v);
	add(l, p, (size_t)(end - p));
}

/* "---- TRACE ID what" */
static void begin(struct header_line *l, unsigned id, const char *what)
{
	l->len = 0;
	add_str(l, "---- TRACE ");
	add_uint(l, id);
	add_str(l, what);
}

static int put(struct outfile *f, const struct header_line *l)
{
	return outfile_write(f, l->buf, l->len);
}

static int put_section(struct outfile *f, const struct da_trace_text *tx, enum da_section s)
{
	return tx && tx->len[s] ? outfile_write(f, tx->buf + tx->off[s], tx->len[s]) : 0;
}

static int bush_txt_trace(struct view_ctx *c, const struct da_trace *t)
{
	struct bush_txt_state *s = c->state;
	const struct da_bush *b = t->bush;
	if (b->root == t) {
		char name[64];
		bush_file_name(name, sizeof(name), b, "txt");
		ALLOC_GROW(s->files, b->seq + 1, s->cap);
		struct da_gen g = { .number = t->gen };
		s->files[b->seq] = view_create_file(c, &g, name);
		s->nfiles = b->seq + 1;
		if (!s->files[b->seq])
			return -1;
	}
	struct outfile *f = s->files[b->seq];
	const struct da_trace_text *tx = t->text;
	struct header_line l;
	int r = 0;
	begin(&l, t->id, " start ");
	if (t->parent_exit >= 0 || t->parent_exit == PARENT_EXIT_STITCH) {
		add_uint(&l, t->parent);
		if (t->parent_exit >= 0) {
			add_str(&l, "/");
			add_uint(&l, (uint64_t)t->parent_exit);
			add_str(&l, " ");
		} else {
			add_str(&l, "/stitch ");
		}
	}
	r |= put(f, &l);
	r |= outfile_write(f, t->loc, intern_len(t->loc));
	r |= outfile_write(f, "\n", 1);
	if (t->counts_known) {      /* not from a -jv log, which has no sections */
		r |= put_section(f, tx, DA_SEC_BYTECODE);
		begin(&l, t->id, " IR\n");
		r |= put(f, &l);
		r |= put_section(f, tx, DA_SEC_IR);
		if (tx && (tx->present & (1u << DA_SEC_SNAPSHOTS))) {
			begin(&l, t->id, " snapshots\n");
			r |= put(f, &l);
			r |= put_section(f, tx, DA_SEC_SNAPSHOTS);
		}
		begin(&l, t->id, " mcode ");
		add_uint(&l, t->size_mc);
		add_str(&l, "\n");
		r |= put(f, &l);
		r |= put_section(f, tx, DA_SEC_MCODE);
	}
	begin(&l, t->id, " stop -> ");
	r |= put(f, &l);
	r |= outfile_write(f, t->link, intern_len(t->link));
	r |= outfile_write(f, "\n\n", 2);
	return r ? -1 : 0;
}

static int bush_txt_gen_end(struct view_ctx *c, const struct da_gen *g)
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
	.files = "gen-N-bush-ROOT.txt",
	.needs = NEEDS_TEXT,
	.is_default = 0,
	.state_size = sizeof(struct bush_txt_state),
	.trace = bush_txt_trace,
	.gen_end = bush_txt_gen_end,
	.finish = bush_txt_finish,
};
