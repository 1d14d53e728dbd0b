/* termtext.h — a name read from a file (a chunk name, a reason, a file
 * name), fit to be shown to a person: on a terminal, in a CI log, in a
 * text file opened in an editor.  The one rule every human-facing output
 * of the tool goes through (the summary on stdout and in summary.txt,
 * problems.txt and --format=gcc, --annotate, --compare's text, messages
 * on stderr): control characters, bidirectional controls and bytes that
 * are not UTF-8 are written as escapes, so that a name can neither move
 * the cursor, recolour or retitle the terminal, reorder what is shown
 * around it, nor start a line of its own (a forged "FAIL:", "::error::"
 * or "::add-mask::": GitHub's runner splits lines at a lone CR too). */
#ifndef DUMPANALYZE_TERMTEXT_H
#define DUMPANALYZE_TERMTEXT_H

#include <stddef.h>
#include <stdio.h>

/* The rule, byte for byte:
 *   tab, newline, carriage return  -> \t \n \r
 *   other C0 controls, DEL          -> \xHH (BEL: \x07, ESC: \x1b)
 *   C1 controls U+0080..U+009F      -> \xc2\xHH (8-bit CSI is \xc2\x9b)
 *   a byte not part of valid UTF-8  -> \xHH
 *   U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069 (bidirectional
 *   controls) and U+2028, U+2029 (line and paragraph separators)
 *                                   -> \uHHHH (RLO: \u202e)
 *   everything else, a backslash too, as it is: the escapes are for the
 *   eye, not to be undone. */

/* With TERM_KEEP_LINES, CR and LF are left as they are, for a caller
 * that encodes them its own way (--annotate: %0D, %0A); with
 * TERM_KEEP_TABS a tab is, for source text shown as it is indented. */
enum { TERM_KEEP_LINES = 1, TERM_KEEP_TABS = 2 };

/* A malloc'd copy of s[0..n) escaped by the rule (and flags). */
char *term_textn_flags(const char *s, size_t n, int flags);
char *term_textn(const char *s, size_t n);
/* The same of a string. */
char *term_text(const char *s);
/* s[0..n) escaped by the rule (and flags) onto fp. */
void term_putn_flags(FILE *fp, const char *s, size_t n, int flags);
void term_putn(FILE *fp, const char *s, size_t n);
/* The same of a string; NULL writes nothing. */
void term_puts(FILE *fp, const char *s);

#endif
