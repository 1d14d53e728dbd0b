/* compare_read.c — read one side of --compare: its manifest, then the
 * views it rendered (traces, abort reasons and sites, bushes from the
 * bush text or the JSON lines, the profile), columns by header name. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "analysis/explain.h"
#include "cli/compare_impl.h"
#include "output/message.h"
#include "util/alloc.h"

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}

static void on_trace(void *ctx, const struct csvin_header *h, char **f, size_t n)
{
	(void)h;
	(void)f;
	if (n)
		((struct side *)ctx)->traces++;
}

static void add_raw(struct raw_list *l, const struct csvin_header *h, char **f, size_t n,
                    int with_place)
{
	const char *reason = csvin_field(h, f, n, "REASON"), *count = csvin_field(h, f, n, "COUNT");
	if (!reason || !count)
		return;
	const char *normal = csvin_field(h, f, n, "NORMAL_REASON");
	const char *source = csvin_field(h, f, n, "SOURCE");
	const char *file = with_place ? csvin_field(h, f, n, "FILE") : NULL;
	const char *line = with_place ? csvin_field(h, f, n, "LINE") : NULL;
	if (with_place && (!file || !line))
		return;
	ALLOC_GROW(l->v, l->n + 1, l->cap);
	l->v[l->n++] = (struct raw_reason){
		.file = file ? dup_str(file) : NULL,
		.line = line ? strtol(line, NULL, 10) : 0,
		.reason = dup_str(reason),
		.normal = normal ? dup_str(normal) : NULL,
		.source = source ? dup_str(source) : NULL,
		.count = strtoull(count, NULL, 10),
	};
}

static void on_reason(void *ctx, const struct csvin_header *h, char **f, size_t n)
{
	struct side *s = ctx;
	s->reasons_normal = csvin_col(h, "NORMAL_REASON") >= 0;
	add_raw(&s->raw_reasons, h, f, n, 0);
}

static void on_site(void *ctx, const struct csvin_header *h, char **f, size_t n)
{
	struct side *s = ctx;
	s->sites_normal = csvin_col(h, "NORMAL_REASON") >= 0;
	s->sites_source = csvin_col(h, "SOURCE") >= 0;
	add_raw(&s->raw_sites, h, f, n, 1);
}

static void on_profile(void *ctx, const struct csvin_header *h, char **f, size_t n)
{
	struct side *s = ctx;
	const char *file = csvin_field(h, f, n, "FILE"), *line = csvin_field(h, f, n, "LINE");
	const char *samples = csvin_field(h, f, n, "SAMPLES");
	const char *interp = csvin_field(h, f, n, "INTERPRETED");
	if (!file || !line || !samples || !interp)
		return;
	double v = strtod(samples, NULL);
	s->prof_samples += v;
	s->prof_interpreted += strtod(interp, NULL);
	size_t len = strlen(file) + strlen(line) + 2;
	char *loc = xrealloc(NULL, len);
	snprintf(loc, len, "%s:%s", file, line);
	ALLOC_GROW(s->prof, s->nprof + 1, s->prof_cap);
	s->prof[s->nprof++] = (struct profile_line){ loc, v };
}

/* "file:line" -> file and line (0 when the text after the last ':' is
 * not a number, as in "=[C]"). */
void add_placed(struct placed_list *l, const char *loc, size_t len, const char *group,
                uint64_t count)
{
	const char *colon = NULL;
	for (size_t i = 0; i < len; i++)
		if (loc[i] == ':')
			colon = loc + i;
	char *end = NULL;
	long line = colon ? strtol(colon + 1, &end, 10) : 0;
	if (!colon || end == colon + 1 || (size_t)(end - loc) != len) {
		colon = loc + len;
		line = 0;
	}
	ALLOC_GROW(l->v, l->n + 1, l->cap);
	char *file = xrealloc(NULL, (size_t)(colon - loc) + 1);
	memcpy(file, loc, (size_t)(colon - loc));
	file[colon - loc] = '\0';
	l->v[l->n++] = (struct placed){ file, line, dup_str(group), NULL, count };
}

/* gen-N-bush-ROOT.txt: the root's "---- TRACE N start [P/stitch |P/E ]LOC"
 * line first (P/E: a side trace whose parent the dump lacks, an orphan),
 * and a "stop" header per trace. */
static int read_bush_txt(struct side *s, const char *path)
{
	FILE *fp = fopen(path, "r");
	if (!fp) {
		msg_error("%s: %s", path, strerror(errno));
		return -1;
	}
	char line[4096], loc[4096] = "";
	const char *kind = NULL;
	uint64_t traces = 0;
	while (fgets(line, sizeof(line), fp)) {
		unsigned id, parent;
		int at = 0;
		char word[8], how[16];
		line[strcspn(line, "\r\n")] = '\0';
		if (!kind && sscanf(line, "---- TRACE %u start %n", &id, &at) == 1 && at > 0) {
			const char *rest = line + at;
			int skip = 0;
			if (sscanf(rest, "%u/%15[a-z0-9] %n", &parent, how, &skip) == 2 && skip > 0) {
				kind = strcmp(how, "stitch") == 0 ? "stitch" : "orphan";
				rest += skip;
			} else {
				kind = "root";
			}
			snprintf(loc, sizeof(loc), "%s", rest);
		} else if (sscanf(line, "---- TRACE %u %7s", &id, word) == 2 && strcmp(word, "stop") == 0) {
			traces++;
		}
	}
	fclose(fp);
	if (kind)
		add_placed(&s->bushes, loc, strlen(loc), kind, traces);
	return 0;
}

