/* diag.c — warnings and notes about the input, formatted and passed to
 * the caller's function. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "util/diag.h"

void diag_init(struct diag *d, const char *file)
{
	d->file = file;
	d->warnings = 0;
	d->strict = d->verbose = d->failed = 0;
	d->fn = NULL;
	d->fn_data = NULL;
}

/* Format and pass on; a message longer than the buffer is allocated
 * (chunk names can be long), and cut only if that fails. */
static void pass(struct diag *d, enum da_severity sev, uint64_t line,
                 const char *fmt, va_list ap)
{
	char small[512], *msg = small;
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n >= (int)sizeof(small) && (msg = malloc((size_t)n + 1)) != NULL)
		vsnprintf(msg, (size_t)n + 1, fmt, again);
	else
		msg = small;
	va_end(again);
	d->fn(d->fn_data, sev, d->file, line, msg);
	if (msg != small)
		free(msg);
}

int diag_warn(struct diag *d, uint64_t line, const char *fmt, ...)
{
	d->warnings++;
	if (d->fn) {
		va_list ap;
		va_start(ap, fmt);
		pass(d, d->strict ? DA_ERROR : DA_WARNING, line, fmt, ap);
		va_end(ap);
	}
	if (d->strict) {
		d->failed = 1;
		return -1;
	}
	return 0;
}

void diag_verbose(struct diag *d, uint64_t line, const char *fmt, ...)
{
	if (!d->verbose || !d->fn)
		return;
	va_list ap;
	va_start(ap, fmt);
	pass(d, DA_NOTE, line, fmt, ap);
	va_end(ap);
}
