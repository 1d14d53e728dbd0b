/* finding_words.c — one finding said in one line, the same words for
 * every output that puts findings on the code (SARIF, compiler-style
 * lines, GitHub annotations, GitLab's Code Quality): its kind and
 * severity, its main reason and how often, its cost, and the library's
 * advice.  It renders the library's fields; it decides nothing. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "views/findings_views.h"
#include "luajit/explain.h"
#include "findings/findings.h"
#include "util/alloc.h"

static void put_place(FILE *fp, const char *file, int32_t line, int32_t end)
{
	fputs(file, fp);
	if (line != DA_NO_LINE)
		fprintf(fp, ":%d", line);
	if (end != DA_NO_LINE && line != DA_NO_LINE && end > line)
		fprintf(fp, "-%d", end);
}

char *finding_message(const struct da_finding *f, const struct da_profile_totals *t, int place)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	if (!fp)
		out_of_memory();
	if (place) {
		if (f->file)
			put_place(fp, f->file, f->line, f->end_line);
		else
			fputs("the whole run", fp);
		fputs(": ", fp);
	}
	fprintf(fp, "%s (%s): ", f->kind_word, f->level_word);
	if (f->reason) {
		fprintf(fp, "%s in %" PRIu64 " of %" PRIu64 " aborted attempt%s", f->reason,
		        f->reason_attempts, f->attempts, f->attempts == 1 ? "" : "s");
		if (f->blacklisted_gens)
			fprintf(fp, ", likely given up on in %u generation%s", f->blacklisted_gens,
			        f->blacklisted_gens == 1 ? "" : "s");
		if (t && f->basis != DA_BASIS_NONE)
			fprintf(fp, ", charged %.1f%% of the samples", f->share);
		fputs(f->advice ? ". " : ".", fp);
	}
	if (f->advice)
		fputs(f->advice, fp);
	else if (!f->reason && f->title)
		fputs(f->title, fp);
	if (fclose(fp) != 0 || !buf)
		out_of_memory();
	return buf;
}

void finding_title(char *buf, size_t n, const struct da_finding *f)
{
	snprintf(buf, n, "%s %s", f->rule ? f->rule : "DA000", f->rule_name ? f->rule_name : f->kind_word);
}

const char *finding_rule_name(const char *id)
{
	size_t n;
	const struct explain_err *e = explain_errs(&n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(e[i].rule.id, id) == 0)
			return e[i].rule.name;
	const struct explain_rule *bc = explain_bc_rules(&n, NULL);
	for (size_t i = 0; i < n; i++)
		if (strcmp(bc[i].id, id) == 0)
			return bc[i].name;
	const struct finding_kind *k = findings_kinds(&n);
	for (size_t i = 0; i < n; i++)
		if (k[i].rule.id && strcmp(k[i].rule.id, id) == 0)
			return k[i].rule.name;
	const struct explain_rule *u = findings_unknown_rule();
	return strcmp(u->id, id) == 0 ? u->name : NULL;
}
