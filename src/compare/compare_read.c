/* compare_read.c — read one side of --compare, trusting nothing in it:
 * its directory and manifest (runfile.c, manifest_in.c), then the views
 * the manifest says were rendered (traces, abort reasons and sites, bushes
 * from the bush text or the JSON lines, the profile), CSV columns by
 * header name and checked (csvin.c).  A file that is missing, unreadable,
 * not what its name says, or holds a number that is not one, stops the
 * comparison with one message naming the file, the row or line and the
 * column: a gate must never pass over what it could not read. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "luajit/explain.h"
#include "compare/compare_impl.h"
#include "compare/manifest_in.h"
#include "output/message.h"
#include "output/termtext.h"
#include "util/alloc.h"

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}

static int on_trace(void *ctx, const struct csvin *c)
{
	(void)c;
	((struct side *)ctx)->traces++;
	return 0;
}

static void add_raw(struct raw_list *l, const struct csvin *c, enum csvin_col reason,
                    enum csvin_col count, enum csvin_col normal, int with_place)
{
	ALLOC_GROW(l->v, l->n + 1, l->cap);
	l->v[l->n++] = (struct raw_reason){
		.file = with_place ? dup_str(csvin_text(c, CSVIN_SITES_FILE)) : NULL,
		.line = with_place ? (long)csvin_count(c, CSVIN_SITES_LINE) : 0,
		.reason = dup_str(csvin_text(c, reason)),
		.normal = csvin_has(c, normal) ? dup_str(csvin_text(c, normal)) : NULL,
		.fp = with_place && *csvin_text(c, CSVIN_SITES_FINGERPRINT)
		      ? dup_str(csvin_text(c, CSVIN_SITES_FINGERPRINT)) : NULL,
		.count = csvin_count(c, count),
	};
}

/* A column every file of a view has: the first file says, the others
 * can only take it away. */
static void all_have(int *flag, unsigned *files, int has)
{
	*flag = (*files)++ ? *flag && has : has;
}

static int reason_header(void *ctx, const struct csvin *c)
{
	struct side *s = ctx;
	all_have(&s->reasons_normal, &s->reason_files, csvin_has(c, CSVIN_REASONS_NORMAL_REASON));
	return 0;
}

static int on_reason(void *ctx, const struct csvin *c)
{
	struct side *s = ctx;
	if (csvin_add(c, CSVIN_REASONS_COUNT, &s->reason_total) < 0)
		return -1;
	add_raw(&s->raw_reasons, c, CSVIN_REASONS_REASON, CSVIN_REASONS_COUNT,
	        CSVIN_REASONS_NORMAL_REASON, 0);
	return 0;
}

static int site_header(void *ctx, const struct csvin *c)
{
	struct side *s = ctx;
	unsigned files = s->site_files;
	all_have(&s->sites_normal, &files, csvin_has(c, CSVIN_SITES_NORMAL_REASON));
	all_have(&s->sites_fp, &s->site_files, csvin_has(c, CSVIN_SITES_FINGERPRINT));
	return 0;
}

static int on_site(void *ctx, const struct csvin *c)
{
	struct side *s = ctx;
	if (csvin_add(c, CSVIN_SITES_COUNT, &s->site_total) < 0)
		return -1;
	add_raw(&s->raw_sites, c, CSVIN_SITES_REASON, CSVIN_SITES_COUNT, CSVIN_SITES_NORMAL_REASON, 1);
	return 0;
}

static int on_profile(void *ctx, const struct csvin *c)
{
	struct side *s = ctx;
	if (csvin_add_amount(c, CSVIN_PROFILE_SAMPLES, &s->prof_samples) < 0 ||
	    csvin_add_amount(c, CSVIN_PROFILE_INTERPRETED, &s->prof_interpreted) < 0)
		return -1;
	if (csvin_amount(c, CSVIN_PROFILE_INTERPRETED) < 0)
		s->prof_no_states = 1;  /* a profile without the VM's states */
	static const enum csvin_col states[5] = { CSVIN_PROFILE_INTERPRETED, CSVIN_PROFILE_COMPILED,
	                                          CSVIN_PROFILE_C, CSVIN_PROFILE_GC, CSVIN_PROFILE_JIT };
	for (int k = 0; k < 5; k++)
		if (csvin_add_amount(c, states[k], &s->prof_state[k]) < 0)
			return -1;
	const char *file = csvin_text(c, CSVIN_PROFILE_FILE), *line = csvin_text(c, CSVIN_PROFILE_LINE);
	const char *fp = csvin_text(c, CSVIN_PROFILE_FINGERPRINT);
	size_t len = strlen(file) + strlen(line) + 2;
	char *loc = xrealloc(NULL, len);
	snprintf(loc, len, "%s:%s", file, line);
	ALLOC_GROW(s->prof, s->nprof + 1, s->prof_cap);
	s->prof[s->nprof++] = (struct prof_line){ loc, dup_str(file),
		(long)csvin_count(c, CSVIN_PROFILE_LINE), *fp ? dup_str(fp) : NULL,
		csvin_amount(c, CSVIN_PROFILE_SAMPLES) };
	return 0;
}

