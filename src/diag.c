/* diag.c — warnings about the input, and fatal one-line errors. */
#include <stdarg.h>
#include <stdio.h>
#include <inttypes.h>
#include "dumpanalyze/diag.h"

void diag_init(struct diag *d, const char *file)
{
	d->file = file;
	d->warnings = 0;
	d->strict = d->verbose = d->quiet = d->failed = 0;
}

int diag_warn(struct diag *d, uint64_t line, const char *fmt, ...)
{
	d->warnings++;
	if (d->warnings <= DIAG_PRINT_LIMIT || d->strict) {
		va_list ap;
		fprintf(stderr, "%s:%" PRIu64 ": %s", d->file, line,
		        d->strict ? "error: " : "warning: ");
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	} else if (d->warnings == DIAG_PRINT_LIMIT + 1) {
		fprintf(stderr, "%s: further warnings are counted, not shown\n",
		        d->file);
	}
	if (d->strict) {
		d->failed = 1;
		return -1;
	}
	return 0;
}

void diag_verbose(struct diag *d, uint64_t line, const char *fmt, ...)
{
	if (!d->verbose)
		return;
	va_list ap;
	fprintf(stderr, "%s:%" PRIu64 ": ", d->file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void da_error(const char *fmt, ...)
{
	va_list ap;
	flockfile(stderr);          /* one line, also from the writing thread */
	fputs("dumpanalyze: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	funlockfile(stderr);
}
