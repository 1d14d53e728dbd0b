/* fnextent.h — the extents of the Lua functions a sysprof profile names
 * (by chunk and defining line), from their source files, for the rules
 * that charge a function's samples to code (findings/cost.c) and give a
 * failed line to the function holding it (profile/sysprof_callees.c). */
#ifndef DUMPANALYZE_SOURCE_FNEXTENT_H
#define DUMPANALYZE_SOURCE_FNEXTENT_H

#include "profile/sysprof.h"
#include "source/find.h"

/* Set every function's last line (sp_func.last) from the files the
 * finder finds, each read once; SP_LAST_UNKNOWN where the source is not
 * read.  Nothing without a directory to look in. */
void fn_extents_sysprof(struct sysprof *p, struct source_finder *finder);

#endif
