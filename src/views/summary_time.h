/* summary_time.h — summary.txt's part on a sysprof profile (time per
 * trace, bush and function), written by summary.c. */
#ifndef DUMPANALYZE_SUMMARY_TIME_H
#define DUMPANALYZE_SUMMARY_TIME_H

#include <stdio.h>
#include "findings/findings.h"
#include "profile/callees.h"
#include "profile/sysprof.h"
#include "profile/sysprof_join.h"

/* f: the findings, whose failed extents the callees name (or NULL) */
void summary_write_time(FILE *fp, const struct findings *f, const struct sysprof *p,
                        const struct sysprof_join *j);

#endif
