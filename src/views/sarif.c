/* sarif.c — findings.sarif: the library's findings as SARIF 2.1.0, for
 * GitHub code scanning (github/codeql-action/upload-sarif), the VS Code
 * SARIF viewer and any other SARIF consumer.  One run; the tool's driver
 * with every rule of the catalogue (sarif_rules.c); one result per
 * finding that has a file, in rank order (the others are counted in the
 * run's properties: findingsLeftOut): rule, level, message, where (the
 * file and the extent's lines), the failing line, the cause and
 * (of an exit or stitch) the loop or function its advice names as related
 * locations, a fingerprint from the finding's identity.  It
 * renders the list; it decides nothing.  Same input, same bytes: no
 * time, host or absolute path of the run goes in (but a --source-root
 * outside the current directory, which the user named). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <jansson.h>
#include "views/view.h"
#include "views/findings_views.h"
#include "views/sarif.h"
#include "lib/api.h"
#include "views/where.h"
#include "output/json.h"
#include "outdir/outdir.h"
#include "util/alloc.h"

#ifndef DA_URL       /* the Makefile's URL */
#define DA_URL "file:///usr/local/share/man/man1/dumpanalyze.1"
#endif

#define SRCROOT "%SRCROOT%"

/* A path as a URI reference: every byte but the unreserved ones and '/'
 * percent-encoded (so no ':' can read as a scheme). */
static char *uri_path(const char *prefix, const char *p)
{
	size_t n = strlen(p), k = strlen(prefix);
	char *s = xrealloc(NULL, k + 3 * n + 1);
	memcpy(s, prefix, k);
	for (; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '.' || c == '_' || c == '~' || c == '/')
			s[k++] = (char)c;
		else
			k += (size_t)sprintf(s + k, "%%%02X", c);
	}
	s[k] = '\0';
	return s;
}

static json_t *text_of(const char *s)
{
	json_t *o = json_object();
	json_object_set_new(o, "text", json_text(s, strlen(s)));
	return o;
}

/* A message's text ends with a period (SARIF's guidance). */
static json_t *sentence(const char *s)
{
	size_t n = strlen(s);
	if (n && s[n - 1] == '.')
		return text_of(s);
	char *t = xrealloc(NULL, n + 2);
	memcpy(t, s, n);
	memcpy(t + n, ".", 2);
	json_t *o = text_of(t);
	free(t);
	return o;
}

struct sarif_state {
	struct where_map map;
	unsigned used_bases;        /* bit k: base k was used (0: SRCROOT) */
	unsigned long long used_roots;  /* --source-root k (1..64) used */
};

/* A location object for a place (NULL when the place has none). */
static json_t *location(struct sarif_state *s, const char *file, int32_t line, int32_t end,
                        const char *run_name)
{
	struct where w = where_of(&s->map, file, line);
	json_t *loc = json_object();
	if (w.kind == WHERE_FILE && line != DA_NO_LINE) {
		json_t *art = json_object();
		char *uri;
		if (w.base == 0) {
			uri = uri_path("", w.rel);
			json_object_set_new(art, "uri", json_string(uri));
			json_object_set_new(art, "uriBaseId", json_string(SRCROOT));
			s->used_bases |= 1;
		} else if (w.base > 0 && w.base <= 64) {
			char id[32];
			snprintf(id, sizeof(id), "ROOT%d", w.base);
			uri = uri_path("", w.rel);
			json_object_set_new(art, "uri", json_string(uri));
			json_object_set_new(art, "uriBaseId", json_string(id));
			s->used_roots |= 1ull << (w.base - 1);
		} else {
			uri = uri_path("file://", w.path);
			json_object_set_new(art, "uri", json_string(uri));
		}
		free(uri);
		json_t *region = json_object();
		json_object_set_new(region, "startLine", json_integer(line));
		if (end != DA_NO_LINE && end > line)
			json_object_set_new(region, "endLine", json_integer(end));
		json_t *phys = json_object();
		json_object_set_new(phys, "artifactLocation", art);
		json_object_set_new(phys, "region", region);
		json_object_set_new(loc, "physicalLocation", phys);
		return loc;
	}
	/* A chunk that is no file we read (a string chunk, "=stdin", a
	 * loader's "tpl-3"), or the run itself: named, not placed. */
	json_t *logical = json_object();
	if (w.kind == WHERE_CHUNK) {
		json_object_set_new(logical, "name", json_text(file, strlen(file)));
		if (line != DA_NO_LINE) {
			char *fq = xrealloc(NULL, strlen(file) + 16);
			sprintf(fq, "%s:%d", file, line);
			json_object_set_new(logical, "fullyQualifiedName", json_text(fq, strlen(fq)));
			free(fq);
		}
		json_object_set_new(logical, "kind", json_string("module"));
	} else {
		json_object_set_new(logical, "name", json_text(run_name, strlen(run_name)));
		json_object_set_new(logical, "kind", json_string("resource"));
	}
	json_t *list = json_array();
	json_array_append_new(list, logical);
	json_object_set_new(loc, "logicalLocations", list);
	return loc;
}

