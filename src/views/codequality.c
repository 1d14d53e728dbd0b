/* codequality.c — gl-code-quality-report.json: the library's findings as
 * GitLab's Code Quality report, the subset of Code Climate's issue format
 * GitLab reads (description, check_name, fingerprint, severity,
 * location.path, location.lines.begin), one issue per finding in rank
 * order.  GitLab's merge request widget shows the issues whose
 * fingerprint the target branch's report lacks, so the fingerprint is
 * the finding's identity, which survives edits elsewhere in the file.
 * It renders the list; it decides nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "views/view.h"
#include "views/findings_views.h"
#include "lib/api.h"
#include "views/where.h"
#include "output/json.h"
#include "outdir/outdir.h"

/* Code Climate's severities: costly and fixable is "major", worth a look
 * "minor", usually harmless "info". */
static const char *severity(enum da_level l)
{
	return l == DA_LEVEL_COSTLY ? "major" : l == DA_LEVEL_LOOK ? "minor" : "info";
}

static json_t *issue(const struct da_finding *f, const struct da_profile_totals *t,
                     struct where_map *m, const char *run_name)
{
	struct where w = where_of(m, f->file, f->line);
	int placed = w.kind == WHERE_FILE && f->line != DA_NO_LINE;
	char *msg = finding_message(f, t, !placed);
	char check[128];
	snprintf(check, sizeof(check), "%s/%s", f->rule, f->rule_name ? f->rule_name : f->kind_word);
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string("issue"));
	json_object_set_new(o, "description", json_text(msg, strlen(msg)));
	free(msg);
	json_object_set_new(o, "check_name", json_string(check));
	json_object_set_new(o, "fingerprint", json_string(f->id));
	json_object_set_new(o, "severity", json_string(severity(f->level)));
	json_t *cat = json_array();
	json_array_append_new(cat, json_string("Performance"));
	json_object_set_new(o, "categories", cat);
	/* A file by its path from the current directory; a chunk that is no
	 * file by its name; the whole run by the dump's name, at line 1. */
	const char *path = placed ? w.path : f->file ? f->file : run_name;
	json_t *loc = json_object();
	json_object_set_new(loc, "path", json_text(path, strlen(path)));
	json_t *lines = json_object();
	json_object_set_new(lines, "begin", json_integer(f->line != DA_NO_LINE ? f->line : 1));
	if (f->line != DA_NO_LINE && f->end_line != DA_NO_LINE && f->end_line > f->line)
		json_object_set_new(lines, "end", json_integer(f->end_line));
	json_object_set_new(loc, "lines", lines);
	json_object_set_new(o, "location", loc);
	return o;
}

static int codequality_finish(struct view_ctx *c)
{
	if (!c->out || !da_generations(c->dump))
		return 0;
	struct outfile *out = outfile_create(c->out, "gl-code-quality-report.json");
	FILE *fp = out ? outfile_fp(out) : NULL;
	if (!fp)
		return -1;
	struct where_map m;
	where_init(&m, api_source_finder(c->dump), c->source_roots, c->nsource_roots);
	const struct da_profile_totals *t = da_profile_totals(c->dump);
	const char *run_name = c->name && strcmp(c->name, "-") != 0 ? c->name : "standard input";
	json_t *a = json_array();
	size_t n = da_findings(c->dump);
	for (size_t i = 0; i < n; i++) {
		const struct da_finding *f = da_finding(c->dump, i);
		if (!f->baseline_reason)    /* accepted: not an issue to show */
			json_array_append_new(a, issue(f, t, &m, run_name));
	}
	where_free(&m);
	int r = json_dumpf(a, fp, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(a);
	if (r < 0 || fputc('\n', fp) == EOF) {
		outfile_discard(out);
		return -1;
	}
	return outfile_commit(out);
}

const struct view view_codequality = {
	.name = "codequality",
	.files = "gl-code-quality-report.json",
	.needs = NEEDS_FINDINGS,
	.finish = codequality_finish,
};
