/* intern.h — one stable copy of each distinct string (file names, abort
 * reasons, link texts) for the whole run, so records hold plain pointers
 * and equal strings compare equal by pointer. */
#ifndef DUMPANALYZE_INTERN_H
#define DUMPANALYZE_INTERN_H

#include <stddef.h>
#include <stdint.h>
#include "util/arena.h"

struct intern {
	struct arena store;
	const char **slots;
	size_t nslots, count;
};

void intern_init(struct intern *t);
/* Returns a NUL-terminated copy that lives until intern_free(); the bytes
 * may themselves contain NUL, so use intern_len() for the length. */
const char *intern_get(struct intern *t, const char *s, size_t n);
size_t intern_len(const char *interned);
/* Bytewise order of two interned strings (NULL first), for sorting. */
int intern_cmp(const char *a, const char *b);
void intern_free(struct intern *t);

#endif
