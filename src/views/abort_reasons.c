/* abort_reasons.c — gen-N-abort-reasons.csv: how often each abort reason
 * occurred, most frequent first, ties in order of first appearance. */
#include <stdlib.h>
#include "views/view.h"
#include "outdir/outdir.h"
#include "output/csvout.h"
#include "util/intern.h"
#include "util/tally.h"

/* The header line, from the table the comparison reads the file by. */
static const char reasons_header[] =
#include "views/columns/csv_header.h"
#include "views/columns/abort_reasons_columns.def"
	"\r\n";

struct abort_reasons_state {
	struct tally reasons;       /* key: interned reason */
};

static int abort_reasons_abort(struct view_ctx *c, const struct da_abort *a)
{
	struct abort_reasons_state *s = c->state;
	tally_add(&s->reasons, a->reason, NULL, 0, 1);
	return 0;
}

static int abort_reasons_gen_end(struct view_ctx *c, const struct da_gen *g)
{
	struct abort_reasons_state *s = c->state;
	struct outfile *f = view_create_file(c, g, "abort-reasons.csv");
	FILE *fp = f ? outfile_fp(f) : NULL;
	if (!fp)
		return -1;
	size_t n;
	struct tally_entry *e = tally_entries(&s->reasons, &n);
	qsort(e, n, sizeof(*e), tally_by_count);
	fputs(reasons_header, fp);
	for (size_t i = 0; i < n; i++) {
		struct csv_row r;
		csv_row_begin(&r, fp);
		csv_field(&r, e[i].a, intern_len(e[i].a));
		csv_field_u64(&r, e[i].count);
		csv_row_end(&r);
	}
	free(e);
	tally_clear(&s->reasons);
	return outfile_commit(f);
}

static int abort_reasons_finish(struct view_ctx *c)
{
	struct abort_reasons_state *s = c->state;
	tally_free(&s->reasons);
	return 0;
}

const struct view view_abort_reasons = {
	.name = "abort-reasons",
	.files = "gen-N-abort-reasons.csv",
	.is_default = 1,
	.state_size = sizeof(struct abort_reasons_state),
	.abort = abort_reasons_abort,
	.gen_end = abort_reasons_gen_end,
	.finish = abort_reasons_finish,
};
