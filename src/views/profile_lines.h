/* profile_lines.h — what the profile view shares with the sysprof view: the
 * callees file's writer. */
#ifndef DUMPANALYZE_VIEWS_PROFILE_LINES_H
#define DUMPANALYZE_VIEWS_PROFILE_LINES_H

#include "profile/callees.h"
#include "views/view.h"

/* NAME (profile-callees.csv, or -sysprof.csv): callers of code that
 * failed to compile, with their callees' samples
 * (FILE,LINE,CALLEE_SAMPLES,CALLEE_FILE,CALLEE_LINE,CALLEE_REASON).
 * 0, or -1 after the cause was printed. */
int profile_callees_csv(struct view_ctx *c, const char *name, const struct callees *cal);

#endif
