/* failed.h — the callee columns (profile/callees.h) by the findings'
 * judgment: which frames failed to compile is what the cost rule says
 * (findings.h, fextent_holder), so that a callee row names the finding its
 * samples are charged to (the rule in failed.c). */
#ifndef DUMPANALYZE_FINDINGS_FAILED_H
#define DUMPANALYZE_FINDINGS_FAILED_H

#include "findings/findings.h"
#include "profile/callees.h"

/* c's failed lines, one per failed finding (its file's base name, LINE,
 * main reason, attempts), and its rows from the -jp profile's stacks (none
 * without stacks or findings: f may be NULL). */
void failed_callees(struct callees *c, const struct findings *f, const struct profile *p);
/* The same from a sysprof profile's Lua stacks, whose frames are
 * functions (LINE their defining line). */
void failed_callees_sysprof(struct callees *c, const struct findings *f, const struct sysprof *sp);

#endif
