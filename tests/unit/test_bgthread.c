/* test_bgthread.c — a thread started once, at the first need, running
 * before its start returns and until joined; or none, and the caller
 * told to do the work. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include "util/bgthread.h"
#include "threads.h"

/* What the thread saw and did; it ends when told to. */
struct worker {
	struct bgthread t;
	atomic_int calls;           /* times fn was entered */
	atomic_int saw_running;     /* t.running as the thread read it */
	atomic_int stop;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	atomic_store(&w->saw_running, w->t.running);
	atomic_fetch_add(&w->calls, 1);
	while (!atomic_load(&w->stop))
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	return NULL;
}

/* Until fn was entered once, 10 s at most. */
static void wait_for_call(struct worker *w)
{
	for (int i = 0; i < 10000 && atomic_load(&w->calls) == 0; i++)
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	assert_int_equal(atomic_load(&w->calls), 1);
}

static void test_first_start_starts_one_thread_until_joined(void **s)
{
	(void)s;
	struct worker w;
	memset(&w, 0, sizeof(w));
	int before = threads_now();
	assert_int_equal(bgthread_start(&w.t, work, &w), 0);
	assert_int_equal(w.t.running, 1);
	assert_int_equal(threads_now(), before + 1);
	/* later starts find it running and start no other */
	assert_int_equal(bgthread_start(&w.t, work, &w), 0);
	assert_int_equal(bgthread_start(&w.t, work, &w), 0);
	wait_for_call(&w);
	assert_int_equal(threads_now(), before + 1);
	/* the thread knows it runs: input's reading thread leaves the fork
	 * guard around its waits by that */
	assert_int_equal(atomic_load(&w.saw_running), 1);
	atomic_store(&w.stop, 1);
	bgthread_join(&w.t);
	assert_int_equal(w.t.running, 0);
	assert_int_equal(threads_now(), before);
	/* joined, it is not started again: the work is now the caller's */
	assert_int_equal(bgthread_start(&w.t, work, &w), -1);
	assert_int_equal(threads_now(), before);
	assert_int_equal(atomic_load(&w.calls), 1);
	bgthread_join(&w.t);        /* nothing to join: no effect */
	assert_int_equal(threads_now(), before);
}

static void test_forgone_thread_never_starts(void **s)
{
	(void)s;
	struct worker w;
	memset(&w, 0, sizeof(w));
	int before = threads_now();
	bgthread_forgo(&w.t);
	assert_int_equal(bgthread_start(&w.t, work, &w), -1);
	assert_int_equal(bgthread_start(&w.t, work, &w), -1);
	assert_int_equal(w.t.running, 0);
	/* no thread exists that could call fn, now or later */
	assert_int_equal(threads_now(), before);
	assert_int_equal(atomic_load(&w.calls), 0);
	bgthread_join(&w.t);
	assert_int_equal(threads_now(), before);
}

static void *nothing(void *arg)
{
	return arg;
}

/* ThreadSanitizer starts a thread of its own with a process's first
 * one: one started and joined first keeps it out of the counts. */
static int first_thread(void **s)
{
	(void)s;
	pthread_t t;
	if (pthread_create(&t, NULL, nothing, NULL) != 0)
		return -1;
	return pthread_join(t, NULL) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_start_starts_one_thread_until_joined),
		cmocka_unit_test(test_forgone_thread_never_starts),
	};
	return cmocka_run_group_tests_name("bgthread", tests, first_thread, NULL);
}
