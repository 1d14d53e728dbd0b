/* tally.c — counts keyed by (pointer, pointer, integer); see tally.h. */
#include <stdlib.h>
#include <string.h>
#include "util/tally.h"
#include "util/arena.h"

static uint64_t hash_key(const void *a, const void *b, int64_t c)
{
	uint64_t h = (uint64_t)(uintptr_t)a * 0x9e3779b97f4a7c15ull;
	h ^= (uint64_t)(uintptr_t)b * 0xc2b2ae3d27d4eb4full;
	h ^= (uint64_t)c * 0x165667b19e3779f9ull;
	return h ^ (h >> 29);
}

void tally_init(struct tally *t)
{
	memset(t, 0, sizeof(*t));
}

/* The table rebuilt with n slots. */
static void rehash(struct tally *t, size_t n)
{
	struct tally_entry *slots = xrealloc(NULL, n * sizeof(*slots));
	memset(slots, 0, n * sizeof(*slots));
	for (size_t i = 0; i < t->nslots; i++) {
		struct tally_entry *e = &t->slots[i];
		if (!e->count)
			continue;
		size_t j = hash_key(e->a, e->b, e->c) & (n - 1);
		while (slots[j].count)
			j = (j + 1) & (n - 1);
		slots[j] = *e;
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = n;
}

void tally_add(struct tally *t, const void *a, const void *b, int64_t c, uint64_t n)
{
	if (!n)
		return;
	if ((t->count + 1) * 4 > t->nslots * 3)
		rehash(t, t->nslots ? t->nslots * 2 : 64);
#ifdef DA_ALLOC_MOVE
	/* tally_find's entry is stale now: see alloc.h */
	else if (alloc_move_on && t->nslots * sizeof(*t->slots) <= ALLOC_MOVE_MAX)
		t->slots = alloc_move(t->slots, t->nslots * sizeof(*t->slots));
#endif
	size_t j = hash_key(a, b, c) & (t->nslots - 1);
	for (;;) {
		struct tally_entry *e = &t->slots[j];
		if (!e->count) {
			e->a = a;
			e->b = b;
			e->c = c;
			e->count = n;
			e->first = t->next_seq++;
			t->count++;
			return;
		}
		if (e->a == a && e->b == b && e->c == c) {
			e->count += n;
			return;
		}
		j = (j + 1) & (t->nslots - 1);
	}
}

struct tally_entry *tally_entries(const struct tally *t, size_t *count)
{
	struct tally_entry *out = xrealloc(NULL, (t->count ? t->count : 1) * sizeof(*out));
	size_t k = 0;
	for (size_t i = 0; i < t->nslots; i++)
		if (t->slots[i].count)
			out[k++] = t->slots[i];
	*count = k;
	return out;
}

void tally_clear(struct tally *t)
{
	if (t->slots)
		memset(t->slots, 0, t->nslots * sizeof(*t->slots));
	t->count = 0;
	t->next_seq = 0;
}

void tally_free(struct tally *t)
{
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

const struct tally_entry *tally_find(const struct tally *t, const void *a, const void *b, int64_t c)
{
	if (!t->count)
		return NULL;
	size_t j = hash_key(a, b, c) & (t->nslots - 1);
	for (;;) {
		const struct tally_entry *e = &t->slots[j];
		if (!e->count)
			return NULL;
		if (e->a == a && e->b == b && e->c == c)
			return e;
		j = (j + 1) & (t->nslots - 1);
	}
}

uint64_t tally_get(const struct tally *t, const void *a, const void *b, int64_t c)
{
	const struct tally_entry *e = tally_find(t, a, b, c);
	return e ? e->count : 0;
}

int tally_by_count(const void *x, const void *y)
{
	const struct tally_entry *a = x, *b = y;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

int tally_by_c(const void *x, const void *y)
{
	const struct tally_entry *a = x, *b = y;
	if (a->c != b->c)
		return a->c < b->c ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}
