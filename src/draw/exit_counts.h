/* exit_counts.h — how often each exit of each trace was taken in a
 * generation (gen.exits), sorted by trace and exit for lookup: the exit
 * index of the bush pictures. */
#ifndef DUMPANALYZE_EXIT_COUNTS_H
#define DUMPANALYZE_EXIT_COUNTS_H

#include <stddef.h>
#include <stdint.h>
#include "model/model.h"
#include "util/tally.h"

struct exit_counts {
	struct tally_entry *e;      /* a = trace, c = exit, count */
	size_t n;
};

void exit_counts_build(struct exit_counts *ec, const struct tally *taken);
/* Times exit of t was taken; 0 when never (or unknown). */
uint64_t exit_counts_get(const struct exit_counts *ec, const struct da_trace *t, uint32_t exit);
/* The index of t's first entry (or where it would be): t's entries follow
 * it, in exit order. */
size_t exit_counts_first(const struct exit_counts *ec, const struct da_trace *t);
void exit_counts_free(struct exit_counts *ec);

#endif
