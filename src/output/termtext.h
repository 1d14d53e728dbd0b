/* termtext.h — a name read from a file (a chunk name, a reason, a file
 * name), fit to be printed on a terminal or a CI log: control characters
 * and bytes that are not UTF-8 are written as escapes, so that the name
 * can neither move the cursor, recolour or retitle the terminal, nor start
 * a line of its own (a forged "FAIL:" or "::error::"). */
#ifndef DUMPANALYZE_TERMTEXT_H
#define DUMPANALYZE_TERMTEXT_H

#include <stddef.h>

/* A malloc'd copy of s[0..n): tab, newline and carriage return as \t, \n,
 * \r; the other C0 controls, DEL, C1 controls (U+0080..U+009F) and each
 * byte of a sequence that is not UTF-8 as \xHH; everything else as it
 * is (a backslash too: the escapes are for the eye, not to be undone). */
char *term_textn(const char *s, size_t n);
/* The same of a string. */
char *term_text(const char *s);

#endif
