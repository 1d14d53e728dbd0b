/* test_arena.c — the per-generation arena, string interning and tallies. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "util/arena.h"
#include "util/intern.h"
#include "util/tally.h"

#define ALIGN _Alignof(max_align_t)

/* ---- arena ------------------------------------------------------------ */

static void test_arena_memory_is_zeroed_and_aligned(void **s)
{
	(void)s;
	struct arena a;
	arena_init(&a, 1024);
	size_t total = 0;
	for (int i = 1; i < 200; i++) {
		unsigned char *p = arena_alloc(&a, (size_t)i);
		assert_non_null(p);
		assert_int_equal((uintptr_t)p % ALIGN, 0);
		for (int k = 0; k < i; k++)
			assert_int_equal(p[k], 0);
		memset(p, 0xff, (size_t)i);
		total += ((size_t)i + ALIGN - 1) / ALIGN * ALIGN;
	}
	assert_int_equal(a.used_bytes, total);
	arena_free(&a);
}

static void test_arena_allocations_do_not_overlap(void **s)
{
	(void)s;
	struct arena a;
	arena_init(&a, 256);
	unsigned char *p[100];
	for (int i = 0; i < 100; i++) {
		p[i] = arena_alloc(&a, 40);
		memset(p[i], i, 40);
	}
	for (int i = 0; i < 100; i++)
		for (int k = 0; k < 40; k++)
			assert_int_equal(p[i][k], i);
	arena_free(&a);
}

static void test_arena_allocation_larger_than_chunk(void **s)
{
	(void)s;
	struct arena a;
	arena_init(&a, 256);
	char *small1 = arena_alloc(&a, 16);
	unsigned char *big = arena_alloc(&a, 100000);
	assert_int_equal((uintptr_t)big % ALIGN, 0);
	for (size_t i = 0; i < 100000; i++)
		assert_int_equal(big[i], 0);
	memset(big, 'x', 100000);
	char *small2 = arena_alloc(&a, 16);
	memset(small2, 'y', 16);
	assert_true(small2 + 16 <= (char *)big || small2 >= (char *)big + 100000);
	assert_true(small1 + 16 <= (char *)big || small1 >= (char *)big + 100000);
	for (size_t i = 0; i < 100000; i++)
		assert_int_equal(big[i], 'x');
	assert_int_equal(a.used_bytes, 16 + 100000 + 16);
	arena_free(&a);
}

static void test_arena_reset_keeps_working_and_zeroes_again(void **s)
{
	(void)s;
	struct arena a;
	arena_init(&a, 4096);
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < 1000; i++) {
			unsigned char *p = arena_alloc(&a, 64);
			for (int k = 0; k < 64; k++)
				assert_int_equal(p[k], 0);    /* even in a reused chunk */
			memset(p, 0xee, 64);
		}
		arena_alloc(&a, 50000);                /* an oversized chunk too */
		assert_int_equal(a.used_bytes, 64000 + 50000);
		arena_reset(&a);
		assert_int_equal(a.used_bytes, 0);
		assert_int_equal(a.chunk_size, 4096);
	}
	char *p = arena_strndup(&a, "abcdef", 3);
	assert_string_equal(p, "abc");
	char *e = arena_strndup(&a, NULL, 0);
	assert_string_equal(e, "");
	arena_free(&a);
	assert_null(a.head);
}

static void test_arena_default_chunk_size(void **s)
{
	(void)s;
	struct arena a;
	arena_init(&a, 0);
	assert_int_equal(a.chunk_size, 64 * 1024);
	assert_null(a.head);
	assert_int_equal(a.used_bytes, 0);
	arena_free(&a);
}

/* ---- intern ----------------------------------------------------------- */

static void test_intern_equal_bytes_give_same_pointer(void **s)
{
	(void)s;
	struct intern t;
	intern_init(&t);
	char buf1[] = "standards.lua", buf2[] = "standards.lua";
	const char *a = intern_get(&t, buf1, strlen(buf1));
	const char *b = intern_get(&t, buf2, strlen(buf2));
	assert_ptr_equal(a, b);
	assert_ptr_not_equal(a, buf1);
	memset(buf1, 'Z', sizeof(buf1) - 1);
	assert_string_equal(a, "standards.lua");
	assert_int_equal(intern_len(a), 13);
	assert_int_equal(t.count, 1);
	intern_free(&t);
}

