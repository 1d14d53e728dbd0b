/* strbuf.h — a growable byte string, always NUL-terminated once anything
 * was added (git's strbuf, in small): the one such buffer of the tree. */
#ifndef DA_UTIL_STRBUF_H
#define DA_UTIL_STRBUF_H

#include <stddef.h>
#include "util/compiler.h"

struct strbuf {
	char *buf;                  /* NULL until the first addition */
	size_t len, cap;
};

#define STRBUF_INIT { NULL, 0, 0 }

void strbuf_add(struct strbuf *sb, const void *s, size_t n);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) DA_PRINTF(2, 3);
void strbuf_release(struct strbuf *sb);

#endif
