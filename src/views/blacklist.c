/* blacklist.c — gen-N-blacklist.csv: start locations and parent exits
 * whose attempts kept aborting, and whether a trace compiled there later:
 * "no" is a likely blacklisting, "stub" an exit LuaJIT left to the
 * interpreter (the rules are in attempts.c). */
#include <stdlib.h>
#include "views/view.h"
#include "outdir/outdir.h"
#include "output/csvout.h"
#include "util/intern.h"
#include "analysis/attempts.h"

static int blacklist_abort(struct view_ctx *c, const struct da_abort *a)
{
	attempts_abort(c->state, a);
	return 0;
}

static int blacklist_trace(struct view_ctx *c, const struct da_trace *t)
{
	attempts_trace(c->state, t);
	return 0;
}

static int blacklist_gen_end(struct view_ctx *c, const struct da_gen *g)
{
	struct attempts *s = c->state;
	struct outfile *f = view_create_file(c, g, "blacklist.csv");
	FILE *fp = f ? outfile_fp(f) : NULL;
	if (!fp)
		return -1;
	size_t n;
	const struct start **rows = attempts_given_up(s, &n);
	static const char *const later[] = { "no", "yes", "stub" };
	fputs("START_FILE,START_LINE,PARENT,EXIT,ATTEMPTS,LAST_REASON,COMPILED_LATER,MAIN_REASON,"
	      "MAIN_ATTEMPTS\r\n", fp);
	for (size_t i = 0; i < n; i++) {
		const struct start *st = rows[i];
		struct csv_row r;
		csv_row_begin(&r, fp);
		/* where the attempts start, as their start headers say: for an
		 * exit or a stitch, where the side traces would begin */
		csv_field(&r, st->file ? st->file : "", st->file ? intern_len(st->file) : 0);
		if (!st->file || st->line == LOC_NO_LINE)
			csv_field(&r, "", 0);
		else
			csv_field_i64(&r, st->line);
		if (st->exit == PARENT_EXIT_NONE) {
			csv_field(&r, "", 0);
			csv_field(&r, "", 0);
		} else {
			csv_field_u64(&r, st->parent);
			if (st->exit == PARENT_EXIT_STITCH)
				csv_field_str(&r, "stitch");
			else
				csv_field_i64(&r, st->exit);
		}
		csv_field_u64(&r, st->attempts);
		csv_field(&r, st->last_reason, intern_len(st->last_reason));
		csv_field_str(&r, later[st->later]);
		csv_field(&r, st->main_reason, intern_len(st->main_reason));
		csv_field_u64(&r, st->main_attempts);
		csv_row_end(&r);
	}
	free(rows);
	attempts_clear(s);
	return outfile_commit(f);
}

static int blacklist_finish(struct view_ctx *c)
{
	attempts_free(c->state);
	return 0;
}

const struct view view_blacklist = {
	.name = "blacklist",
	.files = "gen-N-blacklist.csv",
	.is_default = 1,
	.state_size = sizeof(struct attempts),
	.abort = blacklist_abort,
	.trace = blacklist_trace,
	.gen_end = blacklist_gen_end,
	.finish = blacklist_finish,
};
