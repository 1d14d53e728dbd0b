/* diag.h — problems in the input (warnings with file:line), counted and
 * handed to the caller's da_diag_fn: the library itself prints nothing. */
#ifndef DUMPANALYZE_DIAG_H
#define DUMPANALYZE_DIAG_H

#include <stdint.h>
#include "dumpanalyze.h"
#include "util/compiler.h"

struct diag {
	const char *file;           /* dump name as the user gave it */
	uint64_t warnings;
	int strict;                 /* the first warning is fatal */
	int verbose;                /* notes are wanted */
	int failed;                 /* set by a warning under strict */
	da_diag_fn fn;              /* NULL: counted only */
	void *fn_data;
};

void diag_init(struct diag *d, const char *file);
/* A warning about line `line`: counted, and passed on (DA_ERROR under
 * strict).  Returns -1 when strict mode turns it fatal, else 0. */
int diag_warn(struct diag *d, uint64_t line, const char *fmt, ...) DA_PRINTF(3, 4);
/* A note (foreign lines, for --verbose), passed on only when wanted. */
void diag_verbose(struct diag *d, uint64_t line, const char *fmt, ...) DA_PRINTF(3, 4);

#endif
