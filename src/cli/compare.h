/* compare.h — `dumpanalyze --compare OLD NEW`: what changed between two
 * output directories, in human terms, and whether it crosses the
 * thresholds a CI job set with --fail-on. */
#ifndef DUMPANALYZE_COMPARE_H
#define DUMPANALYZE_COMPARE_H

#include <stdio.h>

/* Returns 0 (no threshold crossed), 1 (a --fail-on rule tripped), or 2
 * (a directory could not be read or is not dumpanalyze output, or a rule
 * could not be evaluated; message printed).  A bad rule list is reported
 * and gives -1.  json: the result as one JSON object instead of text. */
int compare_dirs(const char *old_dir, const char *new_dir, const char *fail_on, int json,
                 FILE *out);

#endif
