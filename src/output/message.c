/* message.c — the tool's one-line messages on stderr, every one escaped
 * by termtext.h's rule: the names they quote come from dumps and files. */
#include <stdarg.h>
#include <stdio.h>
#include "output/message.h"
#include "output/termtext.h"

void msg_error(const char *fmt, ...)
{
	/* Formatted first, then escaped: no allocator that can run out (the
	 * message may be that memory ran out), a long one cut at 4 KiB. */
	char text[4096];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	size_t len = n < 0 ? 0 : (size_t)n < sizeof(text) ? (size_t)n : sizeof(text) - 1;
	flockfile(stderr);          /* one line, also from the writing thread */
	fputs("dumpanalyze: ", stderr);
	term_putn(stderr, text, len);
	fputc('\n', stderr);
	funlockfile(stderr);
}
