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

/* tool.driver.rules: every rule of the catalogue, sorted by id. */
json_t *sarif_rules(struct sarif_rule_index *ix);
/* The index of a rule id in that array, or -1. */
long sarif_rule_find(const struct sarif_rule_index *ix, const char *id);
void sarif_rule_index_free(struct sarif_rule_index *ix);
/* SARIF's level of a severity: "note" for the usually harmless,
 * "warning" for the others. */
const char *sarif_level(int harmless);

#endif
