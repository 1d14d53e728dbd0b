/* sarif_rules.c — findings.sarif's rules: one reportingDescriptor per
 * entry of the findings' catalogue (the run-level kinds of kinds.def,
 * every trace error of traceerr.def, the NYI bytecodes of bytecodes.def,
 * the rule of an unknown message), sorted by id, whatever the run found:
 * id, name, the short and full description and the help from the
 * catalogue's text, the default level from its severity. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "views/sarif.h"
#include "luajit/explain.h"
#include "findings/findings.h"
#include "output/json.h"
#include "util/alloc.h"

struct entry {
	const struct explain_rule *rule;
	const char *shortd;         /* one sentence */
	const char *more;           /* the full description's first part, or NULL */
	const char *fix;            /* what usually helps, or NULL */
	const char *message;        /* LuaJIT's message, or NULL */
	const char *bytecode;       /* an NYI bytecode's name, or NULL */
};

static int by_id(const void *x, const void *y)
{
	return strcmp(((const struct entry *)x)->rule->id, ((const struct entry *)y)->rule->id);
}

/* The catalogue's entries, sorted by id (*n of them; malloc'd). */
static struct entry *catalogue(size_t *n)
{
	size_t nk, ne, nb;
	const struct finding_kind *kinds = findings_kinds(&nk);
	const struct explain_err *errs = explain_errs(&ne);
	const char *const *names;
	const struct explain_rule *bcr = explain_bc_rules(&nb, &names);
	struct entry *v = xrealloc(NULL, (nk + ne + nb + 1) * sizeof(*v));
	size_t k = 0;
	for (size_t i = 0; i < nk; i++)
		if (kinds[i].rule.id)
			v[k++] = (struct entry){ &kinds[i].rule, kinds[i].title, NULL, NULL, NULL, NULL };
	for (size_t i = 0; i < ne; i++)
		v[k++] = (struct entry){ &errs[i].rule, errs[i].meaning, NULL, errs[i].fix,
		                         errs[i].pattern, NULL };
	for (size_t i = 0; i < nb; i++) {
		const struct explain_bc *bc = explain_bc_named(names[i], strlen(names[i]));
		v[k++] = (struct entry){ &bcr[i], NULL, bc ? bc->meaning : NULL, NULL, NULL, names[i] };
	}
	v[k++] = (struct entry){ findings_unknown_rule(),
	                         "The attempts ended with a message LuaJIT does not list.",
	                         NULL, NULL, NULL, NULL };
	qsort(v, k, sizeof(*v), by_id);
	*n = k;
	return v;
}

/* The advice's placeholders as the words the help explains: a rule's
 * help names no finding (each result's message does). */
static const struct { const char *key, *word, *legend; } words[] = {
	{ "{start}", "START", "START is the loop or function where the attempts start (of an exit's or "
	  "stitch's, the one around AT)" },
	{ "{scope}", "loop or function", NULL },
	{ "{at}", "AT", "AT the line that failed" },
	{ "{cause}", "CAUSE", "CAUSE the code the dump names as the cause" },
	{ "{closure}", "the closure at CAUSE", "CAUSE the closure the function around AT creates (from the source)" },
	{ "{n}", "N", "N the count" },
	{ "{try}", "VALUE", "VALUE a larger limit" },
};
#define NWORDS (sizeof(words) / sizeof(words[0]))

static void fill(char **s, size_t *len, size_t *cap, const char *tpl, unsigned *used)
{
	for (const char *p = tpl; *p;) {
		/* the text up to the next placeholder in one piece: a rule's
		 * text is copied for every run (bench/RESULTS.md) */
		const char *w = NULL;
		size_t skip = strcspn(p, "{"), add = skip;
		for (size_t i = 0; i < NWORDS && !skip && !w; i++)
			if (strncmp(p, words[i].key, strlen(words[i].key)) == 0) {
				w = words[i].word;
				skip = strlen(words[i].key);
				add = strlen(w);
				*used |= 1u << i;
			}
		if (!skip)              /* a brace of no placeholder */
			skip = add = 1;
		ALLOC_GROW(*s, *len + add + 1, *cap);
		memcpy(*s + *len, w ? w : p, add);
		*len += add;
		(*s)[*len] = '\0';
		p += skip;
	}
}

