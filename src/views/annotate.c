/* annotate.c — GitHub Actions annotations: workflow commands
 * "::warning file=F,line=L,endLine=E,title=T::MESSAGE" on standard
 * output, which the runner turns into annotations on the pull request's
 * lines.  `--annotate github` prints one per finding of a run (or per new
 * or failing finding of a comparison).  It renders; it decides nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "views/findings_views.h"
#include "views/where.h"
#include "output/termtext.h"

/* Escaping: first the tool's one rule for text people read
 * (output/termtext.h), keeping CR and LF; then GitHub's, as its toolkit
 * does it (actions/toolkit, packages/core/src/command.ts: escapeData and
 * escapeProperty): in the message '%' -> %25, CR -> %0D, LF -> %0A; in a
 * property value also ':' -> %3A and ',' -> %2C.  The runner undoes
 * exactly GitHub's; ours (\xHH, \uHHHH) stay text in the log. */
static void put_escaped(FILE *fp, const char *s, int property)
{
	char *t = term_textn_flags(s, strlen(s), TERM_KEEP_LINES);
	for (const char *p = t; *p; p++) {
		if (*p == '%')
			fputs("%25", fp);
		else if (*p == '\r')
			fputs("%0D", fp);
		else if (*p == '\n')
			fputs("%0A", fp);
		else if (property && *p == ':')
			fputs("%3A", fp);
		else if (property && *p == ',')
			fputs("%2C", fp);
		else
			putc(*p, fp);
	}
	free(t);
}

static const char *const level_words[] = { "notice", "warning", "error" };

void annotate_line(FILE *fp, enum annot_level level, const struct where *w, int32_t line,
                   int32_t end_line, const char *title, const char *message)
{
	fprintf(fp, "::%s ", level_words[level]);
	if (w && w->kind == WHERE_FILE && line != DA_NO_LINE) {
		fputs("file=", fp);
		put_escaped(fp, w->path, 1);
		fprintf(fp, ",line=%d,", line);
		if (end_line != DA_NO_LINE && end_line > line)
			fprintf(fp, "endLine=%d,", end_line);
	}
	fputs("title=", fp);
	put_escaped(fp, title, 1);
	fputs("::", fp);
	put_escaped(fp, message, 0);
	putc('\n', fp);
}

int annotate_run(FILE *fp, const da_dump *d, struct where_map *m)
{
	const struct da_profile_totals *t = da_profile_totals(d);
	size_t n = da_findings(d);
	for (size_t i = 0; i < n; i++) {
		const struct da_finding *f = da_finding(d, i);
		if (f->baseline_reason)     /* accepted: not to be fixed now */
			continue;
		struct where w = where_of(m, f->file, f->line);
		int placed = w.kind == WHERE_FILE && f->line != DA_NO_LINE;
		char title[128];
		finding_title(title, sizeof(title), f);
		char *msg = finding_message(f, t, !placed);
		annotate_line(fp, f->level == DA_LEVEL_HARMLESS ? ANNOT_NOTICE : ANNOT_WARNING, &w,
		              f->line, f->end_line, title, msg);
		free(msg);
	}
	fflush(fp);
	return ferror(fp) ? -1 : 0;
}
