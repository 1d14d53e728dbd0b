/* first.c — the data of index.html's first screen: where the profile's
 * time went by VM state, and the library's ranked findings (da_findings),
 * each with its places linked to the source view's pages and its failed
 * attempt to its generation's page.  It writes the list as the library
 * made it; which findings come first on the screen is summary.txt's rule
 * (findings_listed), so both show the same ones. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "views/html/html.h"
#include "util/alloc.h"
#include "views/findings_views.h"
#include "views/source.h"

/* The generation whose dump lines hold `line`: generations follow each
 * other in the dump, so the first whose last line is at or past it. */
uint32_t html_gen_of_line(const struct html_gen_lines *gl, uint64_t line)
{
	size_t lo = 0, hi = gl->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (gl->last[mid] < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < gl->n ? gl->number[lo] : 0;
}

void html_gen_lines_add(struct html_gen_lines *gl, uint32_t number, uint64_t last)
{
	ALLOC_GROW(gl->number, gl->n + 1, gl->cap_number);
	ALLOC_GROW(gl->last, gl->n + 1, gl->cap_last);
	gl->number[gl->n] = number;
	gl->last[gl->n++] = last;
}

void html_gen_lines_free(struct html_gen_lines *gl)
{
	free(gl->number);
	free(gl->last);
	memset(gl, 0, sizeof(*gl));
}

static void put_str(FILE *fp, const char *s)
{
	if (s)
		html_put_json(fp, s, strlen(s));
	else
		fputs("null", fp);
}

static void put_line(FILE *fp, int32_t line)
{
	html_put_json_line(fp, line);   /* DA_NO_LINE is LOC_NO_LINE */
}

/* ",\"source-3.html#L29\"" when the source view has a page for the
 * file, else ",null": the page makes a link only of that form. */
static void put_href(FILE *fp, const struct view_set *set, const char *file, int32_t line)
{
	char buf[64];
	if (file && line > 0 && line != DA_NO_LINE &&
	    source_page_link(set, file, strlen(file), line, buf, sizeof(buf)) == 0)
		fprintf(fp, ",\"%s\"", buf);
	else
		fputs(",null", fp);
}

static void put_samples(FILE *fp, const struct da_profile_totals *t, uint64_t v)
{
	if (t)
		fprintf(fp, ",%" PRIu64, v);
	else
		fputs(",null", fp);
}

/* "shares": the profile's samples by VM state, or null without one. */
static void put_shares(FILE *fp, const da_dump *d)
{
	const struct da_profile_totals *t = da_profile_totals(d);
	fputs("\"shares\":", fp);
	if (!t) {
		fputs("null", fp);
		return;
	}
	fputs("{\"path\":", fp);
	put_str(fp, t->path);
	fprintf(fp, ",\"total\":%" PRIu64 ",\"percent\":%d,\"states\":%d,\"stacks\":%d,\"state\":[",
	        t->total, t->percent, t->states, t->stacks);
	for (int s = 0; s < DA_VM_STATES; s++)
		fprintf(fp, "%s%" PRIu64, s ? "," : "", t->state[s]);
	fprintf(fp, "],\"charged\":%" PRIu64 ",\"functions\":%d,\"unsplit\":%" PRIu64 "}", t->charged,
	        t->functions, t->unsplit);
}

/* The columns of a finding's row, in order (the page and the tests read
 * them by name). */
static const char finding_cols[] =
	"[\"rank\",\"kind\",\"level\",\"rule\",\"rule_name\",\"file\",\"line\",\"end_line\",\"basis\","
	"\"at_file\",\"at_line\",\"cause_file\",\"cause_line\",\"reason\",\"error\",\"reason_attempts\","
	"\"attempts\",\"others\",\"last_reason\",\"count\",\"traces\",\"blacklisted\",\"gen_first\","
	"\"gen_last\",\"bytecode\",\"dump_line\",\"abort_gen\",\"samples\",\"share\",\"beside\","
	"\"score\",\"title\",\"why\",\"advice\",\"id\",\"identity\",\"same_cause\",\"listed\","
	"\"href\",\"at_href\",\"cause_href\",\"trace\",\"exit\",\"extent\",\"profile\"]";

static void put_finding(FILE *fp, struct view_ctx *c, const struct da_finding *f,
                        const struct html_gen_lines *gl)
{
	const struct da_profile_totals *t = da_profile_totals(c->dump);
	fprintf(fp, "[%u,", f->rank);
	put_str(fp, f->kind_word);
	putc(',', fp);
	put_str(fp, f->level_word);
	putc(',', fp);
	put_str(fp, f->rule);
	putc(',', fp);
	put_str(fp, f->rule_name);
	putc(',', fp);
	put_str(fp, f->file);
	putc(',', fp);
	put_line(fp, f->line);
	putc(',', fp);
	put_line(fp, f->end_line);
	putc(',', fp);
	put_str(fp, f->basis_word);
	putc(',', fp);
	put_str(fp, f->at_file);
	putc(',', fp);
	put_line(fp, f->at_line);
	putc(',', fp);
	put_str(fp, f->cause_file);
	putc(',', fp);
	put_line(fp, f->cause_line);
	putc(',', fp);
	put_str(fp, f->reason);
	putc(',', fp);
	put_str(fp, f->error);
	fprintf(fp, ",%" PRIu64 ",%" PRIu64 ",[", f->reason_attempts, f->attempts);
	/* the reasons after the main one, with their attempts */
	for (uint32_t i = 1; i < f->nreasons; i++) {
		fputs(i > 1 ? ",[" : "[", fp);
		put_str(fp, f->reasons[i].reason);
		fprintf(fp, ",%" PRIu64 "]", f->reasons[i].count);
	}
	fputs("],", fp);
	put_str(fp, f->last_reason);
	fprintf(fp, ",%" PRIu64 ",%" PRIu64 ",%u,%u,%u,", f->count, f->traces, f->blacklisted_gens,
	        f->gen_first, f->gen_last);
	put_str(fp, f->bytecode);
	if (f->dump_line)
		fprintf(fp, ",%" PRIu64 ",%u", f->dump_line, html_gen_of_line(gl, f->dump_line));
	else
		fputs(",null,null", fp);
	put_samples(fp, t, f->samples);
	if (t)
		fprintf(fp, ",%.2f,", f->share);
	else
		fputs(",null,", fp);
	if (t && t->states)
		fprintf(fp, "[%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]",
		        f->state_samples[DA_VM_COMPILED], f->state_samples[DA_VM_C],
		        f->state_samples[DA_VM_GC], f->state_samples[DA_VM_JIT]);
	else
		fputs("null", fp);
	fprintf(fp, ",%" PRIu64 ",", f->score);
	put_str(fp, f->title);
	putc(',', fp);
	put_str(fp, f->why);
	putc(',', fp);
	put_str(fp, f->advice);
	putc(',', fp);
	put_str(fp, f->id);
	putc(',', fp);
	put_str(fp, f->identity);
	fprintf(fp, ",%u,%d", f->same_cause, findings_listed(f));
	put_href(fp, c->set, f->file, f->line);
	put_href(fp, c->set, f->at_file, f->at_line);
	put_href(fp, c->set, f->cause_file, f->cause_line);
	if (f->exit != DA_PARENT_EXIT_NONE)
		fprintf(fp, ",%u,%d,", f->trace, f->exit);
	else
		fputs(",null,null,", fp);
	put_str(fp, f->extent_word);
	putc(',', fp);
	put_str(fp, f->profile);
	putc(']', fp);
}

void html_put_first(FILE *fp, struct view_ctx *c, const struct html_gen_lines *gl)
{
	put_shares(fp, c->dump);
	fprintf(fp, ",\n\"top\":%d,\n\"findings\":{\"cols\":%s,\n\"rows\":[", FINDINGS_TOP, finding_cols);
	size_t n = da_findings(c->dump);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",\n" : "\n", fp);
		put_finding(fp, c, da_finding(c->dump, i), gl);
	}
	fputs("]}", fp);
}
