/* alloc.h — memory that is there or a way out: xrealloc, growable
 * arrays, and the catch that turns running out of memory into an error
 * return at the library's entry points instead of an exit. */
#ifndef DUMPANALYZE_ALLOC_H
#define DUMPANALYZE_ALLOC_H

#include <setjmp.h>
#include <stddef.h>

/* realloc that never returns NULL: out of memory, it jumps to the
 * innermost oom_catch of the thread. */
void *xrealloc(void *p, size_t size);
_Noreturn void out_of_memory(void);

/* A thread's catches form a stack.  Use:
 *     struct oom_catch c;
 *     oom_push(&c);
 *     if (setjmp(c.env)) { oom_pop(&c); return DA_ENOMEM; }
 *     ... work ...
 *     oom_pop(&c);
 * Whatever the work had allocated stays owned by its structures, which
 * are then only good for freeing. */
struct oom_catch {
	jmp_buf env;
	struct oom_catch *prev;
};
void oom_push(struct oom_catch *c);
void oom_pop(struct oom_catch *c);
/* fn(arg) under a catch of its own: 0, or -1 when it ran out of memory. */
int oom_call(void (*fn)(void *), void *arg);

/* Test builds (make check-asan, make fuzz): an array of at most
 * ALLOC_MOVE_MAX bytes moves at every ALLOC_GROW, room or not, so that a
 * pointer kept across a call that may grow it reads freed memory, which
 * AddressSanitizer reports, on the first small input instead of only at
 * the rare call that grows. */
#ifdef DA_ALLOC_MOVE
#define ALLOC_MOVE_MAX 65536
/* On unless a fuzz target turns it off for some of its inputs: the moves
 * cost fuzz_dump a quarter of its time (bench/RESULTS.md). */
extern int alloc_move_on;
void *alloc_move(void *p, size_t size);
#define ALLOC_TEST_MOVE(items, cap) do {                                    \
		if (alloc_move_on && (items) &&                              \
		    (size_t)(cap) * sizeof(*(items)) <= ALLOC_MOVE_MAX)       \
			(items) = alloc_move((items), (size_t)(cap) * sizeof(*(items))); \
	} while (0)
#else
#define ALLOC_TEST_MOVE(items, cap) do { } while (0)
#endif

/* Make room for n elements in the array items of cap (growing by half
 * again, and at least to n): the one growable-array helper.  What points
 * into items is stale after it: across a call that may grow an array,
 * keep an index into it, never a pointer. */
#define ALLOC_GROW(items, n, cap) do {                                      \
		if ((size_t)(n) > (size_t)(cap)) {                           \
			size_t c_ = (size_t)(cap) + (size_t)(cap) / 2 + 16;  \
			if (c_ < (size_t)(n))                                \
				c_ = (size_t)(n);                            \
			(items) = xrealloc((items), c_ * sizeof(*(items)));  \
			(cap) = c_;                                          \
		} else {                                                     \
			ALLOC_TEST_MOVE(items, cap);                         \
		}                                                            \
	} while (0)

#endif
