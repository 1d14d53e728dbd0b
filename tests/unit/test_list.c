/* test_list.c — LIST_APPEND keeps a singly linked list in order. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "util/list.h"

struct item {
	int value;
	struct item *next;
};

static void test_append_keeps_order(void **s)
{
	(void)s;
	struct item it[3] = { { 10, NULL }, { 20, NULL }, { 30, NULL } };
	struct item *head = NULL, *last = NULL;
	LIST_APPEND(head, last, &it[0], next);
	assert_ptr_equal(head, &it[0]);
	assert_ptr_equal(last, &it[0]);
	LIST_APPEND(head, last, &it[1], next);
	LIST_APPEND(head, last, &it[2], next);
	assert_ptr_equal(head, &it[0]);
	assert_ptr_equal(last, &it[2]);
	int seen[4] = { 0 }, n = 0;
	for (const struct item *i = head; i && n < 4; i = i->next)
		seen[n++] = i->value;
	assert_int_equal(n, 3);
	assert_int_equal(seen[0], 10);
	assert_int_equal(seen[1], 20);
	assert_int_equal(seen[2], 30);
}

/* An item that was linked elsewhere before ends the list all the same. */
static void test_append_clears_a_stale_link(void **s)
{
	(void)s;
	struct item other = { 99, NULL };
	struct item a = { 1, &other }, b = { 2, &other };
	struct item *head = NULL, *last = NULL;
	LIST_APPEND(head, last, &a, next);
	assert_null(a.next);
	LIST_APPEND(head, last, &b, next);
	assert_ptr_equal(a.next, &b);
	assert_null(b.next);
	assert_ptr_equal(head, &a);
	assert_ptr_equal(last, &b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_append_keeps_order),
		cmocka_unit_test(test_append_clears_a_stale_link),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
