/* findings.c — findings.csv: the library's ranked findings (da_findings),
 * one row each, best first: what to fix first, where, why, what it costs
 * and what to do.  The view only writes the list; every judgment in it is
 * the library's (src/findings/). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "lib/api.h"
#include "views/view.h"
#include "views/findings.h"
#include "views/where.h"
#include "output/outdir.h"
#include "output/csvout.h"
#include "util/intern.h"

/* The header line, from the table the comparison reads the file by. */
static const char findings_header[] =
#include "views/columns/csv_header.h"
#include "views/columns/findings_columns.def"
	"\r\n";

static void field_str(struct csv_row *r, const char *s)
{
	csv_field(r, s ? s : "", s ? strlen(s) : 0);
}

static void field_line(struct csv_row *r, int32_t line)
{
	if (line == DA_NO_LINE)
		csv_field(r, "", 0);
	else
		csv_field_i64(r, line);
}

void findings_put_samples(char *buf, size_t n, const struct da_profile_totals *t, uint64_t v)
{
	if (t && t->percent)
		snprintf(buf, n, "%" PRIu64 ".%02" PRIu64, v / 100, v % 100);
	else
		snprintf(buf, n, "%" PRIu64, v);
}

static void field_samples(struct csv_row *r, const struct da_profile_totals *t, uint64_t v)
{
	char buf[32];
	if (!t) {
		csv_field(r, "", 0);
		return;
	}
	findings_put_samples(buf, sizeof(buf), t, v);
	csv_field_str(r, buf);
}

/* "2 NYI: bytecode UCLO; 1 leaving loop in root trace": the reasons
 * after the main one. */
static void field_others(struct csv_row *r, const struct da_finding *f)
{
	char buf[1024];
	size_t k = 0;
	buf[0] = '\0';
	for (uint32_t i = 1; i < f->nreasons && k < sizeof(buf) - 1; i++) {
		int n = snprintf(buf + k, sizeof(buf) - k, "%s%" PRIu64 " %s", i > 1 ? "; " : "",
		                 f->reasons[i].count, f->reasons[i].reason);
		if (n < 0)
			break;
		k += (size_t)n;
	}
	if (k >= sizeof(buf))
		k = sizeof(buf) - 1;
	csv_field(r, buf, k);
}

static int findings_finish(struct view_ctx *c)
{
	if (!c->out || !da_generations(c->dump))
		return 0;
	struct outfile *out = outfile_create(c->out, "findings.csv");
	FILE *fp = out ? outfile_fp(out) : NULL;
	if (!fp)
		return -1;
	const struct da_profile_totals *t = da_profile_totals(c->dump);
	/* PATH: the file as the tools that place findings see it (where.h) */
	struct where_map m;
	where_init(&m, api_source_finder(c->dump), c->source_roots, c->nsource_roots);
	fputs(findings_header, fp);
	size_t n = da_findings(c->dump);
	for (size_t i = 0; i < n; i++) {
		const struct da_finding *f = da_finding(c->dump, i);
		struct csv_row r;
		csv_row_begin(&r, fp);
		csv_field_u64(&r, f->rank);
		field_str(&r, f->kind_word);
		field_str(&r, f->file);
		field_line(&r, f->line);
		field_line(&r, f->end_line);
		field_str(&r, f->cause_file);
		field_line(&r, f->cause_line);
		field_str(&r, f->reason);
		field_str(&r, f->error);
		field_str(&r, f->level_word);
		csv_field_u64(&r, f->attempts);
		field_samples(&r, t, f->samples);
		if (t) {
			char share[32];
			snprintf(share, sizeof(share), "%.2f", f->share);
			csv_field_str(&r, share);
		} else {
			csv_field(&r, "", 0);
		}
		field_str(&r, f->basis_word);
		field_str(&r, f->id);
		field_str(&r, f->advice);
		field_str(&r, f->rule);
		field_str(&r, f->at_file);
		field_line(&r, f->at_line);
		csv_field_u64(&r, f->reason_attempts);
		field_others(&r, f);
		csv_field_u64(&r, f->blacklisted_gens);
		csv_field_u64(&r, f->traces);
		csv_field_u64(&r, f->count);
		csv_field_u64(&r, f->score);
		for (int s = DA_VM_COMPILED; s < DA_VM_STATES; s++)
			field_samples(&r, t && t->states ? t : NULL, f->state_samples[s]);
		field_str(&r, f->bytecode);
		if (f->dump_line)
			csv_field_u64(&r, f->dump_line);
		else
			csv_field(&r, "", 0);
		char gens[32] = "";
		if (f->gen_first)
			snprintf(gens, sizeof(gens), f->gen_last > f->gen_first ? "%u-%u" : "%u",
			         f->gen_first, f->gen_last);
		csv_field_str(&r, gens);
		csv_field_u64(&r, f->order);
		field_str(&r, f->identity);
		if (f->same_cause)
			csv_field_u64(&r, f->same_cause);
		else
			csv_field(&r, "", 0);
		field_str(&r, f->baseline_reason ? "yes" : NULL);
		field_str(&r, f->baseline_reason);
		field_str(&r, f->extent_word);
		field_str(&r, f->profile);
		struct where w = where_of(&m, f->file, f->line);
		field_str(&r, w.kind == WHERE_FILE ? w.path : NULL);
		csv_row_end(&r);
	}
	where_free(&m);
	return outfile_commit(out);
}