static int is_closure(const struct da_finding *f)
{
	return f->reason && strstr(f->reason, "FNEW") != NULL;
}

static json_t *result(struct sarif_state *s, const struct sarif_rule_index *ix,
                      const struct da_finding *f, const struct da_profile_totals *t,
                      const char *run_name)
{
	json_t *loc = location(s, f->file, f->line, f->end_line, run_name);
	if (!json_object_get(loc, "physicalLocation")) {
		/* GitHub refuses a whole upload with a result it cannot put
		 * on a file ("expected artifact location"): not a result */
		json_decref(loc);
		return NULL;
	}
	json_t *r = json_object();
	json_object_set_new(r, "ruleId", json_string(f->rule));
	long k = sarif_rule_find(ix, f->rule);
	if (k >= 0)
		json_object_set_new(r, "ruleIndex", json_integer(k));
	json_object_set_new(r, "level", json_string(sarif_level(f->level == DA_LEVEL_HARMLESS)));
	char *msg = finding_message(f, t, 0);
	json_object_set_new(r, "message", sentence(msg));
	free(msg);
	json_t *locs = json_array();
	json_array_append_new(locs, loc);
	json_object_set_new(r, "locations", locs);
	/* the failing line and the cause, where they are other lines */
	json_t *rel = json_array();
	int id = 1;
	if (f->at_file && f->at_line != DA_NO_LINE &&
	    !(f->file && strcmp(f->at_file, f->file) == 0 && f->at_line == f->line)) {
		json_t *l = location(s, f->at_file, f->at_line, DA_NO_LINE, run_name);
		json_object_set_new(l, "id", json_integer(id++));
		json_object_set_new(l, "message", text_of("The line where the attempts failed."));
		json_array_append_new(rel, l);
	}
	if (f->cause_file && f->cause_line != DA_NO_LINE &&
	    !(f->file && strcmp(f->cause_file, f->file) == 0 && f->cause_line == f->line) &&
	    !(f->at_file && strcmp(f->cause_file, f->at_file) == 0 && f->cause_line == f->at_line)) {
		json_t *l = location(s, f->cause_file, f->cause_line, DA_NO_LINE, run_name);
		json_object_set_new(l, "id", json_integer(id++));
		json_object_set_new(l, "message", text_of(is_closure(f)
			? "The closure created each time (the dump's FNEW names this line)."
			: "The code the dump names as the cause."));
		json_array_append_new(rel, l);
	}
	/* an exit's or stitch's loop or function, which its advice names */
	if (f->scope_file && f->scope_line != DA_NO_LINE &&
	    !(f->file && strcmp(f->scope_file, f->file) == 0 && f->scope_line == f->line)) {
		json_t *l = location(s, f->scope_file, f->scope_line, DA_NO_LINE, run_name);
		json_object_set_new(l, "id", json_integer(id++));
		char m[64];
		snprintf(m, sizeof(m), "The %s the advice names.", f->scope_word);
		json_object_set_new(l, "message", text_of(m));
		json_array_append_new(rel, l);
	}
	for (size_t i = json_array_size(rel); i-- > 0;)
		if (!json_object_get(json_array_get(rel, i), "physicalLocation"))
			json_array_remove(rel, i);
	if (json_array_size(rel))
		json_object_set_new(r, "relatedLocations", rel);
	else
		json_decref(rel);
	/* The identity, which survives edits elsewhere in the file: what
	 * GitHub and others match results across runs by. */
	json_t *fp = json_object();
	json_object_set_new(fp, "dumpanalyze/v1", json_string(f->id));
	json_object_set_new(r, "partialFingerprints", fp);
	json_t *p = json_object();
	json_object_set_new(p, "rank", json_integer(f->rank));
	json_object_set_new(p, "kind", json_string(f->kind_word));
	json_object_set_new(p, "severity", json_string(f->level_word));
	json_object_set_new(p, "attempts", json_integer((json_int_t)f->attempts));
	json_object_set_new(p, "count", json_integer((json_int_t)f->count));
	if (t) {
		json_object_set_new(p, "samples", json_integer((json_int_t)f->samples));
		/* two decimals, as findings.csv's SHARE */
		json_object_set_new(p, "share", json_real(floor(f->share * 100 + 0.5) / 100));
	}
	json_object_set_new(p, "basis", json_string(f->basis_word));
	json_object_set_new(p, "identity", json_text(f->identity, strlen(f->identity)));
	json_object_set_new(r, "properties", p);
	/* Accepted by a baseline: kept, as a suppression the consumer can
	 * show or hide (GitHub closes such an alert). */
	if (f->baseline_reason) {
		json_t *sup = json_object();
		json_object_set_new(sup, "kind", json_string("external"));
		json_object_set_new(sup, "status", json_string("accepted"));
		json_object_set_new(sup, "justification",
		                    json_text(f->baseline_reason, strlen(f->baseline_reason)));
		json_t *list = json_array();
		json_array_append_new(list, sup);
		json_object_set_new(r, "suppressions", list);
	}
	return r;
}

