/* arena.c — bump allocator; see arena.h. */
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "util/arena.h"

/* What a reset discards is made unreadable to the memory checkers: ASan
 * (the library built with -fsanitize=address) and valgrind's memcheck, so
 * that a record read after its lifetime (dumpanalyze.h) is reported where
 * it happens.  Outside them these cost nothing. */
#if defined(__SANITIZE_ADDRESS__)
#define ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ASAN 1
#endif
#endif
#ifdef ARENA_ASAN
#include <sanitizer/asan_interface.h>
#define HIDE(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define SHOW(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#elif defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define HIDE(p, n) ((void)VALGRIND_MAKE_MEM_NOACCESS((p), (n)))
#define SHOW(p, n) ((void)VALGRIND_MAKE_MEM_UNDEFINED((p), (n)))
#endif
#endif
#ifndef HIDE
#define HIDE(p, n) ((void)(p), (void)(n))
#define SHOW(p, n) ((void)(p), (void)(n))
#endif

struct arena_chunk {
	struct arena_chunk *next;
	size_t size, used;
	max_align_t data[];
};

void arena_init(struct arena *a, size_t chunk_size)
{
	a->head = NULL;
	a->chunk_size = chunk_size ? chunk_size : 64 * 1024;
	a->next_size = a->chunk_size < 4096 ? a->chunk_size : 4096;
	a->used_bytes = 0;
}

void *arena_alloc(struct arena *a, size_t size)
{
	const size_t align = _Alignof(max_align_t);
	size = (size + align - 1) & ~(align - 1);
	struct arena_chunk *c = a->head;
	if (!c || c->size - c->used < size) {
		size_t cap = size > a->next_size ? size : a->next_size;
		if (a->next_size < a->chunk_size)
			a->next_size = a->next_size * 2 < a->chunk_size ? a->next_size * 2
			                                                 : a->chunk_size;
		c = xrealloc(NULL, sizeof(*c) + cap);
		c->size = cap;
		c->used = 0;
		c->next = a->head;
		a->head = c;
		HIDE(c->data, cap);
	}
	void *p = (char *)c->data + c->used;
	SHOW(p, size);
	c->used += size;
	a->used_bytes += size;
	memset(p, 0, size);
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	if (n)
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void arena_reset(struct arena *a)
{
	struct arena_chunk *keep = NULL;
	struct arena_chunk *c = a->head;
	while (c) {
		struct arena_chunk *next = c->next;
#ifdef DA_ARENA_POISON
		memset(c->data, 0xa5, c->used);
#endif
		/* Keep one chunk of the standard size: the next generation
		 * needs it anyway. */
		if (!keep && c->size == a->chunk_size) {
			keep = c;
			HIDE(keep->data, keep->used);
			keep->used = 0;
			keep->next = NULL;
		} else {
			free(c);
		}
		c = next;
	}
	a->head = keep;
	a->used_bytes = 0;
}

void arena_free(struct arena *a)
{
	arena_reset(a);
	free(a->head);
	a->head = NULL;
}
