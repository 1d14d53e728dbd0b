/* baseline_file.h — the tool's side of a baseline (--baseline and
 * --write-baseline, on a run and on --compare); the format and its
 * reading are the library's (findings/baseline.h). */
#ifndef DUMPANALYZE_BASELINE_FILE_H
#define DUMPANALYZE_BASELINE_FILE_H

#include "findings/baseline.h"

/* Read path: 0, or -1 after one message naming the file and line. */
int baseline_load(struct baseline *b, const char *path);
/* Write the items to path, whole or not at all, keeping the accepted:
 * lines of the entries path already has (a file there that is not a
 * baseline is not written over), and say so in one line on fp ("wrote
 * the baseline PATH: N findings of WHOSE, ...").  0, or -1 after a
 * message. */
int baseline_write_file(const char *path, struct baseline_item *items, size_t n, FILE *fp,
                        const char *whose);
/* "FILE:LINE: stale baseline entry: ..." on standard error. */
void baseline_say_stale(const char *path, const struct da_baseline_entry *e);

/* After a run of one dump: its stale entries said (baseline: the
 * --baseline file or NULL), its findings written to write_to (or NULL),
 * which is said on standard error unless quiet.  0, or -1 after a
 * message. */
int baseline_after_run(const char *baseline, const char *write_to, const da_dump *d, int quiet);

#endif
