/* compare_annotate.c — --annotate github on a comparison: NEW's findings
 * that are new (matched by no finding of OLD) or that cross a --fail-on
 * rule, as GitHub Actions' workflow commands (views/annotate.c writes and
 * escapes them), in NEW's rank order; none that a baseline accepts.  The
 * words are the run's own (findings.csv's REASON, ADVICE, RULE). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/compare_impl.h"
#include "dumpanalyze.h"
#include "util/alloc.h"
#include "views/findings_views.h"
#include "views/where.h"

/* Whether name is one of a fresh list's names ('\x1f' between them). */
static int listed(const char *names, const char *name)
{
	size_t n = strlen(name);
	for (const char *s = names; s && *s;) {
		size_t k = strcspn(s, "\x1f");
		if (k == n && memcmp(s, name, n) == 0)
			return 1;
		s += k + (s[k] != '\0');
	}
	return 0;
}

/* The rule a finding of NEW crosses, or NULL. */
static const char *crosses(const struct cfinding *f, const struct found *fd)
{
	if (f->fresh && f->aborts) {
		if (fd->crossed_sites && f->level != EXPLAIN_HARMLESS)
			return "new-sites";
		if (fd->crossed_sites_all)
			return "new-sites:all";
	}
	if (*f->reason && fd->crossed_reasons && listed(fd->reasons.names, f->reason))
		return "new-reasons";
	if (*f->reason && fd->crossed_reasons_all &&
	    (listed(fd->reasons.names, f->reason) || listed(fd->reasons.harmless_names, f->reason)))
		return "new-reasons:all";
	return NULL;
}


void cmp_annotate(struct rep *r, const struct side *b, const struct found *fd)
{
	for (size_t i = 0; i < b->findings.n; i++) {
		const struct cfinding *f = &b->findings.v[i];
		if (f->accepted)
			continue;
		const char *rule = crosses(f, fd);
		if (!rule && !f->fresh)
			continue;
		int32_t line = f->line > 0 ? (int32_t)f->line : DA_NO_LINE;
		int32_t end = f->end_line > 0 ? (int32_t)f->end_line : DA_NO_LINE;
		/* where NEW's run found the file (findings.csv's PATH), else
		 * (a run of 0.4.0) looked up again from here */
		struct where w;
		if (f->path)
			w = *f->path ? (struct where){ WHERE_FILE, f->path, 0, f->path }
			  : (struct where){ *f->file ? WHERE_CHUNK : WHERE_RUN, NULL, -1, NULL };
		else
			w = where_of(r->where, *f->file ? f->file : NULL, line);
		int placed = w.kind == WHERE_FILE && line != DA_NO_LINE;
		char *msg = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&msg, &len);
		if (!fp)
			out_of_memory();
		if (!placed) {
			if (*f->file && line != DA_NO_LINE)
				fprintf(fp, "%s:%d: ", f->file, line);
			else if (*f->file)
				fprintf(fp, "%s: ", f->file);
			else
				fputs("the whole run: ", fp);
		}
		fprintf(fp, "%s%s (%s): ", f->fresh ? "new: " : "", f->kind, explain_severity_word(f->level));
		if (*f->reason)
			fprintf(fp, "%s in %" PRIu64 " of %" PRIu64 " aborted attempt%s. ", f->reason,
			        f->reason_attempts, f->attempts, f->attempts == 1 ? "" : "s");
		fputs(f->advice, fp);
		if (rule)
			fprintf(fp, "%sIt fails --fail-on %s.", *f->advice ? " " : "", rule);
		if (fclose(fp) != 0)
			out_of_memory();
		const char *name = *f->rule ? finding_rule_name(f->rule) : NULL;
		char title[160];
		snprintf(title, sizeof(title), "%s %s", *f->rule ? f->rule : "DA000", name ? name : f->kind);
		enum annot_level level = rule ? ANNOT_ERROR
		                       : f->level == EXPLAIN_HARMLESS ? ANNOT_NOTICE : ANNOT_WARNING;
		annotate_line(r->ann, level, &w, line, end, title, msg);
		free(msg);
	}
}
