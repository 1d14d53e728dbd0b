/* attempts.c — aborted attempts per start location or parent exit, and
 * where LuaJIT most likely gave up.  The dump never says so; this follows
 * LuaJIT's own rules (lj_trace.c, lj_record.c, defaults of 2.1):
 *   - a root trace start whose attempts abort gets a penalty that starts at
 *     PENALTY_MIN (72) and doubles (plus 0..15) on each abort; past
 *     PENALTY_MAX (60000) the bytecode is blacklisted: the 11th abort;
 *   - a side exit gets hotexit (10) + tryside (4) tries; after 4 aborted
 *     side traces LuaJIT compiles an "interpreter" stub for it;
 *   - a stitch whose trace aborts is blacklisted at once. */
#include <stdlib.h>
#include <string.h>
#include "analysis/attempts.h"
#include "util/intern.h"
#include "util/arena.h"

/* The key of an attempt: (file, NULL, line) for a root, (NULL, parent+1,
 * exit) for a side trace or stitch. */
static void key_of(const char *file, int32_t line, uint32_t parent, int32_t exit,
                   const void **a, const void **b, int64_t *c)
{
	if (exit == PARENT_EXIT_NONE) {
		*a = file;
		*b = NULL;
		*c = line;
	} else {
		*a = NULL;
		*b = (const void *)((uintptr_t)parent + 1);
		*c = exit;
	}
}

void attempts_abort(struct attempts *s, const struct da_abort *ab)
{
	if (!ab->start_file && ab->parent_exit == PARENT_EXIT_NONE)
		return;         /* an attempt whose start we never saw */
	const void *a, *b;
	int64_t k;
	key_of(ab->start_file, ab->start_line, ab->parent, ab->parent_exit, &a, &b, &k);
	size_t before = s->index.count;
	tally_add(&s->index, a, b, k, 1);
	if (s->index.count != before) {
		ALLOC_GROW(s->starts, s->n + 1, s->cap);
		struct start *st = &s->starts[s->n++];
		memset(st, 0, sizeof(*st));
		st->file = ab->start_file;
		st->line = ab->start_line;
		st->parent = ab->parent;
		st->exit = ab->parent_exit;
	}
	/* The entry's insertion order is its index. */
	uint64_t si = tally_find(&s->index, a, b, k)->first;
	struct start *st = &s->starts[si];
	st->attempts++;
	st->own_start = ab->start_line_no && ab->start_line_no != ab->line_no;
	st->last_reason = ab->reason;
	const char *why = ab->reason_normal ? ab->reason_normal : ab->reason;
	st->last_normal = why;
	tally_add(&s->reasons, why, NULL, (int64_t)si, 1);
	uint64_t n = tally_get(&s->reasons, why, NULL, (int64_t)si);
	if (n > st->main_attempts) {
		st->main_attempts = n;
		st->main_reason = why;
	}
	st->later = LATER_NO;
}

void attempts_trace(struct attempts *s, const struct da_trace *t)
{
	const void *a, *b;
	int64_t k;
	key_of(t->file, t->line, t->parent, t->parent_exit, &a, &b, &k);
	const struct tally_entry *e = tally_find(&s->index, a, b, k);
	if (e)
		s->starts[e->first].later = t->parent_exit >= 0 && t->link_kind == DA_LINK_INTERPRETER
		                            ? LATER_STUB : LATER_YES;
}

uint64_t attempts_threshold(const struct start *st)
{
	if (st->exit == PARENT_EXIT_NONE)
		return ROOT_ABORTS_TO_BLACKLIST;
	return st->exit == PARENT_EXIT_STITCH ? STITCH_ABORTS_TO_BLACKLIST : SIDE_ABORTS_TO_GIVE_UP;
}

static int by_attempts(const void *x, const void *y)
{
	const struct start *p = *(const struct start *const *)x, *q = *(const struct start *const *)y;
	int r;
	if (p->attempts != q->attempts)
		return p->attempts > q->attempts ? -1 : 1;
	if ((r = intern_cmp(p->file, q->file)) || (r = (p->line > q->line) - (p->line < q->line)) ||
	    (r = (p->parent > q->parent) - (p->parent < q->parent)))
		return r;
	return (p->exit > q->exit) - (p->exit < q->exit);
}

/* Starts at or past their threshold, most attempts first (caller frees). */
const struct start **attempts_given_up(const struct attempts *s, size_t *n)
{
	const struct start **rows = xrealloc(NULL, (s->n ? s->n : 1) * sizeof(*rows));
	*n = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->starts[i].attempts >= attempts_threshold(&s->starts[i]))
			rows[(*n)++] = &s->starts[i];
	qsort(rows, *n, sizeof(*rows), by_attempts);
	return rows;
}

void attempts_clear(struct attempts *s)
{
	tally_clear(&s->index);
	tally_clear(&s->reasons);
	s->n = 0;
}

void attempts_free(struct attempts *s)
{
	tally_free(&s->index);
	tally_free(&s->reasons);
	free(s->starts);
	memset(s, 0, sizeof(*s));
}
