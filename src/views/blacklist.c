/* blacklist.c — gen-N-blacklist.csv: start locations and parent exits
 * whose attempts kept aborting, and whether a trace compiled there later:
 * "no" is a likely blacklisting, "stub" an exit LuaJIT left to the
 * interpreter (the rules are in attempts.c). */
#include <stdlib.h>
#include "views/view.h"
#include "output/outdir.h"
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
	.summary = "start locations and exits LuaJIT likely gave up on",
	.files = "gen-N-blacklist.csv",
	.readme = "`START_FILE,START_LINE,PARENT,EXIT,ATTEMPTS,LAST_REASON,COMPILED_LATER,MAIN_REASON,MAIN_ATTEMPTS`: starts and exits LuaJIT likely gave up on (an exit's or stitch's START_FILE, START_LINE: where its side traces start), with the reason most of their attempts ended with",
	.man =
		".BI gen\\- N \\-blacklist.csv\n"
		"with the header\n"
		".ad l\n"
		".B \\%START_FILE,\\:START_LINE,\\:PARENT,\\:EXIT,\\:ATTEMPTS,\\:LAST_REASON,\\:COMPILED_LATER,"
		"\\:MAIN_REASON,\\:MAIN_ATTEMPTS :\n"
		".ad\n"
		"the dump never says that LuaJIT gave up on a start; this view infers it\n"
		"from LuaJIT 2.1's rules (lj_trace.c, lj_record.c, default parameters).\n"
		"A root trace start (START_FILE, START_LINE) whose attempts abort gets a\n"
		"penalty that starts at PENALTY_MIN (72) and doubles (plus 0 to 15) with\n"
		"every abort; past PENALTY_MAX (60000) its bytecode is blacklisted: the\n"
		"11th aborted attempt.\n"
		"A side exit (PARENT, EXIT) is tried hotexit (10) times and then tryside\n"
		"(4) more; after 4 aborted side traces LuaJIT compiles an\n"
		".B interpreter\n"
		"stub for it.\n"
		"A stitch (EXIT\n"
		".BR stitch )\n"
		"whose trace aborts is blacklisted at once.\n"
		"START_FILE and START_LINE are where the row's attempts start, as their\n"
		"start headers say: for an exit or a stitch, where its side traces start\n"
		"(the first attempt's; the parent trace's own start is in\n"
		".BR traces.csv ,\n"
		"by PARENT); empty when the dump gives none.\n"
		"A row is written for every start or exit with at least that many aborted\n"
		"attempts in the generation; COMPILED_LATER is\n"
		".B yes\n"
		"when a trace compiled there after the last abort,\n"
		".B stub\n"
		"when that trace is an interpreter stub, and\n"
		".B no\n"
		"otherwise: a likely blacklisting.\n"
		"MAIN_REASON is the reason most of its attempts ended with (the first to\n"
		"get there on a tie), MAIN_ATTEMPTS how many: the last reason is often a\n"
		"harmless one after many costly ones.\n"
		"LAST_REASON is as the dump writes it, as dumpanalyze 0.9.1 wrote the\n"
		"column (\\(lqNYI: bytecode 51\\(rq); MAIN_REASON is in its normal form\n"
		"(\\(lqNYI: bytecode FNEW\\(rq, see\n"
		".BR \"WHY DID IT ABORT?\" ).\n"
		"Limits: LuaJIT keeps penalties in a cache of 64 slots that others can\n"
		"evict, counts per bytecode while this view counts per source line,\n"
		"ignores attempts aborted with a retry, and the thresholds follow the\n"
		"default\n"
		".B \\-O\n"
		"parameters; a changed hotexit, tryside or maxside changes them.\n",
	.is_default = 1,
	.state_size = sizeof(struct attempts),
	.abort = blacklist_abort,
	.trace = blacklist_trace,
	.gen_end = blacklist_gen_end,
	.finish = blacklist_finish,
};
