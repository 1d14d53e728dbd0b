/* family.h — chunk families: thousands of chunks that one loader names
 * with a counter (lua-resty-template's "tpl-1" ... "tpl-20000" from
 * loadstring) are one family, so that roll-ups and top lists show one
 * row for them.  The rule: a name's last run of digits, when it ends the
 * name (before a closing '"' of a quoted name) and something other than
 * digits comes before it, is replaced by '*': "tpl-17" -> "tpl-*",
 * "\"tpl-17\"" -> "\"tpl-*\"".  A family of one chunk is shown by the
 * chunk's own name. */
#ifndef DUMPANALYZE_SOURCE_FAMILY_H
#define DUMPANALYZE_SOURCE_FAMILY_H

#include <stddef.h>

/* The family's name into buf (at most n bytes plus one): its length, or
 * 0 when the name has no counter (it is its own family) or is too long. */
size_t chunk_family(const char *name, size_t n, char *buf, size_t cap);

#endif
