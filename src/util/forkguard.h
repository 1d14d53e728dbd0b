/* forkguard.h — fork() copies only the calling thread: a lock that another
 * thread holds at that moment stays held in the child for ever (ASan's
 * memory allocator has one, and the reading and writing threads allocate
 * and free memory).  So those threads do their work inside
 * fork_guard_enter() and fork_guard_leave(), and wait for input or for
 * work outside; fork_guarded() forks only while no thread is inside.
 * A thread's start and end take locks too (the runtime's thread registry,
 * freeing its caches): such threads are started with fork_guard_thread(),
 * which returns once the thread runs, and end only when joined, by the
 * thread that forks, which cannot fork meanwhile. */
#ifndef DUMPANALYZE_FORKGUARD_H
#define DUMPANALYZE_FORKGUARD_H

#include <pthread.h>
#include <stddef.h>
#include <sys/types.h>

void fork_guard_enter(void);
void fork_guard_leave(void);
/* fork(), once every thread is out; the child starts with the guard
 * open and no thread inside. */
pid_t fork_guarded(void);
/* pthread_create(t, NULL, fn, arg), returning once the thread has
 * started fn: 0, or pthread_create's error. */
int fork_guard_thread(pthread_t *t, void *(*fn)(void *), void *arg);

/* Memory that a forked child does not get (MADV_DONTFORK), for buffers
 * the parent keeps rewriting while workers draw: the input chunks and
 * the write queue's blocks.  Shared with a child, each page would be
 * copied at the parent's first write after every fork, and with threads
 * running each copy makes the other cores flush their TLBs.  The child
 * must not touch it.  Page-granular: for large buffers only.  Out of
 * memory ends the program, as xrealloc does. */
void *fork_private_alloc(size_t size);
/* Defined under AddressSanitizer, where that memory comes from the heap
 * (forkguard.c says why) and a child gets a copy. */
#if defined(__SANITIZE_ADDRESS__)
#define FORK_PRIVATE_HEAP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FORK_PRIVATE_HEAP 1
#endif
#endif
void fork_private_free(void *p, size_t size);

#endif