/* A finding's severity word, as findings.csv writes it. */
static int level_of(const char *w)
{
	return explain_severity_parse(w);
}

/* The kinds made of aborted attempts: a loop, function, start, exit or
 * stitch whose attempts abort, or that LuaJIT gave up on. */
static int abort_kind(const char *k)
{
	return strncmp(k, "aborting-", 9) == 0 || strncmp(k, "blacklisted-", 12) == 0 ||
	       strcmp(k, "given-up-exit") == 0;
}

static int on_finding(void *ctx, const struct csvin *c)
{
	struct side *s = ctx;
	const char *sev = csvin_text(c, CSVIN_FINDINGS_SEVERITY);
	const char *id = csvin_text(c, CSVIN_FINDINGS_IDENTITY);
	int level = level_of(sev);
	if (level < 0 || strncmp(id, "v1|", 3) != 0) {
		char *v = term_text(level < 0 ? sev : id);
		msg_error("%s: row %" PRIu64 ", column %s: '%.40s' is not %s", c->shown, c->row,
		          level < 0 ? "SEVERITY" : "IDENTITY", v,
		          level < 0 ? "costly, worth-a-look or harmless" : "an identity (v1|...)");
		free(v);
		return -1;
	}
	double samples = csvin_amount(c, CSVIN_FINDINGS_SAMPLES);
	if (samples >= 0 && csvin_add_amount(c, CSVIN_FINDINGS_SAMPLES, &s->charged) < 0)
		return -1;
	s->findings_costed |= samples >= 0;
	ALLOC_GROW(s->findings.v, s->findings.n + 1, s->findings.cap);
	s->findings.v[s->findings.n++] = (struct cfinding){
		dup_str(id), dup_str(csvin_text(c, CSVIN_FINDINGS_ID)),
		dup_str(csvin_text(c, CSVIN_FINDINGS_KIND)), dup_str(sev),
		dup_str(csvin_text(c, CSVIN_FINDINGS_REASON)), dup_str(csvin_text(c, CSVIN_FINDINGS_FILE)),
		dup_str(csvin_text(c, CSVIN_FINDINGS_OTHER_REASONS)),
		(long)csvin_count(c, CSVIN_FINDINGS_LINE), (long)csvin_count(c, CSVIN_FINDINGS_END_LINE),
		level, abort_kind(csvin_text(c, CSVIN_FINDINGS_KIND)),
		csvin_count(c, CSVIN_FINDINGS_ATTEMPTS), samples, NULL,
		dup_str(csvin_text(c, CSVIN_FINDINGS_RULE)), dup_str(csvin_text(c, CSVIN_FINDINGS_ADVICE)),
		csvin_count(c, CSVIN_FINDINGS_REASON_ATTEMPTS), 0,
		csvin_has(c, CSVIN_FINDINGS_PATH) ? dup_str(csvin_text(c, CSVIN_FINDINGS_PATH)) : NULL };
	return 0;
}

/* "file:line" -> file and line (0 when the text after the last ':' is
 * not a line number, as in "=[C]"). */
void add_placed(struct placed_list *l, const char *loc, const char *group, uint64_t count)
{
	size_t len = strlen(loc);
	const char *colon = strrchr(loc, ':');
	long line = 0;
	size_t digits = colon ? strspn(colon + 1, "0123456789") : 0;
	if (colon && digits > 0 && digits <= 9 && colon[1 + digits] == '\0')
		line = strtol(colon + 1, NULL, 10);
	else
		colon = loc + len;
	ALLOC_GROW(l->v, l->n + 1, l->cap);
	char *file = xrealloc(NULL, (size_t)(colon - loc) + 1);
	memcpy(file, loc, (size_t)(colon - loc));
	file[colon - loc] = '\0';
	l->v[l->n++] = (struct placed){ file, line, dup_str(group), NULL, count, 0 };
}

