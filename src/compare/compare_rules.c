/* compare_rules.c — the --fail-on rules of --compare: parsed, and
 * evaluated on one dump's two sides.  Each rule's arithmetic is the man
 * page's (COMPARE); every rule leaves out what a --baseline accepts, and
 * a rule whose inputs one side lacks cannot be evaluated (exit 2), never
 * passes. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "compare/compare_impl.h"
#include "output/message.h"
#include "util/alloc.h"
#include "luajit/recipe.h"

#define RULES_LIST "recommended, new-sites[:all][>=N], new-reasons[:all][>=N], aborts+N, aborts+N%%, " \
	"traces-N%%, interpreted+P, cost+P"

/* Digits: 0 and the value, or -1. */
static int number(const char *s, unsigned long *v)
{
	size_t n = strspn(s, "0123456789");
	if (!n || n > 9 || s[n])
		return -1;
	*v = strtoul(s, NULL, 10);
	return 0;
}

/* Points: digits with an optional fraction (2, 0.5). */
static int points(const char *s, double *v)
{
	size_t n = strspn(s, "0123456789");
	if (!n || n > 6)
		return -1;
	if (s[n] == '.') {
		size_t f = strspn(s + n + 1, "0123456789");
		if (!f || f > 6)
			return -1;
		n += 1 + f;
	}
	if (s[n])
		return -1;
	*v = strtod(s, NULL);       /* digits and a point: no locale in it */
	return 0;
}

/* "new-sites", "new-sites:all", "new-sites>=3", "new-sites:all>=3":
 * N in *n, or in *n_all for ":all". */
static int fresh_rule(const char *tok, const char *name, unsigned *n, unsigned *n_all)
{
	size_t l = strlen(name);
	if (strncmp(tok, name, l) != 0)
		return 0;
	const char *p = tok + l;
	int a = 0;
	unsigned long v = 1;
	if (strncmp(p, ":all", 4) == 0) {
		a = 1;
		p += 4;
	}
	if (strncmp(p, ">=", 2) == 0) {
		if (number(p + 2, &v) < 0 || v == 0)
			return -1;
		p += strlen(p);
	}
	if (*p)
		return -1;
	*(a ? n_all : n) = (unsigned)v;
	return 1;
}

int rules_parse(const char *s, struct rules *r)
{
	*r = (struct rules){ -1, -1, -1, 0, 0, 0, 0, -1, -1 };
	if (!s)
		return 0;
	char *copy = xrealloc(NULL, strlen(s) + 1);
	strcpy(copy, s);
	int ok = 1;
	for (char *tok = strtok(copy, ","); tok && ok; tok = strtok(NULL, ",")) {
		size_t n = strlen(tok);
		char *shown = xrealloc(NULL, n + 1);
		memcpy(shown, tok, n + 1);
		unsigned long v = 0;
		int k;
		if (strcmp(tok, "recommended") == 0) {
			/* one run a side: what README recommended before run sets */
			r->new_sites = r->new_reasons = 1;
		} else if ((k = fresh_rule(tok, "new-reasons", &r->new_reasons, &r->new_reasons_all)) ||
		    (k = fresh_rule(tok, "new-sites", &r->new_sites, &r->new_sites_all))) {
			ok = k > 0;
		} else if (strncmp(tok, "aborts+", 7) == 0 && n > 8 && tok[n - 1] == '%') {
			tok[n - 1] = '\0';
			ok = number(tok + 7, &v) == 0;
			r->aborts_pct = (int)v;
		} else if (strncmp(tok, "aborts+", 7) == 0) {
			ok = number(tok + 7, &v) == 0;
			r->aborts_abs = (int)v;
		} else if (strncmp(tok, "traces-", 7) == 0 && n > 8 && tok[n - 1] == '%') {
			tok[n - 1] = '\0';
			ok = number(tok + 7, &v) == 0;
			r->traces_pct = (int)v;
		} else if (strncmp(tok, "interpreted+", 12) == 0) {
			ok = points(tok + 12, &r->interpreted) == 0;
		} else if (strncmp(tok, "cost+", 5) == 0) {
			ok = points(tok + 5, &r->cost) == 0;
		} else {
			ok = 0;
		}
		if (!ok)
			msg_error("unknown --fail-on rule '%s' (rules: " RULES_LIST ")", shown);
		free(shown);
	}
	free(copy);
	return ok ? 0 : -1;
}

