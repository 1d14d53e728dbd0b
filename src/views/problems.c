/* problems.c — problems.txt: the library's findings as compiler-style
 * lines, "FILE:LINE:1: warning: MESSAGE [DA203]", one per finding in
 * rank order, which vim's quickfix (:cfile, the default 'errorformat'),
 * Emacs's compilation mode and VS Code's $gcc problem matcher read
 * without configuration.  Also what `--format=gcc` prints on standard
 * output.  It renders the list; it decides nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "views/view.h"
#include "views/findings_views.h"
#include "lib/api.h"
#include "views/where.h"
#include "outdir/outdir.h"
#include "output/termtext.h"

/* A path an editor's parser reads back whole: nothing the escaping
 * rule changes (a control byte would start a line of its own), no ':' before a digit (vim's %f takes the shortest text
 * before ":N:"), not empty, no leading blank or '"' (vim's "\"%f\", line
 * %l" starts with one). */
static int plain_path(const char *p)
{
	if (!p || !*p || *p == ' ' || *p == '"')
		return 0;
	char *shown = term_text(p);     /* shown as it is, or not as a path */
	int same = strcmp(shown, p) == 0;
	free(shown);
	if (!same)
		return 0;
	for (; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f || (*p == ':' && p[1] >= '0' && p[1] <= '9'))
			return 0;
	return 1;
}

/* Text (already escaped by termtext.h's rule) in which no parser of
 * compiler output finds a place: a ':' after a digit, or after a ')'
 * after a digit, and a '|' after a digit are written " :", " |", so no
 * "FILE:12:", "FILE(12):", "\"FILE\", line 12: " or "FILE|12| " of the
 * message (the advice names places as "json.lua:23: create ...", a chunk
 * may be named "=lua/app.lua|7| x") reads as one to vim's default
 * 'errorformat' (whose %f takes any text before ":N:" or "|N| "). */
static void put_unparsed(FILE *fp, const char *s)
{
	for (const char *p = s; *p; p++) {
		int after_digit = p > s && p[-1] >= '0' && p[-1] <= '9';
		int after_digit_paren = p - 1 > s && p[-1] == ')' && p[-2] >= '0' && p[-2] <= '9';
		if ((*p == ':' && (after_digit || after_digit_paren)) || (*p == '|' && after_digit))
			putc(' ', fp);
		putc(*p, fp);
	}
}

/* A finding no editor can open a file for (a chunk that is no file we
 * read, a path a parser would split, the whole run): "dumpanalyze:
 * warning: tpl-3 line 12, MESSAGE [RULE]", written so that a quickfix
 * list shows it as text, not as a jump. */
static void put_unplaced(FILE *fp, const struct da_finding *f, const char *msg)
{
	fputs("dumpanalyze: warning: ", fp);
	if (f->file) {
		char *name = term_text(f->file);
		put_unparsed(fp, name);
		free(name);
		if (f->line != DA_NO_LINE)
			fprintf(fp, " line %d", f->line);
		if (f->line != DA_NO_LINE && f->end_line != DA_NO_LINE && f->end_line > f->line)
			fprintf(fp, "-%d", f->end_line);
	} else {
		fputs("the whole run", fp);
	}
	fputs(", ", fp);
	put_unparsed(fp, msg);
	fprintf(fp, " [%s]\n", f->rule);
}

int problems_write(FILE *fp, const da_dump *d, struct where_map *m)
{
	const struct da_profile_totals *t = da_profile_totals(d);
	size_t n = da_findings(d);
	for (size_t i = 0; i < n; i++) {
		const struct da_finding *f = da_finding(d, i);
		if (f->baseline_reason)     /* accepted: not to be fixed now */
			continue;
		struct where w = where_of(m, f->file, f->line);
		char *msg = finding_message(f, t, 0);
		char *shown = term_text(msg);
		free(msg);
		/* The severity is in the message: "warning" for every finding,
		 * because VS Code's $gcc matcher takes only warning and error. */
		if (w.kind == WHERE_FILE && plain_path(w.path) && f->line != DA_NO_LINE) {
			fprintf(fp, "%s:%d:1: warning: ", w.path, f->line);
			put_unparsed(fp, shown);
			fprintf(fp, " [%s]\n", f->rule);
		} else {
			put_unplaced(fp, f, shown);
		}
		free(shown);
	}
	return ferror(fp) ? -1 : 0;
}

static int problems_finish(struct view_ctx *c)
{
	if (!c->out || !da_generations(c->dump))
		return 0;
	struct outfile *out = outfile_create(c->out, "problems.txt");
	FILE *fp = out ? outfile_fp(out) : NULL;
	if (!fp)
		return -1;
	struct where_map m;
	where_init(&m, api_source_finder(c->dump), c->source_roots, c->nsource_roots);
	int r = problems_write(fp, c->dump, &m);
	where_free(&m);
	if (r < 0) {
		outfile_discard(out);
		return -1;
	}
	return outfile_commit(out);
}

const struct view view_problems = {
	.name = "problems",
	.files = "problems.txt",
	.needs = NEEDS_FINDINGS,
	.finish = problems_finish,
};
