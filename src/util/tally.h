/* tally.h — counts keyed by (pointer, pointer, integer), for views that
 * aggregate (abort reasons per file and line).  Keys are interned
 * pointers, so hashing them is cheap and exact. */
#ifndef DUMPANALYZE_TALLY_H
#define DUMPANALYZE_TALLY_H

#include <stddef.h>
#include <stdint.h>

struct tally_entry {
	const void *a, *b;
	int64_t c;
	uint64_t count;
	uint64_t first;     /* order of first appearance, for stable ties */
};

struct tally {
	struct tally_entry *slots;
	size_t nslots, count;
	uint64_t next_seq;
};

void tally_init(struct tally *t);
/* Add n to the entry for the key, creating it when new. */
void tally_add(struct tally *t, const void *a, const void *b, int64_t c, uint64_t n);
/* The entry of a key (valid until the next tally_add), or NULL. */
const struct tally_entry *tally_find(const struct tally *t, const void *a, const void *b, int64_t c);
/* The count of a key, 0 when absent. */
uint64_t tally_get(const struct tally *t, const void *a, const void *b, int64_t c);
/* The live entries in a fresh array (caller frees), in slot order; sort it. */
struct tally_entry *tally_entries(const struct tally *t, size_t *count);
/* qsort order: count descending, ties in order of first appearance. */
int tally_by_count(const void *x, const void *y);
/* qsort order: c ascending, ties in order of first appearance (never by
 * a or b: pointers differ from run to run). */
int tally_by_c(const void *x, const void *y);
void tally_clear(struct tally *t);
void tally_free(struct tally *t);

#endif