static void add(char **s, size_t *len, size_t *cap, const char *text)
{
	size_t n = strlen(text);
	ALLOC_GROW(*s, *len + n + 1, *cap);
	memcpy(*s + *len, text, n + 1);
	*len += n;
}

static json_t *text_of(const char *s)
{
	json_t *o = json_object();
	json_object_set_new(o, "text", json_text(s, strlen(s)));
	return o;
}

/* The catalogue's name as SARIF's friendly name, a Pascal-case
 * identifier (each word capitalised, joined; a word of one letter joins
 * the next uncapitalised, as the validator wants no two capitals in a
 * row): "closure-in-loop" -> "ClosureInLoop", "c-function-2.0" ->
 * "Cfunction20". */
static json_t *pascal(const char *name)
{
	char buf[128];
	size_t k = 0, word = 0;     /* the letters of the word so far */
	int up = 1;
	for (const char *p = name; *p && k < sizeof(buf) - 1; p++) {
		int alnum = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9');
		if (!alnum) {
			up = word != 1;
			word = 0;
			continue;
		}
		buf[k++] = up && *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p;
		up = 0;
		word++;
	}
	buf[k] = '\0';
	return json_string(buf);
}

static json_t *descriptor(const struct entry *e)
{
	const struct explain_rule *r = e->rule;
	char *s = NULL;
	size_t len = 0, cap = 0;
	json_t *o = json_object();
	json_object_set_new(o, "id", json_string(r->id));
	json_object_set_new(o, "name", pascal(r->name));
	if (e->bytecode) {
		add(&s, &len, &cap, "The recorder cannot compile the bytecode ");
		add(&s, &len, &cap, e->bytecode);
		if (e->more) {
			add(&s, &len, &cap, " (");
			add(&s, &len, &cap, e->more);
			add(&s, &len, &cap, ")");
		}
		add(&s, &len, &cap, " and aborts with \"NYI: bytecode\".");
	} else {
		add(&s, &len, &cap, e->shortd);
	}
	json_object_set_new(o, "shortDescription", text_of(s));
	if (e->message) {
		add(&s, &len, &cap, " LuaJIT's message: \"");
		add(&s, &len, &cap, e->message);
		add(&s, &len, &cap, "\".");
	}
	add(&s, &len, &cap, " ");
	const char *sev = explain_severity_text(r->severity);
	char first[2] = { sev[0] >= 'a' && sev[0] <= 'z' ? (char)(sev[0] - 'a' + 'A') : sev[0], 0 };
	add(&s, &len, &cap, first);
	add(&s, &len, &cap, sev + 1);
	add(&s, &len, &cap, ": ");
	add(&s, &len, &cap, r->why);
	json_object_set_new(o, "fullDescription", text_of(s));
	len = 0;
	s[0] = '\0';
	unsigned used = 0;
	const char *a21 = r->advice21, *a20 = r->advice20;
	if (a21 && a20 && strcmp(a20, a21) != 0) {
		add(&s, &len, &cap, "LuaJIT 2.1 and luajit2: ");
		fill(&s, &len, &cap, a21, &used);
		add(&s, &len, &cap, " LuaJIT 2.0: ");
		fill(&s, &len, &cap, a20, &used);
	} else if (a21 || a20) {
		if (!a21)
			add(&s, &len, &cap, "LuaJIT 2.0: ");
		fill(&s, &len, &cap, a21 ? a21 : a20, &used);
	}
	if (e->fix) {
		add(&s, &len, &cap, len ? " " : "");
		add(&s, &len, &cap, e->fix);
	}
	/* what the placeholders stand for, after the text */
	const char *sep = " (";
	for (size_t i = 0; i < NWORDS; i++)
		if ((used & (1u << i)) && words[i].legend) {
			add(&s, &len, &cap, sep);
			add(&s, &len, &cap, words[i].legend);
			sep = ", ";
		}
	if (sep[0] == ',')
		add(&s, &len, &cap, "; each result's message names them.)");
	json_object_set_new(o, "help", text_of(s));
	free(s);
	json_t *cfg = json_object();
	json_object_set_new(cfg, "level", json_string(sarif_level(r->severity == EXPLAIN_HARMLESS)));
	json_object_set_new(o, "defaultConfiguration", cfg);
	json_t *p = json_object();
	json_object_set_new(p, "severity", json_string(explain_severity_word(r->severity)));
	json_object_set_new(p, "weight", json_integer(r->weight));
	/* GitHub's code scanning: tags filter, problem.severity decides
	 * what shows by default ("recommendation" for the usually harmless) */
	json_t *tags = json_array();
	json_array_append_new(tags, json_string("performance"));
	json_array_append_new(tags, json_string("luajit"));
	json_object_set_new(p, "tags", tags);
	json_object_set_new(p, "precision", json_string("high"));
	json_object_set_new(p, "problem.severity",
	                    json_string(r->severity == EXPLAIN_HARMLESS ? "recommendation" : "warning"));
	json_object_set_new(o, "properties", p);
	return o;
}

