/* sarif.h — what the two files of findings.sarif share: the rules of the
 * catalogue (sarif_rules.c) for the results (sarif.c). */
#ifndef DUMPANALYZE_VIEWS_SARIF_H
#define DUMPANALYZE_VIEWS_SARIF_H

#include <stddef.h>
#include <jansson.h>

/* The rules' ids in the order of the array (each the catalogue's own
 * string), for ruleIndex. */
struct sarif_rule_index {
	const char **ids;
	size_t n;
};

/* tool.driver.rules: every rule of the catalogue, sorted by id, as the
 * JSON text that stands after "rules": in the document, indented for its
 * depth there (runs[0].tool.driver.rules: SARIF_RULES_DEPTH), and *ix its
 * ids; made once in a process, never freed. */
#define SARIF_RULES_DEPTH 5
const char *sarif_rules_text(const struct sarif_rule_index **ix);
/* The index of a rule id in that array, or -1. */
long sarif_rule_find(const struct sarif_rule_index *ix, const char *id);
/* SARIF's level of a severity: "note" for the usually harmless,
 * "warning" for the others. */
const char *sarif_level(int harmless);

#endif