/* "---- TRACE N WORD": the text after WORD and a blank, or NULL. */
static const char *trace_header(const char *line, const char *word)
{
	static const char prefix[] = "---- TRACE ";
	if (strncmp(line, prefix, sizeof(prefix) - 1) != 0)
		return NULL;
	const char *p = line + sizeof(prefix) - 1;
	size_t digits = strspn(p, "0123456789");
	size_t wl = strlen(word);
	if (!digits || p[digits] != ' ' || strncmp(p + digits + 1, word, wl) != 0)
		return NULL;
	p += digits + 1 + wl;
	return *p == ' ' ? p + 1 : *p == '\0' ? p : NULL;
}

/* gen-N-bush-ROOT.txt: the root's "---- TRACE N start [P/stitch |P/E ]LOC"
 * line first (P/E: a side trace whose parent the dump lacks, an orphan),
 * and a "stop" header per trace. */
static int read_bush_txt(struct side *s, const char *name)
{
	struct runfile f;
	if (runfile_open(&f, &s->d, name, RUNFILE_MAX, 0) < 0) {
		runfile_close(&f);
		return -1;
	}
	char *loc = NULL;
	const char *kind = NULL;
	uint64_t traces = 0;
	long n;
	int rc = 0;
	while ((n = runfile_line(&f)) >= 0) {
		if (n > 0 && f.buf[n - 1] == '\r')
			f.buf[n - 1] = '\0';
		const char *rest;
		if (!kind) {
			if (!(rest = trace_header(f.buf, "start"))) {
				msg_error("%s: line 1 is not the start of a trace (---- TRACE N start)",
				          f.shown);
				rc = -1;
				break;
			}
			/* P/stitch or P/E before the location: a side trace as root */
			size_t pd = strspn(rest, "0123456789");
			const char *sp = pd && rest[pd] == '/' ? strchr(rest, ' ') : NULL;
			kind = "root";
			if (sp) {
				kind = strncmp(rest + pd + 1, "stitch ", 7) == 0 ? "stitch" : "orphan";
				rest = sp + 1;
			}
			loc = dup_str(rest);
		} else if (trace_header(f.buf, "stop")) {
			traces++;
		}
	}
	if (n == -2)
		rc = -1;
	else if (rc == 0 && !kind) {
		msg_error("%s: empty, not a bush's text", f.shown);
		rc = -1;
	}
	if (rc == 0)
		add_placed(&s->bushes, loc, kind, traces);
	free(loc);
	runfile_close(&f);
	return rc;
}

struct jroot { json_int_t id, dup; char *loc; const char *kind; };

/* One line of gen-N.jsonl: each bush's root trace line ("bush_root" its
 * own id) gives the location and kind, the bush line the traces. */
static int jsonl_line(struct side *s, struct runfile *f, struct jroot **roots, size_t *nroots,
                      size_t *cap)
{
	json_error_t je;
	/* A chunk name may hold a NUL byte (any program can write one into
	 * the dump's stream): the run writes it as \u0000, and a name is
	 * read up to it, on both sides alike. */
	json_t *o = json_loadb(f->buf, strlen(f->buf), JSON_ALLOW_NUL, &je);
	const char *type = json_string_value(json_object_get(o, "type"));
	int rc = 0;
	if (!o || !type) {
		char *why = term_text(o ? "no \"type\"" : je.text);
		msg_error("%s: line %" PRIu64 ": not a JSON object of dumpanalyze's (%s)", f->shown,
		          f->line, why);
		free(why);
		rc = -1;
	} else if (strcmp(type, "trace") == 0) {
		json_t *id = json_object_get(o, "id"), *root = json_object_get(o, "bush_root");
		json_t *dup = json_object_get(o, "bush_dup"), *loc = json_object_get(o, "loc");
		const char *pexit = json_string_value(json_object_get(o, "parent_exit"));
		if (!json_is_integer(id) || !json_is_integer(root) || !json_is_integer(dup) ||
		    !(json_is_string(loc) || json_is_null(loc))) {
			msg_error("%s: line %" PRIu64 ": a trace without \"id\", \"bush_root\", "
			          "\"bush_dup\" or \"loc\"", f->shown, f->line);
			rc = -1;
		} else if (json_is_string(loc) && json_integer_value(root) == json_integer_value(id)) {
			ALLOC_GROW(*roots, *nroots + 1, *cap);
			(*roots)[(*nroots)++] = (struct jroot){
				json_integer_value(id), json_integer_value(dup), dup_str(json_string_value(loc)),
				json_is_true(json_object_get(o, "orphan")) ? "orphan"
				: pexit && strcmp(pexit, "stitch") == 0 ? "stitch" : "root" };
		}
	} else if (strcmp(type, "bush") == 0) {
		json_t *root = json_object_get(o, "root"), *dup = json_object_get(o, "dup");
		json_t *traces = json_object_get(o, "traces");
		size_t i = 0;
		while (i < *nroots && !((*roots)[i].id == json_integer_value(root) &&
		                        (*roots)[i].dup == json_integer_value(dup)))
			i++;
		if (!json_is_integer(root) || !json_is_integer(dup) || !json_is_array(traces)) {
			msg_error("%s: line %" PRIu64 ": a bush without \"root\", \"dup\" or \"traces\"",
			          f->shown, f->line);
			rc = -1;
		} else if (i == *nroots) {
			msg_error("%s: line %" PRIu64 ": the bush of trace %" JSON_INTEGER_FORMAT
			          " before its root's line", f->shown, f->line, json_integer_value(root));
			rc = -1;
		} else {
			add_placed(&s->bushes, (*roots)[i].loc, (*roots)[i].kind, json_array_size(traces));
		}
	}
	json_decref(o);
	return rc;
}

