/* reason_advice.h — one line of what an abort means and what to try, from the
 * catalogue (explain.h), for summary.txt and the report. */
#ifndef DUMPANALYZE_REASON_ADVICE_H
#define DUMPANALYZE_REASON_ADVICE_H

#include <stddef.h>

/* "NYIBC: <meaning>. Try: <fix>" for a normal reason and its error name
 * (a known NYI bytecode: "NYIBC: <its meaning>. DA203 (name, severity):
 * <why>", its rule's words, which fit every build)
 * (NULL for an unknown message: "not a LuaJIT abort message ...") into
 * buf, NUL-terminated and cut to fit.  Returns the length written. */
size_t advice_line(const char *normal, size_t len, const char *error, char *buf, size_t cap);

#endif
