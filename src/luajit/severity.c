/* severity.c — how much a finding matters (enum explain_severity,
 * explain.h): the severities' words, the one table of them. */
#include <string.h>
#include "luajit/explain.h"

/* The severities' words, the one table: as the CSV files, --json and
 * the reports write them, and as a sentence says them. */
static const struct {
	const char *word, *text;
} severities[EXPLAIN_SEVERITIES] = {
	[EXPLAIN_COSTLY] = { "costly", "costly and fixable" },
	[EXPLAIN_LOOK] = { "worth-a-look", "worth a look" },
	[EXPLAIN_HARMLESS] = { "harmless", "usually harmless" },
};

const char *explain_severity_word(enum explain_severity s)
{
	return s < EXPLAIN_SEVERITIES ? severities[s].word : "unknown";
}

const char *explain_severity_text(enum explain_severity s)
{
	return s < EXPLAIN_SEVERITIES ? severities[s].text : "unknown";
}

int explain_severity_parse(const char *word)
{
	for (int s = 0; s < EXPLAIN_SEVERITIES; s++)
		if (strcmp(word, severities[s].word) == 0)
			return s;
	return -1;
}