int rules_any(const struct rules *r)
{
	return r->aborts_pct >= 0 || r->aborts_abs >= 0 || r->traces_pct >= 0 || r->new_reasons ||
	       r->new_sites || r->new_reasons_all || r->new_sites_all || r->interpreted >= 0 ||
	       r->cost >= 0;
}

static void fail(struct rep *r, const char *fmt, ...) DA_PRINTF(2, 3);
static void fail(struct rep *r, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	cmp_say(r, "FAIL: %s\n", cmp_text(r, buf));
	json_array_append_new(r->fail, json_string(buf));
	r->tripped = 1;
}

/* A rule that needs a view one side lacks cannot be evaluated: a gate
 * that cannot tell must not pass. */
static int needs(struct rep *r, const char *rule, int ok, const char *view)
{
	if (!ok) {
		msg_error("cannot evaluate --fail-on %s: %s was not rendered on both sides", rule, view);
		r->cannot = 1;
	}
	return ok;
}

/* What a baseline accepted on a side: attempts and charged samples. */
static void accepted(const struct side *s, uint64_t *attempts, double *samples)
{
	*attempts = 0;
	*samples = 0;
	for (size_t i = 0; i < s->findings.n; i++)
		if (s->findings.v[i].accepted) {
			*attempts += s->findings.v[i].attempts;
			if (s->findings.v[i].samples > 0)
				*samples += s->findings.v[i].samples;
		}
}

struct counts {
	uint64_t aborts;            /* aborts less the baselined findings' attempts */
	double interpreted, charged;    /* shares, percent, less the baselined */
};

static void counts_of(const struct side *s, struct counts *c)
{
	uint64_t att;
	double smp;
	accepted(s, &att, &smp);
	c->aborts = s->aborts > att ? s->aborts - att : 0;
	double total = s->prof_samples;
	double in = s->prof_interpreted - smp, ch = s->charged - smp;
	c->interpreted = total > 0 && in > 0 ? 100.0 * in / total : 0;
	c->charged = total > 0 && ch > 0 ? 100.0 * ch / total : 0;
}

/* "a; b; c" with at most five, then "and N more". */
static void names(char *buf, size_t cap, const struct fresh *f, int all)
{
	size_t k = 0, shown = 0, total = f->counted + (all ? f->harmless : 0);
	buf[0] = '\0';
	for (int part = 0; part < (all ? 2 : 1); part++) {
		const char *s = part ? f->harmless_names : f->names;
		while (s && *s && shown < 5) {
			size_t n = strcspn(s, "\x1f");
			int w = snprintf(buf + k, cap - k, "%s%.*s", shown ? "; " : "", (int)n, s);
			if (w < 0 || (size_t)w >= cap - k)
				return;
			k += (size_t)w;
			shown++;
			s += n + (s[n] != '\0');
		}
	}
	if (total > shown)
		snprintf(buf + k, cap - k, "; and %zu more", total - shown);
}

/* 1 when the rule failed. */
static int fresh_fail(struct rep *r, const char *rule, unsigned at_least, int all,
                      const struct fresh *f, const char *what)
{
	size_t n = f->counted + (all ? f->harmless : 0);
	if (n < at_least)
		return 0;
	char list[1536], name[64];
	names(list, sizeof(list), f, all);
	snprintf(name, sizeof(name), "%s%s", rule, all ? ":all" : "");
	if (at_least > 1)
		snprintf(name + strlen(name), sizeof(name) - strlen(name), ">=%u", at_least);
	fail(r, "%s: %zu new %s%s%s: %s", name, n, what, n == 1 ? "" : "s",
	     all ? "" : " (costly or worth a look)", list);
	return 1;
}

