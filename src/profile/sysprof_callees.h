/* sysprof_callees.h — which of a sysprof profile's functions hold the
 * lines where the JIT failed (the dump's abort sites and likely
 * blacklisted starts; the rule in sysprof_callees.c), for the flame
 * graph's marks.  (The callee columns judge by the findings:
 * findings/failed.c.) */
#ifndef DUMPANALYZE_SYSPROF_CALLEES_H
#define DUMPANALYZE_SYSPROF_CALLEES_H

#include "analysis/answers.h"
#include "profile/callees.h"
#include "profile/profile.h"
#include "profile/sysprof.h"

/* The functions that hold failed lines, by name and defining line. */
struct sp_holders {
	const struct callees *c;    /* whose failed lines */
	struct intern names;
	struct tally held;          /* (chunk, NULL, defining line) -> index + 1 in c->failed */
};

/* The holders of c's failed lines among p's functions. */
void sp_holders_build(struct sp_holders *h, const struct callees *c, const struct sysprof *p);
/* The failed line a frame "chunk:defining line" (NUL-terminated) holds (of several, the
 * one with most aborts), or NULL. */
const struct failed_line *sp_holder_of(struct sp_holders *h, const char *frame);
void sp_holders_free(struct sp_holders *h);

#endif
