/* alloc.c — xrealloc and the out-of-memory catch; see alloc.h. */
#include <stdlib.h>
#include <string.h>
#include "util/alloc.h"

/* Per thread: the reading thread has catches of its own. */
static _Thread_local struct oom_catch *oom_top;

void oom_push(struct oom_catch *c)
{
	c->prev = oom_top;
	oom_top = c;
}

void oom_pop(struct oom_catch *c)
{
	oom_top = c->prev;
}

int oom_call(void (*fn)(void *), void *arg)
{
	struct oom_catch c;
	oom_push(&c);
	if (setjmp(c.env))
		return -1;
	fn(arg);
	oom_pop(&c);
	return 0;
}

_Noreturn void out_of_memory(void)
{
	struct oom_catch *c = oom_top;
	if (c) {
		oom_top = c->prev;
		longjmp(c->env, 1);
	}
	/* Every entry point of the library and the tool's main hold a
	 * catch: this is a bug, not a condition. */
	abort();
}

void *xrealloc(void *p, size_t size)
{
	void *q = realloc(p, size ? size : 1);
	if (!q)
		out_of_memory();
	return q;
}

#ifdef DA_ALLOC_MOVE
int alloc_move_on = 1;

void *alloc_move(void *p, size_t size)
{
	void *q = xrealloc(NULL, size);
	memcpy(q, p, size);
	free(p);
	return q;
}
#endif
