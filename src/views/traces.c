/* traces.c — gen-N-traces.csv: one row per compiled trace, in stop order,
 * with the columns of dumpanalyze 0.9.1. */
#include "views/view.h"
#include "outdir/outdir.h"
#include "output/csvout.h"
#include "util/intern.h"

/* The header line, from the table the comparison reads the file by. */
static const char traces_header[] =
#include "views/columns/csv_header.h"
#include "views/columns/traces_columns.def"
	"\r\n";

struct traces_state {
	struct outfile *file;
};

static int traces_gen_begin(struct view_ctx *c, const struct da_gen *g)
{
	struct traces_state *s = c->state;
	FILE *fp;
	s->file = view_create_file(c, g, "traces.csv");
	if (!s->file || !(fp = outfile_fp(s->file)))
		return -1;
	fputs(traces_header, fp);
	return 0;
}

static int traces_trace(struct view_ctx *c, const struct da_trace *t)
{
	struct traces_state *s = c->state;
	struct csv_row r;
	/* Ask each time: the directory may have closed the stream meanwhile. */
	FILE *fp = outfile_fp(s->file);
	if (!fp)
		return -1;
	/* PARENT is 0 for every bush root: roots and stitched traces. */
	csv_row_begin(&r, fp);
	csv_field_u64(&r, t->id);
	csv_field_u64(&r, t->parent_exit >= 0 ? t->parent : 0);
	csv_field(&r, t->link, intern_len(t->link));
	if (t->counts_known) {
		csv_field_u64(&r, t->num_bc);
		csv_field_u64(&r, t->num_ir);
		csv_field_u64(&r, t->num_sn);
		csv_field_u64(&r, t->size_mc);
	} else {
		/* A -jv log has no sections: the sizes are unknown, not 0. */
		for (int i = 0; i < 4; i++)
			csv_field(&r, "", 0);
	}
	csv_row_end(&r);
	return 0;
}

static int traces_gen_end(struct view_ctx *c, const struct da_gen *g)
{
	struct traces_state *s = c->state;
	(void)g;
	int r = outfile_commit(s->file);
	s->file = NULL;
	return r;
}

const struct view view_traces = {
	.name = "traces",
	.files = "gen-N-traces.csv",
	.is_default = 1,
	.state_size = sizeof(struct traces_state),
	.gen_begin = traces_gen_begin,
	.trace = traces_trace,
	.gen_end = traces_gen_end,
};