static void test_intern_different_bytes_give_different_pointers(void **s)
{
	(void)s;
	struct intern t;
	intern_init(&t);
	const char *a = intern_get(&t, "standards.lua", 13);
	const char *b = intern_get(&t, "standards.lu", 12);
	const char *c = intern_get(&t, "Standards.lua", 13);
	assert_ptr_not_equal(a, b);
	assert_ptr_not_equal(a, c);
	assert_ptr_not_equal(b, c);
	assert_string_equal(b, "standards.lu");
	assert_int_equal(intern_len(b), 12);
	assert_int_equal(t.count, 3);
	const char *e = intern_get(&t, "", 0);
	assert_int_equal(intern_len(e), 0);
	assert_string_equal(e, "");
	assert_ptr_equal(intern_get(&t, "", 0), e);
	intern_free(&t);
}

static void test_intern_len_counts_embedded_nul(void **s)
{
	(void)s;
	struct intern t;
	intern_init(&t);
	const char *a = intern_get(&t, "a\0b", 3);
	const char *b = intern_get(&t, "a\0c", 3);
	const char *c = intern_get(&t, "a", 1);
	assert_ptr_not_equal(a, b);
	assert_ptr_not_equal(a, c);
	assert_int_equal(intern_len(a), 3);
	assert_int_equal(intern_len(c), 1);
	assert_memory_equal(a, "a\0b", 4);      /* NUL-terminated after the bytes */
	assert_ptr_equal(intern_get(&t, "a\0b", 3), a);
	intern_free(&t);
}

static void test_intern_many_strings_survive_table_growth(void **s)
{
	(void)s;
	struct intern t;
	intern_init(&t);
	static const char *first[10000];
	char buf[32];
	for (int i = 0; i < 10000; i++) {
		int n = snprintf(buf, sizeof(buf), "file%d.lua", i);
		first[i] = intern_get(&t, buf, (size_t)n);
	}
	assert_int_equal(t.count, 10000);
	assert_true(t.nslots * 3 >= t.count * 4);
	for (int i = 0; i < 10000; i++) {
		int n = snprintf(buf, sizeof(buf), "file%d.lua", i);
		assert_ptr_equal(intern_get(&t, buf, (size_t)n), first[i]);
		assert_string_equal(first[i], buf);
		assert_int_equal(intern_len(first[i]), (size_t)n);
	}
	assert_int_equal(t.count, 10000);
	intern_free(&t);
}

static void test_intern_cmp_orders_bytewise_null_first(void **s)
{
	(void)s;
	struct intern t;
	intern_init(&t);
	const char *a = intern_get(&t, "a.lua", 5);
	const char *ab = intern_get(&t, "a.lua\0x", 7);
	const char *b = intern_get(&t, "b.lua", 5);
	assert_int_equal(intern_cmp(a, a), 0);
	assert_true(intern_cmp(a, b) < 0);
	assert_true(intern_cmp(b, a) > 0);
	assert_true(intern_cmp(a, ab) < 0);     /* a prefix sorts first */
	assert_true(intern_cmp(NULL, a) < 0);
	assert_true(intern_cmp(a, NULL) > 0);
	assert_int_equal(intern_cmp(NULL, NULL), 0);
	intern_free(&t);
}

/* ---- tally ------------------------------------------------------------ */

