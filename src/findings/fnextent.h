/* fnextent.h — the extents of the Lua functions a sysprof profile names
 * (by chunk and defining line), from their source files as the run reads
 * them (findings/lines.h), for the rules that charge a function's samples
 * to code (findings/cost.c) and give a failed line to the function
 * holding it (profile/sysprof_callees.c). */
#ifndef DUMPANALYZE_FINDINGS_FNEXTENT_H
#define DUMPANALYZE_FINDINGS_FNEXTENT_H

#include "findings/lines.h"
#include "profile/sysprof.h"

/* Set every function's last line (sp_func.last) from the files fs reads
 * (each once a run); SP_LAST_UNKNOWN where the source is not read. */
void fn_extents_sysprof(struct sysprof *p, struct text_files *fs);

#endif
