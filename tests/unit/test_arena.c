/* test_arena.c — the arena, string interning and tallies. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "dumpanalyze/arena.h"
#include "dumpanalyze/intern.h"
#include "dumpanalyze/tally.h"

static void test_arena_memory_is_zeroed_and_aligned(void **s)
{
	(void)s;
	struct arena a;
	arena_init(&a, 1024);
	for (int i = 1; i < 200; i++) {
		unsigned char *p = arena_alloc(&a, (size_t)i);
		assert_int_equal((uintptr_t)p % _Alignof(max_align_t), 0);
		for (int k = 0; k < i; k++)
			assert_int_equal(p[k], 0);
		memset(p, 0xff, (size_t)i);
	}
	arena_free(&a);
}

static void test_arena_allocation_larger_than_chunk(void **s)
{
	(void)s;
	struct arena a;
	arena_init(&a, 256);
	char *big = arena_alloc(&a, 100000);
	memset(big, 'x', 100000);
	char *small = arena_alloc(&a, 16);
	assert_ptr_not_equal(small, big);
	assert_int_equal(a.used_bytes, 100000 + 16);
	arena_free(&a);
}

static void test_arena_reset_reuses_memory(void **s)
{
	(void)s;
	struct arena a;
	arena_init(&a, 4096);
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < 1000; i++)
			arena_alloc(&a, 64);
		assert_int_equal(a.used_bytes, 64000);
		arena_reset(&a);
		assert_int_equal(a.used_bytes, 0);
	}
	char *p = arena_strndup(&a, "abcdef", 3);
	assert_string_equal(p, "abc");
	arena_free(&a);
}

static void test_intern_equal_bytes_same_pointer(void **s)
{
	(void)s;
	struct intern t;
	intern_init(&t);
	char buf1[] = "standards.lua", buf2[] = "standards.lua";
	const char *a = intern_get(&t, buf1, strlen(buf1));
	const char *b = intern_get(&t, buf2, strlen(buf2));
	const char *c = intern_get(&t, "standards.lu", 12);
	assert_ptr_equal(a, b);
	assert_ptr_not_equal(a, c);
	assert_string_equal(a, "standards.lua");
	assert_int_equal(intern_len(a), 13);
	const char *e = intern_get(&t, "", 0);
	assert_int_equal(intern_len(e), 0);
	intern_free(&t);
}

static void test_intern_keeps_embedded_nul(void **s)
{
	(void)s;
	struct intern t;
	intern_init(&t);
	const char *a = intern_get(&t, "a\0b", 3);
	const char *b = intern_get(&t, "a\0c", 3);
	assert_ptr_not_equal(a, b);
	assert_int_equal(intern_len(a), 3);
	assert_memory_equal(a, "a\0b", 3);
	intern_free(&t);
}

static void test_intern_survives_growth(void **s)
{
	(void)s;
	struct intern t;
	intern_init(&t);
	const char *first[10000];
	char buf[32];
	for (int i = 0; i < 10000; i++) {
		int n = snprintf(buf, sizeof(buf), "file%d.lua", i);
		first[i] = intern_get(&t, buf, (size_t)n);
	}
	assert_int_equal(t.count, 10000);
	for (int i = 0; i < 10000; i++) {
		int n = snprintf(buf, sizeof(buf), "file%d.lua", i);
		assert_ptr_equal(intern_get(&t, buf, (size_t)n), first[i]);
		assert_string_equal(first[i], buf);
	}
	intern_free(&t);
}

static void test_tally_counts_and_first_order(void **s)
{
	(void)s;
	struct tally t;
	tally_init(&t);
	static const char x[] = "x", y[] = "y";
	tally_add(&t, y, NULL, 0, 1);
	tally_add(&t, x, NULL, 0, 1);
	tally_add(&t, y, NULL, 0, 2);
	tally_add(&t, x, y, 5, 1);
	tally_add(&t, x, y, 6, 1);
	size_t n;
	struct tally_entry *e = tally_entries(&t, &n);
	assert_int_equal(n, 4);
	for (size_t i = 0; i < n; i++) {
		if (e[i].a == y && e[i].b == NULL) {
			assert_int_equal(e[i].count, 3);
			assert_int_equal(e[i].first, 0);
		} else if (e[i].a == x && e[i].b == NULL) {
			assert_int_equal(e[i].count, 1);
			assert_int_equal(e[i].first, 1);
		} else {
			assert_ptr_equal(e[i].b, y);
			assert_int_equal(e[i].count, 1);
		}
	}
	free(e);
	tally_clear(&t);
	e = tally_entries(&t, &n);
	assert_int_equal(n, 0);
	free(e);
	tally_free(&t);
}

static void test_tally_growth(void **s)
{
	(void)s;
	struct tally t;
	tally_init(&t);
	static const char k[] = "k";
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < 5000; i++)
			tally_add(&t, k, NULL, i, 1);
	size_t n;
	struct tally_entry *e = tally_entries(&t, &n);
	assert_int_equal(n, 5000);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(e[i].count, 3);
		assert_int_equal(e[i].first, (uint64_t)e[i].c);
	}
	free(e);
	tally_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arena_memory_is_zeroed_and_aligned),
		cmocka_unit_test(test_arena_allocation_larger_than_chunk),
		cmocka_unit_test(test_arena_reset_reuses_memory),
		cmocka_unit_test(test_intern_equal_bytes_same_pointer),
		cmocka_unit_test(test_intern_keeps_embedded_nul),
		cmocka_unit_test(test_intern_survives_growth),
		cmocka_unit_test(test_tally_counts_and_first_order),
		cmocka_unit_test(test_tally_growth),
	};
	return cmocka_run_group_tests_name("arena", tests, NULL, NULL);
}
