/* baseline.h — findings a team accepted on purpose, in a file reviewers
 * read in diffs (dumpanalyze(1), BASELINE): reading it without trusting
 * it, matching findings to its entries by identity, and writing one.
 *
 *   # comments
 *   dumpanalyze-baseline 1
 *
 *   finding IDENTITY
 *     kind: KIND
 *     severity: SEVERITY
 *     reason: REASON
 *     place: FILE:LINE[-END]
 *     accepted: WHY
 *
 * Only IDENTITY decides a match; the other lines are for the reader
 * (accepted: is the reason given, kept when the file is written again). */
#ifndef DUMPANALYZE_FINDINGS_BASELINE_H
#define DUMPANALYZE_FINDINGS_BASELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "dumpanalyze.h"
#include "util/intern.h"

#define BASELINE_HEADER "dumpanalyze-baseline"
#define BASELINE_VERSION 1
#define BASELINE_MAX_BYTES ((uint64_t)64 << 20)

struct baseline_entry {
	struct da_baseline_entry pub;
	int matched;                /* a finding had its identity */
};

struct baseline {
	char *path;                 /* as given */
	struct intern text;
	struct baseline_entry *v;   /* by identity (bytes), unique */
	size_t n, cap;
};

/* What is wrong with a file that is no baseline. */
struct baseline_error {
	uint64_t line;              /* 0: the file as a whole */
	char msg[200];
};

/* Read path: 0; -1 when it is no baseline we read (*e says where and
 * why); -2 when it cannot be opened or read (errno kept, *e says). */
int baseline_read(struct baseline *b, const char *path, struct baseline_error *e);
/* The entry of an identity, or NULL; baseline_match marks it matched. */
struct baseline_entry *baseline_lookup(const struct baseline *b, const char *identity);
struct baseline_entry *baseline_match(struct baseline *b, const char *identity);
void baseline_free(struct baseline *b);

/* A finding as the baseline records it. */
struct baseline_item {
	const char *identity, *kind, *severity, *reason;
	const char *file;           /* NULL: run-level */
	int32_t line, end_line;     /* DA_NO_LINE: none */
};
/* Write a baseline of the items (sorted here by identity; one entry per
 * identity) to fp, keeping the "accepted:" line of each item that prev
 * (may be NULL) has.  The entries written; *kept (may be NULL): those
 * whose non-empty "accepted:" line came from prev. */
size_t baseline_put(FILE *fp, struct baseline_item *items, size_t n, const struct baseline *prev,
                    size_t *kept);

#endif
