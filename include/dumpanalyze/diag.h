/* diag.h — diagnostics about the input (warnings with file:line) and the
 * one-line fatal errors of the tool. */
#ifndef DUMPANALYZE_DIAG_H
#define DUMPANALYZE_DIAG_H

#include <stdint.h>

#define DIAG_PRINT_LIMIT 20     /* warnings printed before going quiet */

struct diag {
	const char *file;           /* dump name as the user gave it */
	uint64_t warnings;
	int strict;                 /* the first warning is fatal */
	int verbose;
	int quiet;
	int failed;                 /* set by a warning under strict */
};

void diag_init(struct diag *d, const char *file);
#if defined(__GNUC__)
#define DA_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define DA_PRINTF(a, b)
#endif
/* "FILE:LINE: warning: ...": counted always, printed up to the limit.
 * Returns -1 when strict mode turns it fatal, else 0. */
int diag_warn(struct diag *d, uint64_t line, const char *fmt, ...) DA_PRINTF(3, 4);
/* "FILE:LINE: ..." only with --verbose. */
void diag_verbose(struct diag *d, uint64_t line, const char *fmt, ...) DA_PRINTF(3, 4);
/* "dumpanalyze: ..." on stderr. */
void da_error(const char *fmt, ...) DA_PRINTF(1, 2);

#endif
