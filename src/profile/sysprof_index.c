/* sysprof_index.c — the symbol tables of a sysprof stream as read so far
 * (see sysprof_index.h), and the names LuaJIT's dump gives chunks, so
 * that the profile's functions and traces meet the dump's by name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "profile/sysprof_index.h"
#include "util/alloc.h"

size_t sp_slot_of(uint64_t key, size_t nslots)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & (nslots - 1);
}

static void map_grow(struct sp_map *m)
{
	size_t n = m->nslots ? m->nslots * 2 : 64;
	uint64_t *keys = xrealloc(NULL, n * sizeof(*keys));
	uint32_t *vals = xrealloc(NULL, n * sizeof(*vals));
	for (size_t i = 0; i < n; i++)
		vals[i] = SP_NONE;
	for (size_t i = 0; i < m->nslots; i++) {
		if (m->vals[i] == SP_NONE)
			continue;
		size_t s = sp_slot_of(m->keys[i], n);
		while (vals[s] != SP_NONE)
			s = (s + 1) & (n - 1);
		keys[s] = m->keys[i];
		vals[s] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->nslots = n;
}

void sp_map_set(struct sp_map *m, uint64_t key, uint32_t val)
{
	if ((m->count + 1) * 4 > m->nslots * 3)
		map_grow(m);
	size_t s = sp_slot_of(key, m->nslots);
	while (m->vals[s] != SP_NONE && m->keys[s] != key)
		s = (s + 1) & (m->nslots - 1);
	if (m->vals[s] == SP_NONE)
		m->count++;
	m->keys[s] = key;
	m->vals[s] = val;
}

uint32_t sp_map_get(const struct sp_map *m, uint64_t key)
{
	if (!m->nslots)
		return SP_NONE;
	size_t s = sp_slot_of(key, m->nslots);
	while (m->vals[s] != SP_NONE) {
		if (m->keys[s] == key)
			return m->vals[s];
		s = (s + 1) & (m->nslots - 1);
	}
	return SP_NONE;
}

void sp_map_free(struct sp_map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

int32_t sp_line(uint64_t line)
{
	return line > INT32_MAX ? -1 : (int32_t)line;
}

/* "%p" as LuaJIT prints a pointer (lj_strfmt_wptr): 8 hex digits, and
 * for a 64-bit address two more per byte of its upper half in use. */
static size_t lj_pointer(char *out, uint64_t x)
{
	if (x == 0) {
		memcpy(out, "NULL", 4);
		return 4;
	}
	size_t n = 2 + 8;
	uint32_t hi = (uint32_t)(x >> 32);
	if (hi) {
		unsigned fls = 31;
		while (!(hi >> fls))
			fls--;
		n += 2 + 2 * (fls >> 3);
	}
	out[0] = '0';
	out[1] = 'x';
	for (size_t i = n - 1; i >= 2; i--, x >>= 4)
		out[i] = "0123456789abcdef"[x & 15];
	return n;
}

const char *sp_chunk_name(struct intern *strings, const struct sp_str *chunk, uint64_t proto,
                          uint64_t line, int *builtin)
{
	const char *s = chunk->p;
	size_t n = chunk->n;
	*builtin = sp_line(line) < 0 && line == UINT64_MAX;
	if (*builtin) {
		/* "builtin:NAME" (its own location, without a line) */
		char buf[SP_STR_KEEP + 16];
		size_t k = n < SP_STR_KEEP ? n : SP_STR_KEEP;
		memcpy(buf, "builtin:", 8);
		memcpy(buf + 8, s, k);
		return intern_get(strings, buf, 8 + k);
	}
	if (chunk->len > 0 && s[0] == '@') {
		/* the part after the last '/' or '\\' (the first byte after '@'
		 * is never taken for one, as in LuaJIT) */
		int cut = chunk->n < chunk->len;
		size_t lo = cut ? chunk->head : 2;
		for (size_t i = n; i-- > lo;)
			if (s[i] == '/' || s[i] == '\\')
				return intern_get(strings, s + i + 1, n - i - 1);
		return cut ? intern_get(strings, s + chunk->head, n - chunk->head)
		           : intern_get(strings, s + 1, n - 1);
	}
	if (chunk->len > 40) {
		char buf[24];
		return intern_get(strings, buf, lj_pointer(buf, proto));
	}
	if (chunk->len > 0 && s[0] == '=')
		return intern_get(strings, s + 1, n - 1);
	char buf[48];
	buf[0] = '"';
	memcpy(buf + 1, s, n);
	buf[n + 1] = '"';
	return intern_get(strings, buf, n + 2);
}

static int by_addr(const void *x, const void *y)
{
	const struct sp_csym *a = x, *b = y;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return intern_cmp(a->name, b->name);
}

const char *sp_csym_find(struct sp_index *x, uint64_t addr)
{
	if (x->csym_sorted != x->ncsym) {
		qsort(x->csym, x->ncsym, sizeof(*x->csym), by_addr);
		x->csym_sorted = x->ncsym;
	}
	size_t lo = 0, hi = x->ncsym;       /* the last symbol at or below addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (x->csym[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? x->csym[lo - 1].name : NULL;
}

void sp_index_free(struct sp_index *x)
{
	if (!x)
		return;
	sp_map_free(&x->protos);
	sp_map_free(&x->traces);
	free(x->proto);
	free(x->csym);
	tally_free(&x->funcs_by);
	free(x->stamp);
	free(x->stack_slots);
	free(x);
}