static void test_tally_add_count_and_first_order(void **s)
{
	(void)s;
	struct tally t;
	tally_init(&t);
	static const char x[] = "x", y[] = "y";
	tally_add(&t, y, NULL, 0, 1);
	tally_add(&t, x, NULL, 0, 1);
	tally_add(&t, y, NULL, 0, 2);
	tally_add(&t, x, y, 5, 1);
	tally_add(&t, x, y, 6, 4);
	tally_add(&t, x, y, 7, 0);               /* adding nothing creates nothing */
	assert_int_equal(t.count, 4);
	assert_int_equal(tally_get(&t, y, NULL, 0), 3);
	assert_int_equal(tally_get(&t, x, NULL, 0), 1);
	assert_int_equal(tally_get(&t, x, y, 5), 1);
	assert_int_equal(tally_get(&t, x, y, 6), 4);
	assert_int_equal(tally_get(&t, x, y, 7), 0);
	assert_int_equal(tally_get(&t, y, x, 5), 0);
	assert_null(tally_find(&t, x, y, 7));
	const struct tally_entry *e = tally_find(&t, y, NULL, 0);
	assert_non_null(e);
	assert_ptr_equal(e->a, y);
	assert_null(e->b);
	assert_int_equal(e->first, 0);
	assert_int_equal(tally_find(&t, x, NULL, 0)->first, 1);
	assert_int_equal(tally_find(&t, x, y, 5)->first, 2);
	assert_int_equal(tally_find(&t, x, y, 6)->first, 3);
	/* sorted: count descending, ties by first appearance */
	size_t n;
	struct tally_entry *all = tally_entries(&t, &n);
	assert_int_equal(n, 4);
	qsort(all, n, sizeof(*all), tally_by_count);
	assert_int_equal(all[0].count, 4);
	assert_int_equal(all[0].c, 6);
	assert_int_equal(all[1].count, 3);
	assert_ptr_equal(all[1].a, y);
	assert_int_equal(all[2].count, 1);
	assert_ptr_equal(all[2].a, x);
	assert_null(all[2].b);                  /* first seen before (x, y, 5) */
	assert_int_equal(all[3].c, 5);
	free(all);
	tally_free(&t);
}

static void test_tally_empty_has_nothing(void **s)
{
	(void)s;
	struct tally t;
	tally_init(&t);
	assert_int_equal(tally_get(&t, "a", NULL, 0), 0);
	assert_null(tally_find(&t, "a", NULL, 0));
	size_t n = 99;
	struct tally_entry *e = tally_entries(&t, &n);
	assert_int_equal(n, 0);
	free(e);
	tally_free(&t);
}

static void test_tally_growth_past_1000_keys(void **s)
{
	(void)s;
	struct tally t;
	tally_init(&t);
	static const char k[] = "k";
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < 5000; i++)
			tally_add(&t, k, NULL, i, 1);
	assert_int_equal(t.count, 5000);
	for (int i = 0; i < 5000; i++) {
		assert_int_equal(tally_get(&t, k, NULL, i), 3);
		assert_int_equal(tally_find(&t, k, NULL, i)->first, (uint64_t)i);
	}
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

static void test_tally_clear_empties_and_restarts_order(void **s)
{
	(void)s;
	struct tally t;
	tally_init(&t);
	static const char k[] = "k";
	for (int i = 0; i < 2000; i++)
		tally_add(&t, k, NULL, i, 2);
	tally_clear(&t);
	assert_int_equal(t.count, 0);
	assert_int_equal(tally_get(&t, k, NULL, 5), 0);
	size_t n;
	struct tally_entry *e = tally_entries(&t, &n);
	assert_int_equal(n, 0);
	free(e);
	tally_add(&t, k, NULL, 1999, 1);
	assert_int_equal(tally_get(&t, k, NULL, 1999), 1);
	assert_int_equal(tally_find(&t, k, NULL, 1999)->first, 0);
	assert_int_equal(t.count, 1);
	tally_free(&t);
	assert_null(t.slots);
	assert_int_equal(t.count, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arena_memory_is_zeroed_and_aligned),
		cmocka_unit_test(test_arena_allocations_do_not_overlap),
		cmocka_unit_test(test_arena_allocation_larger_than_chunk),
		cmocka_unit_test(test_arena_reset_keeps_working_and_zeroes_again),
		cmocka_unit_test(test_arena_default_chunk_size),
		cmocka_unit_test(test_intern_equal_bytes_give_same_pointer),
		cmocka_unit_test(test_intern_different_bytes_give_different_pointers),
		cmocka_unit_test(test_intern_len_counts_embedded_nul),
		cmocka_unit_test(test_intern_many_strings_survive_table_growth),
		cmocka_unit_test(test_intern_cmp_orders_bytewise_null_first),
		cmocka_unit_test(test_tally_add_count_and_first_order),
		cmocka_unit_test(test_tally_empty_has_nothing),
		cmocka_unit_test(test_tally_growth_past_1000_keys),
		cmocka_unit_test(test_tally_clear_empties_and_restarts_order),
	};
	return cmocka_run_group_tests_name("arena", tests, NULL, NULL);
}
