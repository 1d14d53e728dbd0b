/* intern.c — string interning with open addressing; see intern.h. */
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "util/intern.h"

/* Each string is stored as [uint32_t length][bytes][NUL]. */
static uint32_t stored_len(const char *s)
{
	uint32_t n;
	memcpy(&n, s - sizeof(uint32_t), sizeof(n));
	return n;
}

size_t intern_len(const char *interned)
{
	return stored_len(interned);
}

/* Eight bytes a step, then mixed so the low bits, which pick the slot,
 * depend on every byte: FNV-1a's byte a step was most of interning the
 * abort bytecode lines (160 bytes each).  Only the table's layout hangs
 * on it, never an order anyone sees. */
static uint64_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	if (i < n) {
		uint64_t w = 0;
		memcpy(&w, s + i, n - i);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 29);
}

void intern_init(struct intern *t)
{
	arena_init(&t->store, 64 * 1024);
	t->nslots = 256;
	t->count = 0;
	t->slots = xrealloc(NULL, t->nslots * sizeof(*t->slots));
	memset(t->slots, 0, t->nslots * sizeof(*t->slots));
}

static void grow(struct intern *t)
{
	size_t n = t->nslots * 2;
	const char **slots = xrealloc(NULL, n * sizeof(*slots));
	memset(slots, 0, n * sizeof(*slots));
	for (size_t i = 0; i < t->nslots; i++) {
		const char *s = t->slots[i];
		if (!s)
			continue;
		size_t j = hash_bytes(s, stored_len(s)) & (n - 1);
		while (slots[j])
			j = (j + 1) & (n - 1);
		slots[j] = s;
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = n;
}

const char *intern_get(struct intern *t, const char *s, size_t n)
{
	if (n > UINT32_MAX)
		n = UINT32_MAX;
	if ((t->count + 1) * 4 > t->nslots * 3)
		grow(t);
	size_t j = hash_bytes(s, n) & (t->nslots - 1);
	for (;;) {
		const char *e = t->slots[j];
		if (!e)
			break;
		if (stored_len(e) == n && memcmp(e, s, n) == 0)
			return e;
		j = (j + 1) & (t->nslots - 1);
	}
	char *mem = arena_alloc(&t->store, sizeof(uint32_t) + n + 1);
	uint32_t len = (uint32_t)n;
	memcpy(mem, &len, sizeof(len));
	char *copy = mem + sizeof(uint32_t);
	if (n)
		memcpy(copy, s, n);
	copy[n] = '\0';
	t->slots[j] = copy;
	t->count++;
	return copy;
}

void intern_free(struct intern *t)
{
	arena_free(&t->store);
	free(t->slots);
	t->slots = NULL;
	t->nslots = t->count = 0;
}

int intern_cmp(const char *a, const char *b)
{
	if (a == b)
		return 0;
	if (!a || !b)
		return a ? 1 : -1;
	size_t na = intern_len(a), nb = intern_len(b);
	int r = memcmp(a, b, na < nb ? na : nb);
	return r ? r : (na > nb) - (na < nb);
}
