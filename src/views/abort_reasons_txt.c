/* abort_reasons_txt.c — gen-N-abort-reasons.txt: abort reasons grouped by
 * file (bytewise), line (numeric) and reason (bytewise), as 0.9.1 wrote
 * them.  A location without a line (a fast function such as string.byte)
 * is listed as "line ?". */
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include "views/view.h"
#include "outdir/outdir.h"
#include "util/intern.h"
#include "util/tally.h"

struct abort_details_state {
	struct tally sites;         /* key: file, reason, line */
};

static int abort_details_abort(struct view_ctx *c, const struct da_abort *a)
{
	struct abort_details_state *s = c->state;
	tally_add(&s->sites, a->file, a->reason, a->line, 1);
	return 0;
}

static int by_site(const void *x, const void *y)
{
	const struct tally_entry *a = x, *b = y;
	int r = intern_cmp(a->a, b->a);
	if (r)
		return r;
	if (a->c != b->c)
		return a->c < b->c ? -1 : 1;
	return intern_cmp(a->b, b->b);
}

static void put_bytes(FILE *fp, const char *s)
{
	fwrite(s, 1, intern_len(s), fp);
}

static int abort_details_gen_end(struct view_ctx *c, const struct da_gen *g)
{
	struct abort_details_state *s = c->state;
	struct outfile *f = view_create_file(c, g, "abort-reasons.txt");
	FILE *fp = f ? outfile_fp(f) : NULL;
	if (!fp)
		return -1;
	size_t n;
	struct tally_entry *e = tally_entries(&s->sites, &n);
	qsort(e, n, sizeof(*e), by_site);
	for (size_t i = 0; i < n; i++) {
		int new_file = i == 0 || e[i].a != e[i - 1].a;
		if (new_file) {
			put_bytes(fp, e[i].a);
			fputs(":\n", fp);
		}
		if (new_file || e[i].c != e[i - 1].c) {
			if (e[i].c < 0)
				fputs("\tline ?:\n", fp);
			else
				fprintf(fp, "\tline %" PRId64 ":\n", e[i].c);
		}
		fputs("\t\t", fp);
		put_bytes(fp, e[i].b);
		fprintf(fp, ": %" PRIu64 "\n", e[i].count);
	}
	free(e);
	tally_clear(&s->sites);
	return outfile_commit(f);
}

static int abort_details_finish(struct view_ctx *c)
{
	struct abort_details_state *s = c->state;
	tally_free(&s->sites);
	return 0;
}

const struct view view_abort_reasons_txt = {
	.name = "abort-reasons-txt",
	.files = "gen-N-abort-reasons.txt",
	.is_default = 1,
	.state_size = sizeof(struct abort_details_state),
	.abort = abort_details_abort,
	.gen_end = abort_details_gen_end,
	.finish = abort_details_finish,
};
