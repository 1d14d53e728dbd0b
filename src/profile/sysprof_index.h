/* sysprof_index.h — a sysprof stream's symbol tables as read so far:
 * prototypes by address (a later record for an address replaces the
 * earlier one: the function there was collected and another loaded),
 * C symbols by address (the one at or below a return address), the newest
 * trace record of each trace number; and the names a dump gives them. */
#ifndef DUMPANALYZE_SYSPROF_INDEX_H
#define DUMPANALYZE_SYSPROF_INDEX_H

#include <stddef.h>
#include <stdint.h>
#include "profile/sysprof_read.h"
#include "util/intern.h"
#include "util/tally.h"

#define SP_NONE UINT32_MAX

/* A map from 64-bit keys to 32-bit values (open addressing). */
struct sp_map {
	uint64_t *keys;
	uint32_t *vals;
	size_t nslots, count;
};
void sp_map_set(struct sp_map *m, uint64_t key, uint32_t val);
uint32_t sp_map_get(const struct sp_map *m, uint64_t key);      /* SP_NONE when absent */
void sp_map_free(struct sp_map *m);

struct sp_proto {
	const char *name;           /* interned: the chunk as a dump names it */
	const char *frame;          /* interned: "name:line", or the name of a builtin */
	int32_t line;               /* defining line, -1 for a builtin */
	uint32_t func;              /* index in the profile's funcs */
};

struct sp_csym {
	uint64_t addr;
	const char *name;           /* interned */
};

struct sp_index {
	struct sp_map protos;       /* address -> index in proto */
	struct sp_proto *proto;
	size_t nproto, proto_cap;
	struct sp_csym *csym;
	size_t ncsym, csym_cap, csym_sorted;    /* csym[0..csym_sorted) in order */
	struct sp_map traces;       /* trace number -> newest record's index */
	struct tally funcs_by;      /* (name, NULL, line) -> first: index in funcs */
	uint64_t *stamp;            /* per func: the last sample counted on its stack */
	size_t stamp_cap;
	uint32_t *stack_slots;      /* folded stacks by hash: index + 1, 0 empty */
	size_t nstack_slots;
};

/* The chunk name as LuaJIT's dump writes it (lj_debug_pushloc): a file
 * "@path" by its base name, a name longer than 40 bytes by the
 * prototype's address ("0x7f..."), "=name" as name, any other in double
 * quotes; *builtin for a builtin's line (~0). */
const char *sp_chunk_name(struct intern *strings, const struct sp_str *chunk, uint64_t proto,
                          uint64_t line, int *builtin);
/* A line of the stream as a dump's (-1 when none: a builtin's, or too large). */
int32_t sp_line(uint64_t line);

/* The slot of key in a table of nslots (a power of two), for the open
 * addressing of the maps and of sysprof.c's stacks. */
size_t sp_slot_of(uint64_t key, size_t nslots);

/* The C symbol at or below addr, or NULL. */
const char *sp_csym_find(struct sp_index *x, uint64_t addr);
void sp_index_free(struct sp_index *x);

#endif
