/* test_forkguard.c — fork() only while no thread is inside the guard, and
 * children that can use the guard and the allocator afterwards. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <cmocka.h>
#include "util/forkguard.h"

/* Forks per test, and how long they may take before the test counts as
 * hung: under valgrind each child's exit is a leak check of the whole
 * process, 0.1-0.4 s, on a machine that may be busy. */
enum { FORKS = 40, HANG_SECONDS = 180 };

static atomic_int events, left_at, entered;

/* Inside the guard for 0.2 s, long enough for the fork to be asked for
 * while it is inside (said by `entered`, not assumed after a delay). */
static void *inside_for_a_while(void *arg)
{
	(void)arg;
	fork_guard_enter();
	atomic_store(&entered, 1);
	nanosleep(&(struct timespec){ 0, 200 * 1000000 }, NULL);
	atomic_store(&left_at, atomic_fetch_add(&events, 1) + 1);
	fork_guard_leave();
	return NULL;
}

static void reap_ok(pid_t pid)
{
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static void test_fork_waits_for_the_thread_inside(void **s)
{
	(void)s;
	pthread_t t;
	atomic_store(&left_at, 0);
	atomic_store(&entered, 0);
	assert_int_equal(pthread_create(&t, NULL, inside_for_a_while, NULL), 0);
	while (!atomic_load(&entered))          /* until it is inside */
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	pid_t pid = fork_guarded();
	if (pid == 0)
		_exit(0);
	int forked_at = atomic_fetch_add(&events, 1) + 1;
	assert_true(pid > 0);
	/* the thread had left before the fork returned */
	assert_true(atomic_load(&left_at) > 0);
	assert_true(forked_at > atomic_load(&left_at));
	reap_ok(pid);
	pthread_join(t, NULL);
}

/* Threads that allocate inside the guard, forks all the while: each child
 * allocates and uses the guard itself, and must exit (a lock inherited
 * held would hang it; SIGALRM ends the test then). */
static atomic_int stop;

static void *allocating(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		fork_guard_enter();
		for (int i = 0; i < 64; i++)
			free(malloc((size_t)(16 + i * 997)));
		fork_guard_leave();
	}
	return NULL;
}

static void test_children_of_busy_threads_run(void **s)
{
	(void)s;
	pthread_t t[2];
	atomic_store(&stop, 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, allocating, NULL), 0);
	alarm(HANG_SECONDS);
	for (int i = 0; i < FORKS; i++) {
		pid_t pid = fork_guarded();
		assert_true(pid >= 0);
		if (pid == 0) {
			fork_guard_enter();
			free(malloc(100000));
			fork_guard_leave();
			_exit(0);
		}
		reap_ok(pid);
	}
	alarm(0);
	atomic_store(&stop, 1);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
}

/* The pattern of the program: a thread started, a fork while it works,
 * a child that starts and joins a thread of its own, then the parent
 * joins its thread; over and over (a lock inherited held would hang a
 * child; SIGALRM ends the test then). */
static void *child_thread(void *arg)
{
	(void)arg;
	fork_guard_enter();
	free(malloc(5000));
	fork_guard_leave();
	return NULL;
}

static void test_threads_started_and_joined_around_forks(void **s)
{
	(void)s;
#ifdef __SANITIZE_THREAD__
	skip();         /* TSan cannot follow a child that starts a thread */
#endif
	alarm(HANG_SECONDS);
	for (int i = 0; i < FORKS; i++) {
		pthread_t t;
		atomic_store(&stop, 0);
		assert_int_equal(fork_guard_thread(&t, allocating, NULL), 0);
		pid_t pid = fork_guarded();
		assert_true(pid >= 0);
		if (pid == 0) {
			pthread_t c;
			if (fork_guard_thread(&c, child_thread, NULL) != 0)
				_exit(1);
			pthread_join(c, NULL);
			_exit(0);
		}
		atomic_store(&stop, 1);
		pthread_join(t, NULL);
		reap_ok(pid);
	}
	alarm(0);
}

/* Fork-private memory is the parent's alone: a child that touches it
 * dies of SIGSEGV, while the parent keeps it with its bytes.  Under
 * AddressSanitizer it comes from the heap (forkguard.c): the child's
 * write goes to its own copy. */
#ifdef FORK_PRIVATE_HEAP
#define HEAP_COPY 1
#endif
#ifndef HEAP_COPY
#define HEAP_COPY 0
#endif
static void test_fork_private_memory_stays_in_the_parent(void **s)
{
	(void)s;
	size_t size = 256 * 1024;
	char *p = fork_private_alloc(size);
	memset(p, 'a', size);
	fflush(NULL);
	pid_t pid = fork_guarded();
	assert_true(pid >= 0);
	if (pid == 0) {
		signal(SIGSEGV, SIG_DFL);       /* not a sanitizer's report */
		*(volatile char *)p = 'b';
		_exit(0);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (HEAP_COPY) {
		assert_true(WIFEXITED(st));
		assert_int_equal(WEXITSTATUS(st), 0);
	} else {
		assert_true(WIFSIGNALED(st));
		assert_int_equal(WTERMSIG(st), SIGSEGV);
	}
	assert_int_equal(p[0], 'a');
	assert_int_equal(p[size - 1], 'a');
	fork_private_free(p, size);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fork_waits_for_the_thread_inside),
		cmocka_unit_test(test_children_of_busy_threads_run),
		cmocka_unit_test(test_threads_started_and_joined_around_forks),
		cmocka_unit_test(test_fork_private_memory_stays_in_the_parent),
	};
	return cmocka_run_group_tests_name("forkguard", tests, NULL, NULL);
}
