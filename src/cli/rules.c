/* rules.c — the findings' rules by id and name: `--explain DA203`,
 * `--explain closure-in-loop`, `--explain list` (the table, which make
 * docs also turns into the man page's), all from the one catalogue: the
 * run-level kinds (findings/kinds.def), the trace errors (luajit/traceerr.def), the NYI bytecodes (luajit/bytecodes.def) and the
 * rule of a message LuaJIT does not list. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cli/cli.h"
#include "findings/findings.h"
#include "luajit/explain.h"
#include "util/alloc.h"

struct rule_row {
	const struct explain_rule *rule;
	const char *what;           /* one sentence: the kind's title, the error's meaning */
	const struct explain_err *err;  /* its trace error, or NULL */
	const char *bytecode;       /* an NYI bytecode's name, or NULL */
};

static int by_id(const void *x, const void *y)
{
	return strcmp(((const struct rule_row *)x)->rule->id, ((const struct rule_row *)y)->rule->id);
}

/* Every rule, sorted by id (malloc'd, *n of them). */
static struct rule_row *rule_rows(size_t *n)
{
	size_t nk, ne, nb;
	const struct finding_kind *kinds = findings_kinds(&nk);
	const struct explain_err *errs = explain_errs(&ne);
	const char *const *names;
	const struct explain_rule *bcr = explain_bc_rules(&nb, &names);
	struct rule_row *v = xrealloc(NULL, (nk + ne + nb + 1) * sizeof(*v));
	size_t k = 0;
	for (size_t i = 0; i < nk; i++)
		if (kinds[i].rule.id)
			v[k++] = (struct rule_row){ &kinds[i].rule, kinds[i].title, NULL, NULL };
	for (size_t i = 0; i < ne; i++)
		v[k++] = (struct rule_row){ &errs[i].rule, errs[i].meaning, &errs[i], NULL };
	for (size_t i = 0; i < nb; i++) {
		const struct explain_bc *bc = explain_bc_named(names[i], strlen(names[i]));
		v[k++] = (struct rule_row){ &bcr[i], bc && bc->meaning ? bc->meaning : "an NYI bytecode",
		                            NULL, names[i] };
	}
	v[k++] = (struct rule_row){ findings_unknown_rule(),
	                            "The attempts ended with a message LuaJIT does not list.", NULL, NULL };
	qsort(v, k, sizeof(*v), by_id);
	*n = k;
	return v;
}

/* The advice with its places as words: START, AT, CAUSE, N, VALUE. */
static void put_advice(FILE *fp, const char *label, const char *t)
{
	static const struct { const char *key, *word; } words[] = {
		{ "{start}", "START" }, { "{scope}", "loop or function" }, { "{at}", "AT" },
		{ "{cause}", "CAUSE" }, { "{closure}", "the closure at CAUSE" }, { "{n}", "N" },
		{ "{try}", "VALUE" },
	};
	fprintf(fp, "%-10s ", label);
	while (*t) {
		size_t i = 0;
		while (i < sizeof(words) / sizeof(words[0]) && strncmp(t, words[i].key, strlen(words[i].key)))
			i++;
		if (i < sizeof(words) / sizeof(words[0])) {
			fputs(words[i].word, fp);
			t += strlen(words[i].key);
		} else {
			fputc(*t++, fp);
		}
	}
	fputc('\n', fp);
}

int explain_rule_command(const char *query, FILE *fp)
{
	size_t n;
	struct rule_row *v = rule_rows(&n);
	int found = 0;
	if (strcmp(query, "list") == 0) {
		fprintf(fp, "%-6s %-34s %-12s %s\n", "ID", "NAME", "SEVERITY", "WHAT");
		for (size_t i = 0; i < n; i++)
			fprintf(fp, "%-6s %-34s %-12s %s\n", v[i].rule->id, v[i].rule->name,
			        explain_severity_word(v[i].rule->severity), v[i].what);
		found = 1;
	}
	for (size_t i = 0; i < n && !found; i++) {
		const struct explain_rule *r = v[i].rule;
		if (strcasecmp(query, r->id) != 0 && strcasecmp(query, r->name) != 0)
			continue;
		fprintf(fp, "%s %s: %s\n", r->id, r->name, v[i].what);
		fprintf(fp, "%-10s %s: %s\n", "severity:", explain_severity_text(r->severity), r->why);
		if (v[i].err)
			fprintf(fp, "%-10s %s (%s)\n", "reason:", v[i].err->pattern, v[i].err->name);
		if (v[i].bytecode)
			fprintf(fp, "%-10s NYI: bytecode %s\n", "reason:", v[i].bytecode);
		if (r->advice21)
			put_advice(fp, r->advice20 && strcmp(r->advice20, r->advice21) ? "fix (2.1):" : "fix:",
			           r->advice21);
		if (r->advice20 && (!r->advice21 || strcmp(r->advice20, r->advice21)))
			put_advice(fp, "fix (2.0):", r->advice20);
		found = 1;
	}
	free(v);
	return found ? 0 : -1;
}
