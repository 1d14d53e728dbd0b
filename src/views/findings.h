/* findings.h — what the views that show the library's findings share
 * (findings.csv, summary.txt, source.txt, the report). */
#ifndef DUMPANALYZE_VIEWS_FINDINGS_H
#define DUMPANALYZE_VIEWS_FINDINGS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "dumpanalyze.h"

/* A sample count as the profile gives it: a count, or a percentage with
 * two decimals ("12.34") for a profile of percentages. */
void findings_put_samples(char *buf, size_t n, const struct da_profile_totals *t, uint64_t v);

/* Worth listing first (summary.txt's "fix these first", the report's
 * first screen): not usually harmless, not fixed by a finding above it
 * (same_cause), and, measured by a profile, costing something (a
 * finding without an extent, an exit, cannot be measured so). */
int findings_listed(const struct da_finding *f);

/* How many findings "fix these first" shows. */
#define FINDINGS_TOP 5

/* findings_text.c: the run's shares of samples by VM state (nothing
 * without a profile), and "fix these first": the top findings of
 * distinct causes, at most top, each with where, why, cost and advice. */
void findings_write_shares(FILE *fp, const da_dump *d);
void findings_write_top(FILE *fp, const da_dump *d, size_t top);

#endif
