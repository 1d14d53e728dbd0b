/* exits.c — gen-N-exits.csv: how often each trace exit was taken
 * (-jdump=+x) and the side trace compiled for it, most taken first:
 * TRACE,EXIT,COUNT,SIDE_TRACE. */
#include <stdlib.h>
#include "views/view.h"
#include "outdir/outdir.h"
#include "output/csvout.h"
#include "util/tally.h"

/* The header line, from the table the comparison reads the file by. */
static const char exits_header[] =
#include "views/columns/csv_header.h"
#include "views/columns/exits_columns.def"
	"\r\n";

static int by_count(const void *x, const void *y)
{
	const struct tally_entry *a = x, *b = y;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	/* trace, then exit; the same trace number and exit come twice when
	 * exits were taken before that trace was known and after */
	return tally_by_c(x, y);
}

static int exits_gen_end(struct view_ctx *c, const struct da_gen *g)
{
	struct outfile *f = view_create_file(c, g, "exits.csv");
	FILE *fp = f ? outfile_fp(f) : NULL;
	if (!fp)
		return -1;
	size_t n;
	struct tally_entry *e = tally_entries(gen_exits(g), &n);
	qsort(e, n, sizeof(*e), by_count);
	fputs(exits_header, fp);
	for (size_t i = 0; i < n; i++) {
		struct csv_row r;
		csv_row_begin(&r, fp);
		csv_field_u64(&r, EXIT_KEY_ID(e[i].c));
		csv_field_u64(&r, EXIT_KEY_EXIT(e[i].c));
		csv_field_u64(&r, e[i].count);
		uint64_t s = e[i].a ? tally_get(gen_sides(g), e[i].a, NULL, EXIT_KEY_EXIT(e[i].c)) : 0;
		if (s)
			csv_field_u64(&r, s);
		else
			csv_field(&r, "", 0);
		csv_row_end(&r);
	}
	free(e);
	return outfile_commit(f);
}

const struct view view_exits = {
	.name = "exits",
	.files = "gen-N-exits.csv",
	.is_default = 1,
	.gen_end = exits_gen_end,
};