struct jroot { json_int_t id, dup; char *loc; const char *kind; };

/* gen-N.jsonl: each bush's root trace line ("bush_root" its own id) gives
 * the location and kind, the bush line the traces. */
static int read_jsonl(struct side *s, const char *path)
{
	FILE *fp = fopen(path, "r");
	if (!fp) {
		msg_error("%s: %s", path, strerror(errno));
		return -1;
	}
	struct jroot *roots = NULL;
	size_t nroots = 0, cap = 0;
	char *line = NULL;
	size_t lcap = 0;
	while (getline(&line, &lcap, fp) > 0) {
		json_t *o = json_loads(line, 0, NULL);
		const char *type = json_string_value(json_object_get(o, "type"));
		if (type && strcmp(type, "trace") == 0) {
			json_int_t id = json_integer_value(json_object_get(o, "id"));
			const char *loc = json_string_value(json_object_get(o, "loc"));
			const char *pexit = json_string_value(json_object_get(o, "parent_exit"));
			if (loc && json_integer_value(json_object_get(o, "bush_root")) == id) {
				ALLOC_GROW(roots, nroots + 1, cap);
				roots[nroots++] = (struct jroot){
					id, json_integer_value(json_object_get(o, "bush_dup")), dup_str(loc),
					json_is_true(json_object_get(o, "orphan")) ? "orphan"
					: pexit && strcmp(pexit, "stitch") == 0 ? "stitch" : "root" };
			}
		} else if (type && strcmp(type, "bush") == 0) {
			json_int_t root = json_integer_value(json_object_get(o, "root"));
			json_int_t dup = json_integer_value(json_object_get(o, "dup"));
			for (size_t i = 0; i < nroots; i++)
				if (roots[i].id == root && roots[i].dup == dup) {
					add_placed(&s->bushes, roots[i].loc, strlen(roots[i].loc), roots[i].kind,
					           json_array_size(json_object_get(o, "traces")));
					break;
				}
		}
		json_decref(o);
	}
	free(line);
	for (size_t i = 0; i < nroots; i++)
		free(roots[i].loc);
	free(roots);
	fclose(fp);
	return 0;
}

static int by_samples(const void *x, const void *y)
{
	const struct profile_line *a = x, *b = y;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return strcmp(a->loc, b->loc);
}

/* The files of the views the manifest says were rendered. */
static int read_files(struct side *s)
{
	char path[4096];
	int use_txt = s->has_bushes == 1;   /* 1: bush-txt, 2: jsonl */
	for (size_t i = 0; i < s->m.nfiles; i++) {
		const char *f = s->m.files[i];
		unsigned gen;
		int end = 0;
		if (sscanf(f, "gen-%u-%n", &gen, &end) != 1 || end == 0)
			continue;
		if (gen > s->gens)
			s->gens = gen;
		const char *what = f + end;
		size_t wl = strlen(what);
		int r = 0;
		snprintf(path, sizeof(path), "%s/%s", s->dir, f);
		if (s->has_traces && strcmp(what, "traces.csv") == 0)
			r = csvin_read_named(path, on_trace, s);
		else if (s->has_reasons && strcmp(what, "abort-reasons.csv") == 0)
			r = csvin_read_named(path, on_reason, s);
		else if (s->has_sites && strcmp(what, "abort-sites.csv") == 0)
			r = csvin_read_named(path, on_site, s);
		else if (use_txt && strncmp(what, "bush-", 5) == 0 && wl > 4 &&
		         strcmp(what + wl - 4, ".txt") == 0)
			r = read_bush_txt(s, path);
		if (r < 0)
			return -1;
	}
	if (s->has_bushes == 2)
		for (size_t i = 0; i < s->m.nfiles; i++) {
			unsigned gen;
			int end = 0;
			if (sscanf(s->m.files[i], "gen-%u.jsonl%n", &gen, &end) == 1 &&
			    s->m.files[i][end] == '\0' && end > 0) {
				snprintf(path, sizeof(path), "%s/%s", s->dir, s->m.files[i]);
				if (read_jsonl(s, path) < 0)
					return -1;
			}
		}
	if (s->has_profile) {
		snprintf(path, sizeof(path), "%s/profile-lines.csv", s->dir);
		if (csvin_read_named(path, on_profile, s) < 0)
			return -1;
		if (s->nprof > 1)
			qsort(s->prof, s->nprof, sizeof(*s->prof), by_samples);
	}
	placed_sort(&s->bushes);
	return 0;
}

