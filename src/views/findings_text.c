/* findings_text.c — the opening of summary.txt: where the profile's time
 * went by VM state, and "fix these first", the top findings of the
 * library's list (da_findings) each with where, why, cost, what to do
 * and the bytecode that failed.  It renders the list; it decides
 * nothing. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "views/findings_views.h"
#include "output/termtext.h"
#include "luajit/recipe.h"

/* A name from the dump, escaped (output/termtext.h). */
static void put_name(FILE *fp, const char *s)
{
	term_puts(fp, s);
}

static void put_place(FILE *fp, const char *file, int32_t line, int32_t end)
{
	put_name(fp, file);
	if (line != DA_NO_LINE)
		fprintf(fp, ":%d", line);
	if (end != DA_NO_LINE && end > line)
		fprintf(fp, "-%d", end);
}

static double pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0;
}

void findings_write_shares(FILE *fp, const da_dump *d)
{
	const struct da_profile_totals *t = da_profile_totals(d);
	if (!t)
		return;
	static const char *const names[DA_VM_STATES] = {
		"interpreted", "compiled", "C code", "garbage collector", "JIT compiler",
	};
	char v[32];
	fputs("where the time went: ", fp);
	put_name(fp, t->path);
	if (t->percent)
		fputs(" (percentages only)\n", fp);
	else if (t->functions)
		fprintf(fp, " (sysprof, %" PRIu64 " samples; interpreted time is known per Lua "
		        "function: the findings are charged by function)\n", t->total);
	else
		fprintf(fp, " (%" PRIu64 " samples)\n", t->total);
	if (!t->states) {
		fputs("  the profile has no VM states: record it with " RECIPE_JP " to see\n"
		      "  interpreted time; costs below count every sample\n", fp);
		return;
	}
	for (int s = 0; s < DA_VM_STATES; s++) {
		findings_put_samples(v, sizeof(v), t, t->state[s]);
		fprintf(fp, "  %-18s %5.1f%%  %8s%s\n", names[s], pct(t->state[s], t->total), v,
		        s == DA_VM_INTERPRETED ? "  (JIT failures cost only these)" : "");
	}
	findings_put_samples(v, sizeof(v), t, t->charged);
	fprintf(fp, "  charged to the findings: %s interpreted samples, %.1f%% of all samples"
	        " (%.1f%% of the interpreted)\n", v, pct(t->charged, t->total),
	        pct(t->charged, t->state[DA_VM_INTERPRETED]));
	if (t->unsplit)
		fprintf(fp, "  not charged: %" PRIu64 " interpreted samples in functions that hold a failed"
		        " loop of their own\n  (by function, which of their lines ran is unknown; a -jp"
		        " profile knows)\n", t->unsplit);
}

/* "  1  json.lua:19-29  blacklisted-loop, costly: ..." and its lines. */
static void put_finding(FILE *fp, const da_dump *d, const struct da_finding *f, size_t same)
{
	const struct da_profile_totals *t = da_profile_totals(d);
	char v[32];
	fprintf(fp, "  %-3u ", f->rank);
	if (f->file)
		put_place(fp, f->file, f->line, f->end_line);
	else
		fputs("the whole run", fp);
	fprintf(fp, "  %s, %s", f->kind_word, f->level_word);
	if (t && f->basis == DA_BASIS_NONE) {
		fputs(": no extent to charge samples to (score ", fp);
		fprintf(fp, "%" PRIu64 ")", f->score);
	} else if (t) {
		findings_put_samples(v, sizeof(v), t, f->samples);
		fprintf(fp, ": %.1f%% of the samples (%s %s", f->share, v,
		        t->states ? "interpreted" : "samples");
		if (f->basis == DA_BASIS_FUNCTION)
			fprintf(fp, ", by function, extent from the %s", f->extent_word);
		else if (f->basis != DA_BASIS_NONE)
			fprintf(fp, ", extent from the %s", f->basis_word);
		putc(')', fp);
	} else {
		fprintf(fp, ": score %" PRIu64, f->score);
	}
	putc('\n', fp);
	if (f->reason) {
		fputs("       why   ", fp);
		put_name(fp, f->reason);
		fprintf(fp, " in %" PRIu64 " of %" PRIu64 " aborted attempts", f->reason_attempts,
		        f->attempts);
		/* the others, with their counts: the main reason is the most
		 * severe, not always the most frequent */
		for (uint32_t i = 1; i < f->nreasons && i <= 3; i++) {
			fprintf(fp, i == 1 ? " (others: %" PRIu64 " " : ", %" PRIu64 " ", f->reasons[i].count);
			put_name(fp, f->reasons[i].reason);
		}
		if (f->nreasons > 4)
			fprintf(fp, " and %u more", f->nreasons - 4);
		if (f->nreasons > 1)
			putc(')', fp);
		if (f->blacklisted_gens)
			fprintf(fp, "; likely given up on in %u generation%s", f->blacklisted_gens,
			        f->blacklisted_gens == 1 ? "" : "s");
		putc('\n', fp);
	} else if (f->title) {
		fputs("       what  ", fp);
		put_name(fp, f->title);
		putc('\n', fp);
	}
	if (f->at_file && f->reason) {
		fputs("       at    ", fp);
		put_place(fp, f->at_file, f->at_line, DA_NO_LINE);
		if (f->bytecode) {
			fputs(", failed at: ", fp);
			put_name(fp, f->bytecode);
		}
		if (f->dump_line)
			fprintf(fp, " (dump line %" PRIu64 ")", f->dump_line);
		putc('\n', fp);
	}
	if (f->advice) {
		fputs("       fix   ", fp);
		put_name(fp, f->advice);
		putc('\n', fp);
	}
	if (t && t->states) {
		uint64_t other = 0;
		for (int s = DA_VM_COMPILED; s < DA_VM_STATES; s++)
			other += f->state_samples[s];
		if (other) {
			static const char *const names[DA_VM_STATES] = { "", "compiled", "C", "GC", "JIT" };
			fputs("       beside", fp);
			const char *sep = " ";
			for (int s = DA_VM_COMPILED; s < DA_VM_STATES; s++)
				if (f->state_samples[s]) {
					findings_put_samples(v, sizeof(v), t, f->state_samples[s]);
					fprintf(fp, "%s%s %s", sep, v, names[s]);
					sep = ", ";
				}
			fputs(" samples there: not a JIT failure's cost\n", fp);
		}
	}
	if (same)
		fprintf(fp, "       and   %zu more finding%s with this cause (SAME_CAUSE %u in findings.csv)\n",
		        same, same == 1 ? "" : "s", f->rank);
}