static json_t *base_ids(const struct sarif_state *s, const struct view_ctx *c)
{
	json_t *b = json_object();
	if (s->used_bases & 1)
		json_object_set_new(b, SRCROOT, json_pack("{s:{s:s}}", "description", "text",
			"The current directory of the run that wrote this file: the Lua files are "
			"named by their paths from it (run it at the repository's root)."));
	for (size_t i = 0; i < c->nsource_roots && i < 64; i++) {
		if (!(s->used_roots & (1ull << i)) || !s->map.roots[i])
			continue;
		char id[32];
		snprintf(id, sizeof(id), "ROOT%zu", i + 1);
		size_t n = strlen(s->map.roots[i]);
		char *dir = xrealloc(NULL, n + 2);
		memcpy(dir, s->map.roots[i], n);
		if (n && dir[n - 1] == '/') {
			dir[n] = '\0';
		} else {
			dir[n] = '/';
			dir[n + 1] = '\0';
		}
		char *uri = uri_path("file://", dir);
		json_object_set_new(b, id, json_pack("{s:s}", "uri", uri));
		free(uri);
		free(dir);
	}
	return b;
}

/* The rules' place in the document, which the catalogue's text takes
 * when it is written: a value nothing before it can hold (all that comes
 * before is the tool's own text). */
#define RULES_MARK "\001"
#define RULES_MARK_JSON "\"rules\": \"\\u0001\""

static json_t *document(struct sarif_state *s, const struct view_ctx *c,
                        const struct sarif_rule_index *ix)
{
	const da_dump *d = c->dump;
	const struct da_profile_totals *t = da_profile_totals(d);
	json_t *driver = json_object();
	json_object_set_new(driver, "name", json_string("dumpanalyze"));
	json_object_set_new(driver, "version", json_string(DA_VERSION_STRING));
	json_object_set_new(driver, "semanticVersion", json_string(DA_VERSION_STRING));
	json_object_set_new(driver, "informationUri", json_string(DA_URL));
	json_object_set_new(driver, "rules", json_string(RULES_MARK));
	json_t *results = json_array();
	const char *run_name = c->name && strcmp(c->name, "-") != 0 ? c->name : "standard input";
	size_t n = da_findings(d), left_out = 0;
	for (size_t i = 0; i < n; i++) {
		json_t *r = result(s, ix, da_finding(d, i), t, run_name);
		if (r)
			json_array_append_new(results, r);
		else
			left_out++;
	}
	json_t *run = json_object();
	json_object_set_new(run, "tool", json_pack("{s:o}", "driver", driver));
	json_t *bases = base_ids(s, c);
	if (json_object_size(bases))
		json_object_set_new(run, "originalUriBaseIds", bases);
	else
		json_decref(bases);
	json_object_set_new(run, "results", results);
	json_object_set_new(run, "properties", json_pack("{s:I,s:s}", "findingsLeftOut",
		(json_int_t)left_out, "findingsLeftOutWhy",
		"Findings with no file to place them on (the run itself, or a chunk that is no file "
		"read: =stdin, builtin:..., a loader's name) are no results, as GitHub code scanning "
		"refuses an upload with one; findings.csv has them."));
	json_t *doc = json_object();
	json_object_set_new(doc, "$schema", json_string("https://json.schemastore.org/sarif-2.1.0.json"));
	json_object_set_new(doc, "version", json_string("2.1.0"));
	json_t *runs = json_array();
	json_array_append_new(runs, run);
	json_object_set_new(doc, "runs", runs);
	return doc;
}

static int sarif_finish(struct view_ctx *c)
{
	if (!c->out || !da_generations(c->dump))
		return 0;
	struct outfile *out = outfile_create(c->out, "findings.sarif");
	FILE *fp = out ? outfile_fp(out) : NULL;
	if (!fp)
		return -1;
	struct sarif_state s = { .used_bases = 0 };
	where_init(&s.map, api_source_finder(c->dump), c->source_roots, c->nsource_roots);
	const struct sarif_rule_index *ix;
	const char *rules = sarif_rules_text(&ix);
	json_t *doc = document(&s, c, ix);
	where_free(&s.map);
	char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	json_decref(doc);
	char *mark = text ? strstr(text, RULES_MARK_JSON) : NULL;
	int r = -1;
	if (mark) {
		size_t head = (size_t)(mark - text) + strlen("\"rules\": ");
		const char *tail = mark + strlen(RULES_MARK_JSON);
		r = fwrite(text, 1, head, fp) == head && fputs(rules, fp) != EOF &&
		    fputs(tail, fp) != EOF ? 0 : -1;
	}
	free(text);
	if (r < 0 || fputc('\n', fp) == EOF) {
		outfile_discard(out);
		return -1;
	}
	return outfile_commit(out);
}

const struct view view_sarif = {
	.name = "sarif",
	.files = "findings.sarif",
	.needs = NEEDS_FINDINGS,
	.finish = sarif_finish,
};
