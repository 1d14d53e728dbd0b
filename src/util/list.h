/* list.h — singly linked lists kept in order: the one append helper. */
#ifndef DUMPANALYZE_LIST_H
#define DUMPANALYZE_LIST_H

#include <stddef.h>

/* Append item to the list from head to last, linked by the member next,
 * in constant time: item becomes the last, its next NULL.  head and last
 * are both NULL for an empty list.  Arguments are evaluated more than
 * once: pass plain names or members, nothing with side effects. */
#define LIST_APPEND(head, last, item, next) do {                         \
		(item)->next = NULL;                                          \
		if (last)                                                     \
			(last)->next = (item);                                \
		else                                                          \
			(head) = (item);                                      \
		(last) = (item);                                              \
	} while (0)

#endif
