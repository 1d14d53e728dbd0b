/* attempts.h — aborted attempts per start location or parent exit, and
 * which of them LuaJIT most likely gave up on (blacklisted root starts,
 * side exits left to an interpreter stub, failed stitches). */
#ifndef DUMPANALYZE_ATTEMPTS_H
#define DUMPANALYZE_ATTEMPTS_H

#include <stddef.h>
#include <stdint.h>
#include "model/model.h"
#include "util/tally.h"

#define ROOT_ABORTS_TO_BLACKLIST 11
#define SIDE_ABORTS_TO_GIVE_UP 4        /* JIT_P_tryside */
#define STITCH_ABORTS_TO_BLACKLIST 1

enum later { LATER_NO, LATER_YES, LATER_STUB };

struct start {
	const char *file;           /* root attempts */
	int32_t line;
	uint32_t parent;            /* side and stitch attempts */
	int32_t exit;               /* PARENT_EXIT_NONE for roots */
	uint64_t attempts;
	const char *last_reason;    /* as written */
	const char *last_normal;    /* the same, in its normal form */
	const char *main_reason;    /* the reason of most attempts, in its
	                               normal form (the first to get there on
	                               a tie) */
	uint64_t main_attempts;
	enum later later;           /* compiled after its last abort? */
	int own_start;              /* a start header of its own gave file:line
	                               (-jdump's "start 18/0 f.lua:55"; -jv
	                               writes the abort's place instead) */
};

struct attempts {
	struct tally index;         /* key -> first = index in starts */
	struct tally reasons;       /* (reason, NULL, start index) -> attempts */
	struct start *starts;
	size_t n, cap;
};

void attempts_abort(struct attempts *s, const struct da_abort *a);
void attempts_trace(struct attempts *s, const struct da_trace *t);
uint64_t attempts_threshold(const struct start *st);
const struct start **attempts_given_up(const struct attempts *s, size_t *n);
void attempts_clear(struct attempts *s);
void attempts_free(struct attempts *s);

#endif