int findings_listed(const struct da_finding *f)
{
	return !f->same_cause && f->level != DA_LEVEL_HARMLESS && !f->baseline_reason &&
	       !(f->costed && f->basis != DA_BASIS_NONE && !f->samples);
}

static size_t baselined(const da_dump *d)
{
	size_t n = da_findings(d), k = 0;
	for (size_t i = 0; i < n; i++)
		k += da_finding(d, i)->baseline_reason != NULL;
	return k;
}

/* The findings not usually harmless and not accepted by a baseline. */
static size_t failing(const da_dump *d)
{
	size_t n = da_findings(d), k = 0;
	for (size_t i = 0; i < n; i++)
		k += da_finding(d, i)->level != DA_LEVEL_HARMLESS && !da_finding(d, i)->baseline_reason;
	return k;
}

/* "  N findings a baseline accepts are left out" when some are. */
static void say_baselined(FILE *fp, const da_dump *d)
{
	size_t k = baselined(d);
	if (k)
		fprintf(fp, "  %zu finding%s the baseline accepts %s left out (BASELINED in findings.csv)\n",
		        k, k == 1 ? "" : "s", k == 1 ? "is" : "are");
}

void findings_write_top(FILE *fp, const da_dump *d, size_t top)
{
	size_t n = da_findings(d), distinct = 0;
	for (size_t i = 0; i < n; i++)
		distinct += findings_listed(da_finding(d, i));
	if (!distinct) {
		fputs("fix these first\n", fp);
		if (n && baselined(d))
			fprintf(fp, "  (nothing costly the baseline does not accept: %zu finding%s in "
			        "findings.csv)\n", n, n == 1 ? "" : "s");
		else if (n && failing(d))
			/* the headline says what the list holds: findings that are
			 * not usually harmless but charged nothing are still there */
			fprintf(fp, "  (nothing charged: %zu of %zu finding%s not usually harmless, none "
			        "charged any sample of the profile; findings.csv has them all)\n",
			        failing(d), n, n == 1 ? "" : "s");
		else if (n)
			fprintf(fp, "  (nothing costly: %zu usually harmless finding%s in findings.csv)\n", n,
			        n == 1 ? "" : "s");
		else
			fputs("  (nothing: no aborted attempts, hot exits or flushes)\n", fp);
		say_baselined(fp, d);
		return;
	}
	fprintf(fp, "fix these first (%zu of %zu findings; findings.csv has them all)\n",
	        distinct < top ? distinct : top, n);
	if (!da_profile_totals(d))
		fputs("  ranked by score, the rule's weight x count: give --profile (luajit " RECIPE_JP ")"
		      " to rank by cost\n", fp);
	say_baselined(fp, d);
	size_t shown = 0;
	for (size_t i = 0; i < n && shown < top; i++) {
		const struct da_finding *f = da_finding(d, i);
		if (!findings_listed(f))
			continue;
		size_t same = 0;
		for (size_t k = i + 1; k < n; k++)
			same += da_finding(d, k)->same_cause == f->rank;
		put_finding(fp, d, f, same);
		shown++;
	}
}