static int has_view(const struct manifest *m, const char *name)
{
	for (size_t i = 0; i < m->nviews; i++)
		if (strcmp(m->views[i], name) == 0)
			return 1;
	return 0;
}

int side_read(struct side *s, const char *dir, const char *label)
{
	memset(s, 0, sizeof(*s));
	s->dir = dir;
	s->label = label;
	char err[512] = "";
	int r = manifest_read(dir, &s->m, err, sizeof(err));
	if (r == 1)
		return 1;
	if (r < 0) {
		msg_error("%s: %s", dir, err);
		return -1;
	}
	struct manifest *m = &s->m;
	s->has_traces = has_view(m, "traces");
	s->has_reasons = has_view(m, "abort-reasons");
	s->has_sites = has_view(m, "abort-sites");
	s->has_bushes = has_view(m, "bush-txt") ? 1
	              : has_view(m, "jsonl") ? 2 : 0;
	s->has_profile = has_view(m, "profile");
	s->has_time = has_view(m, "sysprof");
	return read_files(s);
}

/* The reason's normal form, in buf. */
static const char *normal_form(const struct raw_reason *r, int use_normal, char *buf, size_t cap)
{
	if (use_normal && r->normal)
		return r->normal;
	size_t len = strlen(r->reason);
	if (len + EXPLAIN_NORMAL_EXTRA + 1 > cap)
		return r->reason;
	explain_normalise(r->reason, len, EXPLAIN_FLAVOUR_UNKNOWN, NULL, buf, cap, NULL);
	return buf;
}

void side_finish(struct side *s, int reasons_normal, int sites_normal, int sites_source)
{
	char buf[1024];
	uint64_t site_aborts = 0;
	/* abort-reasons.csv without NORMAL_REASON but sites with it on both
	 * sides: the sites' normal reasons are the better names (they know
	 * the bytecode numbering), and count the same aborts */
	int from_sites = !reasons_normal && sites_normal && s->has_sites;
	for (size_t i = 0; i < s->raw_reasons.n; i++) {
		const struct raw_reason *r = &s->raw_reasons.v[i];
		if (!from_sites)
			named_add(&s->reasons, normal_form(r, reasons_normal, buf, sizeof(buf)), r->count);
		s->aborts += r->count;
	}
	for (size_t i = 0; from_sites && i < s->raw_sites.n; i++)
		named_add(&s->reasons, normal_form(&s->raw_sites.v[i], 1, buf, sizeof(buf)),
		          s->raw_sites.v[i].count);
	struct placed_list all = { 0 };
	for (size_t i = 0; i < s->raw_sites.n; i++) {
		const struct raw_reason *r = &s->raw_sites.v[i];
		const char *g = normal_form(r, sites_normal, buf, sizeof(buf));
		ALLOC_GROW(all.v, all.n + 1, all.cap);
		/* with SOURCE on both sides, the line's text is part of the
		 * identity; the reason stays the group's first line */
		size_t len = strlen(g) + (sites_source && r->source ? strlen(r->source) + 1 : 0) + 1;
		char *group = xrealloc(NULL, len);
		if (sites_source && r->source)
			snprintf(group, len, "%s\n%s", g, r->source);
		else
			snprintf(group, len, "%s", g);
		all.v[all.n++] = (struct placed){ dup_str(r->file), r->line, group, NULL, r->count };
		site_aborts += r->count;
	}
	placed_sort(&all);
	/* rows of one FILE:LINE and reason (other starts, other
	 * generations) make one site */
	for (size_t i = 0; i < all.n; i++) {
		struct placed *p = &all.v[i], *last = s->sites.n ? &s->sites.v[s->sites.n - 1] : NULL;
		if (last && strcmp(last->file, p->file) == 0 && last->line == p->line &&
		    strcmp(last->group, p->group) == 0) {
			last->count += p->count;
			free(p->file);
			free(p->group);
			continue;
		}
		ALLOC_GROW(s->sites.v, s->sites.n + 1, s->sites.cap);
		s->sites.v[s->sites.n++] = *p;
	}
	free(all.v);
	if (!s->has_reasons && s->has_sites)
		s->aborts = site_aborts;
}

void placed_free(struct placed_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].file);
		free(l->v[i].group);
		free(l->v[i].extra);
	}
	free(l->v);
}

static void raw_free(struct raw_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].file);
		free(l->v[i].reason);
		free(l->v[i].normal);
		free(l->v[i].source);
	}
	free(l->v);
}

void side_free(struct side *s)
{
	manifest_free(&s->m);
	raw_free(&s->raw_reasons);
	raw_free(&s->raw_sites);
	named_free(&s->reasons);
	placed_free(&s->sites);
	placed_free(&s->bushes);
	placed_free(&s->time_bushes);
	for (size_t i = 0; i < s->nprof; i++)
		free(s->prof[i].loc);
	free(s->prof);
	memset(s, 0, sizeof(*s));
}
