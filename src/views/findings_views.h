/* findings_views.h — what the views that show the library's findings share
 * (findings.csv, summary.txt, source.txt, the report, and the outputs
 * that put them on the code: findings.sarif, problems.txt, CI
 * annotations, GitLab's Code Quality report). */
#ifndef DUMPANALYZE_VIEWS_FINDINGS_VIEWS_H
#define DUMPANALYZE_VIEWS_FINDINGS_VIEWS_H

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

/* finding_words.c: what the outputs that put a finding on the code say
 * of it, one line of raw bytes (each output escapes them its way),
 * malloc'd: "KIND (SEVERITY): REASON in N of M aborted attempts, charged
 * P% of the samples. ADVICE" (a finding of no reason: "KIND (SEVERITY):
 * ADVICE").  place: also say where ("tpl-3:12: ..."), for an output that
 * cannot place it on a file. */
char *finding_message(const struct da_finding *f, const struct da_profile_totals *t, int place);
/* "DA203 closure-in-loop": the rule's id and name. */
void finding_title(char *buf, size_t n, const struct da_finding *f);
/* The catalogue's name of a rule id ("closure-in-loop"), or NULL. */
const char *finding_rule_name(const char *id);

struct where;
struct where_map;

/* problems.c: every finding as a compiler-style line (problems.txt,
 * --format=gcc): 0, or -1 after a write error. */
int problems_write(FILE *fp, const da_dump *d, struct where_map *m);

/* annotate.c: GitHub Actions workflow commands.  One line "::LEVEL
 * file=..,line=..,endLine=..,title=..::MESSAGE", escaped as GitHub's
 * toolkit escapes them (w NULL or not a file: no file, line or endLine);
 * and one per finding of a run, usually harmless ones as notices, the
 * others as warnings: 0, or -1 after a write error. */
enum annot_level { ANNOT_NOTICE, ANNOT_WARNING, ANNOT_ERROR };
void annotate_line(FILE *fp, enum annot_level level, const struct where *w, int32_t line,
                   int32_t end_line, const char *title, const char *message);
int annotate_run(FILE *fp, const da_dump *d, struct where_map *m);

#endif