/* The catalogue is the same for every run: its rules are made and
 * written as JSON text once in a process (they were most of a SARIF
 * run's time, and the fuzz targets run thousands: bench/RESULTS.md),
 * under a lock for a library used from several threads, and kept for
 * the process's life.  Running out of memory meanwhile is caught inside
 * the lock (never jumped out of it) and said after. */
static pthread_mutex_t rules_lock = PTHREAD_MUTEX_INITIALIZER;
static char *rules_text;
static struct sarif_rule_index rules_ix;

static void make_rules(void *unused)
{
	(void)unused;
	size_t n;
	struct entry *v = catalogue(&n);
	json_t *a = json_array();
	rules_ix.ids = xrealloc(NULL, (n ? n : 1) * sizeof(*rules_ix.ids));
	rules_ix.n = n;
	for (size_t i = 0; i < n; i++) {
		rules_ix.ids[i] = v[i].rule->id;
		json_array_append_new(a, descriptor(&v[i]));
	}
	free(v);
	char *flat = json_dumps(a, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(a);
	if (!flat)
		out_of_memory();        /* caught by oom_call */
	/* indented as it stands in the document: SARIF_RULES_DEPTH levels
	 * of two spaces more on every line but the first */
	size_t lines = 0, len = strlen(flat);
	for (size_t i = 0; i < len; i++)
		lines += flat[i] == '\n';
	char *text = malloc(len + lines * 2 * SARIF_RULES_DEPTH + 1);
	if (!text) {
		free(flat);
		out_of_memory();
	}
	char *o = text;
	for (size_t i = 0; i < len; i++) {
		*o++ = flat[i];
		if (flat[i] == '\n')
			for (int k = 0; k < 2 * SARIF_RULES_DEPTH; k++)
				*o++ = ' ';
	}
	*o = '\0';
	free(flat);
	rules_text = text;
}

const char *sarif_rules_text(const struct sarif_rule_index **ix)
{
	pthread_mutex_lock(&rules_lock);
	if (!rules_text) {
		free(rules_ix.ids);         /* of an attempt that ran out */
		rules_ix.ids = NULL;
		rules_ix.n = 0;
		(void)oom_call(make_rules, NULL);
	}
	const char *text = rules_text;
	pthread_mutex_unlock(&rules_lock);
	if (!text)
		out_of_memory();
	*ix = &rules_ix;
	return text;
}

long sarif_rule_find(const struct sarif_rule_index *ix, const char *id)
{
	size_t lo = 0, hi = ix->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(ix->ids[mid], id);
		if (c == 0)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

const char *sarif_level(int harmless)
{
	return harmless ? "note" : "warning";
}
