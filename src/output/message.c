/* message.c — the tool's one-line messages on stderr. */
#include <stdarg.h>
#include <stdio.h>
#include "output/message.h"

void msg_error(const char *fmt, ...)
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