const struct view view_findings = {
	.name = "findings",
	.summary = "what to fix first: the ranked findings, with cost and advice",
	.files = "findings.csv",
	.readme = "`"
#include "views/columns/csv_header.h"
#include "views/columns/findings_columns.def"
	"`: one row per finding (see [What do I fix first?](#what-do-i-fix-first)), ranked by the interpreted samples charged to it with `--profile`, else by score",
	.man =
		".B findings.csv\n"
		"with the header\n"
		".ad l\n"
		".B "
#include "views/columns/csv_header_man.h"
#include "views/columns/findings_columns.def"
		" :\n"
		".ad\n"
		"one row per finding, in rank order (see\n"
		".BR FINDINGS ).\n"
		"KIND, RULE and SEVERITY as listed there; FILE, LINE the loop, function,\n"
		"exit or line, END_LINE the last line of its extent, EXTENT where the\n"
		"extent comes from\n"
		".RB ( source ,\n"
		".BR trace ,\n"
		".BR line ,\n"
		".BR none )\n"
		"and BASIS how the samples were charged: as EXTENT for a\n"
		".B \\-jp\n"
		"profile (by line),\n"
		".B function\n"
		"for a sysprof profile (by function; see\n"
		".BR FINDINGS );\n"
		"AT_FILE, AT_LINE the line that failed; CAUSE_FILE, CAUSE_LINE the code\n"
		"the dump names as the cause (a closure's own line from\n"
		".BR \"FNEW ... ; file:line\" ,\n"
		"a built-in's name); REASON the main reason (most attempts, REASON_ATTEMPTS\n"
		"of them), ERROR its LuaJIT name, OTHER_REASONS the rest with their\n"
		"counts; ATTEMPTS the aborted attempts; BLACKLISTED the generations it was\n"
		"likely blacklisted (given up) in; TRACES the traces compiled there;\n"
		"COUNT the kind's count (attempts, times an exit was taken, flushes, side\n"
		"traces, chain depth); SCORE weight times count; with\n"
		".BR \\-\\-profile ,\n"
		"SAMPLES the interpreted samples charged to it (all samples for a profile\n"
		"without VM states; percentages with two decimals for a profile of\n"
		"percentages), SHARE their percentage of all samples, and COMPILED, C,\n"
		"GC, JIT the samples of those states charged by the same rule, shown\n"
		"beside the cost, never in it; BYTECODE the failed bytecode line and\n"
		"DUMP_LINE its abort's line in the dump; GENS the generations it shows in;\n"
		"PROFILE the profile the samples come from (with two, the\n"
		".B \\-jp\n"
		"one);\n"
		"ID a short hash of IDENTITY, a string that stays the same when lines\n"
		"are inserted or removed elsewhere in the file (see\n"
		".BR FINDINGS );\n"
		"ORDER its place among the file's findings of its kind and error, by line;\n"
		"SAME_CAUSE the rank of a finding above it with the same rule and cause (or\n"
		"failing line), whose fix fixes this one too;\n"
		"with\n"
		".BR \\-\\-baseline ,\n"
		"BASELINED is\n"
		".B yes\n"
		"for a finding the baseline accepts and ACCEPTED the reason it gives;\n"
		"PATH the file the run found and read for FILE, by its real path from\n"
		"the current directory (absolute when outside it), as SARIF, problems.txt\n"
		"and the annotations place it, empty when the finding is placed on no\n"
		"file (see\n"
		".BR \"FINDINGS ON THE CODE\" ):\n"
		"so that\n"
		".B \\-\\-compare \\-\\-annotate github\n"
		"places NEW's findings without the source tree.\n",
	.needs = NEEDS_FINDINGS,
	.is_default = 1,
	.finish = findings_finish,
};