void rules_apply(struct rep *r, const struct rules *ru, const struct side *a, const struct side *b,
                 struct found *fd, int baseline)
{
	int findings = a->has_findings && b->has_findings;
	if (baseline && rules_any(ru) && !findings) {
		msg_error("cannot apply --baseline to the --fail-on rules: findings was not rendered "
		          "on both sides");
		r->cannot = 1;
		return;
	}
	struct counts ca, cb;
	counts_of(a, &ca);
	counts_of(b, &cb);
	int aborts = (a->has_reasons || a->has_sites) && (b->has_reasons || b->has_sites);
	if (ru->aborts_pct >= 0 && needs(r, "aborts+N%", aborts, "abort-reasons")) {
		double up = ca.aborts ? 100.0 * ((double)cb.aborts - (double)ca.aborts) / (double)ca.aborts
		                      : (cb.aborts ? 1e9 : 0);
		if (up > ru->aborts_pct)
			fail(r, "aborts+%d%%: aborts grew by more than %d%%: %" PRIu64 " -> %" PRIu64,
			     ru->aborts_pct, ru->aborts_pct, ca.aborts, cb.aborts);
	}
	if (ru->aborts_abs >= 0 && needs(r, "aborts+N", aborts, "abort-reasons") &&
	    cb.aborts > ca.aborts + (uint64_t)ru->aborts_abs)
		fail(r, "aborts+%d: aborts grew by more than %d: %" PRIu64 " -> %" PRIu64,
		     ru->aborts_abs, ru->aborts_abs, ca.aborts, cb.aborts);
	if (ru->traces_pct >= 0 && needs(r, "traces-N%", a->has_traces && b->has_traces, "traces")) {
		double down = a->traces ? 100.0 * ((double)a->traces - (double)b->traces) / (double)a->traces : 0;
		if (down > ru->traces_pct)
			fail(r, "traces-%d%%: compiled traces dropped by more than %d%%: %" PRIu64 " -> %"
			     PRIu64, ru->traces_pct, ru->traces_pct, a->traces, b->traces);
	}
	int reasons = a->has_reasons && b->has_reasons;
	for (int all = 0; all < 2; all++) {
		unsigned nr = all ? ru->new_reasons_all : ru->new_reasons;
		unsigned ns = all ? ru->new_sites_all : ru->new_sites;
		if (nr && needs(r, all ? "new-reasons:all" : "new-reasons", reasons, "abort-reasons") &&
		    fresh_fail(r, "new-reasons", nr, all, &fd->reasons, "abort reason"))
			*(all ? &fd->crossed_reasons_all : &fd->crossed_reasons) = 1;
		if (ns && needs(r, all ? "new-sites:all" : "new-sites", findings, "findings") &&
		    fresh_fail(r, "new-sites", ns, all, &fd->sites, "abort site"))
			*(all ? &fd->crossed_sites_all : &fd->crossed_sites) = 1;
	}
	int profiles = a->has_profile && b->has_profile;
	if (ru->interpreted >= 0 && needs(r, "interpreted+P", profiles, "profile")) {
		if (a->prof_no_states || b->prof_no_states) {
			msg_error("cannot evaluate --fail-on interpreted+P: the profile of %s has no VM "
			          "states (record it with " RECIPE_JP ")", a->prof_no_states ? "OLD" : "NEW");
			r->cannot = 1;
		} else if (cb.interpreted - ca.interpreted > ru->interpreted) {
			fail(r, "interpreted+%g: the interpreted share grew by more than %g points: "
			     "%.1f%% -> %.1f%%", ru->interpreted, ru->interpreted, ca.interpreted,
			     cb.interpreted);
		}
	}
	if (ru->cost >= 0 && needs(r, "cost+P", profiles, "profile") &&
	    needs(r, "cost+P", findings, "findings") && cb.charged - ca.charged > ru->cost)
		fail(r, "cost+%g: the share charged to findings grew by more than %g points: "
		     "%.1f%% -> %.1f%%", ru->cost, ru->cost, ca.charged, cb.charged);
}