static int read_jsonl(struct side *s, const char *name)
{
	struct runfile f;
	if (runfile_open(&f, &s->d, name, RUNFILE_MAX, 0) < 0) {
		runfile_close(&f);
		return -1;
	}
	struct jroot *roots = NULL;
	size_t nroots = 0, cap = 0;
	long n;
	int rc = 0;
	while (rc == 0 && (n = runfile_line(&f)) >= 0)
		rc = jsonl_line(s, &f, &roots, &nroots, &cap);
	if (rc == 0 && n == -2)
		rc = -1;
	for (size_t i = 0; i < nroots; i++)
		free(roots[i].loc);
	free(roots);
	runfile_close(&f);
	return rc;
}

static int by_samples(const void *x, const void *y)
{
	const struct prof_line *a = x, *b = y;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return strcmp(a->loc, b->loc);
}

/* "gen-N-" or "gen-N.": N (1..10^9, as a run writes it), the rest after
 * the dash or the dot in *rest; 0 when the name is not a generation's. */
static unsigned gen_of(const char *name, const char **rest)
{
	if (strncmp(name, "gen-", 4) != 0)
		return 0;
	const char *p = name + 4;
	size_t digits = strspn(p, "0123456789");
	if (!digits || digits > 9 || p[0] == '0' || (p[digits] != '-' && p[digits] != '.'))
		return 0;
	*rest = p + digits + (p[digits] == '-');
	return (unsigned)strtoul(p, NULL, 10);
}

/* The CSV views read per generation: each file of 1..gens must be there. */
static const struct {
	const char *view;
	enum csvin_kind kind;
	int (*header)(void *, const struct csvin *);
	int (*row)(void *, const struct csvin *);
} per_gen[] = {
	{ "traces", CSVIN_TRACES, NULL, on_trace },
	{ "abort-reasons", CSVIN_REASONS, reason_header, on_reason },
	{ "abort-sites", CSVIN_SITES, site_header, on_site },
};
#define NPER_GEN (sizeof(per_gen) / sizeof(per_gen[0]))

static int has_view(const struct manifest *m, const char *name)
{
	for (size_t i = 0; i < m->nviews; i++)
		if (strcmp(m->views[i], name) == 0)
			return 1;
	return 0;
}

/* A view's file that a rendered view always writes, missing from the
 * manifest: the manifest is not the run's. */
static int unlisted(const struct side *s, const char *view, const char *file)
{
	msg_error("%s/%s: the view %s was rendered but the manifest does not list %s", s->dir,
	          MANIFEST_NAME, view, file);
	return -1;
}

