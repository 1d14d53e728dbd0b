/* exit_counts.c — how often each exit of each trace was taken, sorted by
 * trace and exit for lookup; see exit_counts.h. */
#include <stdlib.h>
#include "draw/exit_counts.h"

static int by_trace_exit(const void *x, const void *y)
{
	const struct tally_entry *a = x, *b = y;
	uintptr_t pa = (uintptr_t)a->a, pb = (uintptr_t)b->a;
	if (pa != pb)
		return pa < pb ? -1 : 1;
	return (a->c > b->c) - (a->c < b->c);
}

void exit_counts_build(struct exit_counts *ec, const struct tally *taken)
{
	ec->e = tally_entries(taken, &ec->n);
	qsort(ec->e, ec->n, sizeof(*ec->e), by_trace_exit);
}

size_t exit_counts_first(const struct exit_counts *ec, const struct da_trace *t)
{
	size_t lo = 0, hi = ec->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if ((uintptr_t)ec->e[mid].a < (uintptr_t)t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint64_t exit_counts_get(const struct exit_counts *ec, const struct da_trace *t, uint32_t exit)
{
	for (size_t i = exit_counts_first(ec, t); i < ec->n && ec->e[i].a == t; i++)
		if (EXIT_KEY_EXIT(ec->e[i].c) == exit)
			return ec->e[i].count;
	return 0;
}

void exit_counts_free(struct exit_counts *ec)
{
	free(ec->e);
	ec->e = NULL;
	ec->n = 0;
}
