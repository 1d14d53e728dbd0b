/* arena.h — bump allocator for per-generation records.
 * Everything allocated between two resets dies together, so the model never
 * frees single records; memory follows the size of one generation. */
#ifndef DUMPANALYZE_ARENA_H
#define DUMPANALYZE_ARENA_H

#include <stddef.h>
#include "util/alloc.h"

struct arena_chunk;

struct arena {
	struct arena_chunk *head;   /* newest chunk first */
	size_t chunk_size;
	size_t next_size;           /* of the next chunk: from 4 KiB, doubling
	                               up to chunk_size (a small dump takes
	                               little) */
	size_t used_bytes;          /* live bytes since the last reset */
};

void arena_init(struct arena *a, size_t chunk_size);
/* Zeroed memory aligned for any record (out of memory: see alloc.h). */
void *arena_alloc(struct arena *a, size_t size);
char *arena_strndup(struct arena *a, const char *s, size_t n);
/* Drop everything allocated so far, keeping one chunk for reuse.  Built
 * with -DDA_ARENA_POISON, the discarded bytes are overwritten first so a
 * dangling pointer shows up as garbage instead of as plausible data. */
void arena_reset(struct arena *a);
void arena_free(struct arena *a);


#endif