/* The files of the views the manifest says were rendered. */
static int read_files(struct side *s)
{
	unsigned seen[NPER_GEN] = { 0 };
	int use_txt = s->has_bushes == 1;   /* 1: bush-txt, 2: jsonl */
	for (size_t i = 0; i < s->m.nfiles; i++) {
		const char *f = s->m.files[i], *what = NULL;
		unsigned gen = gen_of(f, &what);
		if (!gen)
			continue;
		if (gen > s->gens)
			s->gens = gen;
		size_t wl = strlen(what);
		int r = 0;
		for (size_t k = 0; k < NPER_GEN; k++)
			if (has_view(&s->m, per_gen[k].view) && what[-1] == '-' &&
			    strcmp(what, csvin_name(per_gen[k].kind)) == 0) {
				struct csvin_reader rd = { per_gen[k].header, per_gen[k].row, s };
				r = csvin_read(&s->d, f, per_gen[k].kind, 0, &rd);
				seen[k]++;
			}
		if (use_txt && what[-1] == '-' && strncmp(what, "bush-", 5) == 0 && wl > 4 &&
		    strcmp(what + wl - 4, ".txt") == 0)
			r = read_bush_txt(s, f);
		if (s->has_bushes == 2 && strcmp(what, ".jsonl") == 0)
			r = read_jsonl(s, f);
		if (r < 0)
			return -1;
	}
	/* the manifest's names are unique (manifest_in.c): gens files, each
	 * of a generation 1..gens, are every generation's */
	for (size_t k = 0; k < NPER_GEN; k++)
		if (has_view(&s->m, per_gen[k].view) && seen[k] != s->gens) {
			char name[64];
			unsigned g = 1;
			while (g <= s->gens) {
				snprintf(name, sizeof(name), "gen-%u-%s", g, csvin_name(per_gen[k].kind));
				if (!manifest_has(s->m.files, s->m.nfiles, name))
					break;
				g++;
			}
			return unlisted(s, per_gen[k].view, name);
		}
	/* findings.csv and profile-lines.csv are written at the run's end:
	 * findings.csv once it saw a generation; a run that stopped early
	 * (incomplete) has neither, as if the view was not rendered */
	if (!s->m.complete && !manifest_has(s->m.files, s->m.nfiles, "findings.csv"))
		s->has_findings = 0;
	if (!s->m.complete && !manifest_has(s->m.files, s->m.nfiles, "profile-lines.csv"))
		s->has_profile = 0;
	if (s->has_findings && manifest_has(s->m.files, s->m.nfiles, "findings.csv")) {
		struct csvin_reader rd = { NULL, on_finding, s };
		if (csvin_read(&s->d, "findings.csv", CSVIN_FINDINGS, 0, &rd) < 0)
			return -1;
	} else if (s->has_findings && s->gens) {
		return unlisted(s, "findings", "findings.csv");
	}
	if (s->has_profile) {
		if (!manifest_has(s->m.files, s->m.nfiles, "profile-lines.csv"))
			return unlisted(s, "profile", "profile-lines.csv");
		struct csvin_reader rd = { NULL, on_profile, s };
		if (csvin_read(&s->d, "profile-lines.csv", CSVIN_PROFILE, 0, &rd) < 0)
			return -1;
		if (s->nprof > 1)
			qsort(s->prof, s->nprof, sizeof(*s->prof), by_samples);
	}
	placed_sort(&s->bushes);
	return 0;
}

int side_read(struct side *s, const struct runfile_dir *parent, const char *path, const char *label)
{
	memset(s, 0, sizeof(*s));
	s->label = label;
	int r = runfile_dir_open(&s->d, parent, path);
	s->dir = s->d.shown;
	if (r > 0)
		msg_error("cannot read %s: %s", s->dir, strerror(ENOENT));
	if (r != 0)
		return -1;
	r = manifest_in_read(&s->d, &s->m);
	if (r != 0)
		return r;
	struct manifest *m = &s->m;
	s->has_traces = has_view(m, "traces");
	s->has_reasons = has_view(m, "abort-reasons");
	s->has_sites = has_view(m, "abort-sites");
	s->has_bushes = has_view(m, "bush-txt") ? 1
	              : has_view(m, "jsonl") ? 2 : 0;
	s->has_profile = has_view(m, "profile");
	s->has_time = has_view(m, "sysprof");
	s->has_findings = has_view(m, "findings");
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

void side_finish(struct side *s, int reasons_normal, int sites_normal, int sites_fp)
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
		/* with FINGERPRINT on both sides, a site's line is known by
		 * its text */
		all.v[all.n++] = (struct placed){ dup_str(r->file), r->line, dup_str(g),
		                                  sites_fp && r->fp ? dup_str(r->fp) : NULL, r->count, 0 };
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
			if (!last->text) {
				last->text = p->text;
				p->text = NULL;
			}
			free(p->file);
			free(p->group);
			free(p->text);
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
		free(l->v[i].text);
	}
	free(l->v);
}

static void raw_free(struct raw_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].file);
		free(l->v[i].reason);
		free(l->v[i].normal);
		free(l->v[i].fp);
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
	for (size_t i = 0; i < s->nprof; i++) {
		free(s->prof[i].loc);
		free(s->prof[i].file);
		free(s->prof[i].fp);
	}
	free(s->prof);
	for (size_t i = 0; i < s->findings.n; i++) {
		struct cfinding *f = &s->findings.v[i];
		free(f->identity);
		free(f->id);
		free(f->kind);
		free(f->severity);
		free(f->reason);
		free(f->file);
		free(f->others);
		free(f->rule);
		free(f->advice);
		free(f->path);
	}
	free(s->findings.v);
	runfile_dir_free(&s->d);
	memset(s, 0, sizeof(*s));
}
