/* reason_advice.c — one line of meaning and advice per abort reason, see
 * reason_advice.h: a bytecode's own meaning beats NYIBC's general one. */
#include <stdio.h>
#include <string.h>
#include "analysis/reason_advice.h"
#include "luajit/explain.h"

size_t advice_line(const char *normal, size_t len, const char *error, char *buf, size_t cap)
{
	const struct explain_err *e = error ? explain_err_named(error, strlen(error)) : NULL;
	int n;
	if (cap == 0)
		return 0;
	if (!e) {
		n = snprintf(buf, cap, "not a LuaJIT abort message (a Lua error while recording?)");
	} else {
		struct explain_match m;
		memset(&m, 0, sizeof(m));
		if (strcmp(e->name, "NYIBC") == 0)
			explain_lookup(normal, len, EXPLAIN_FLAVOUR_UNKNOWN, &m);
		const char *meaning = m.bc && m.bc->meaning ? m.bc->meaning : e->meaning;
		size_t k = strlen(meaning);
		/* A known bytecode has a rule of its own, whose words fit every
		 * build; NYIBC's general fix names constructs this one is not.
		 * The advice for each place, for the dump's build, is the
		 * findings'. */
		const struct explain_rule *r = m.bc ? explain_bc_rule(m.bc) : NULL;
		if (r)
			n = snprintf(buf, cap, "%s: %s%s %s (%s, %s): %s", e->name, meaning,
			             k && meaning[k - 1] != '.' ? "." : "", r->id, r->name,
			             explain_severity_text(r->severity), r->why);
		else
			n = snprintf(buf, cap, "%s: %s%s Try: %s", e->name, meaning,
			             k && meaning[k - 1] != '.' ? "." : "", e->fix);
	}
	if (n < 0)
		n = 0;
	return (size_t)n < cap ? (size_t)n : cap - 1;
}
