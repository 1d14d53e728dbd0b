/* digits.h — unsigned numbers in decimal, by hand: where output is mostly
 * numbers (trace rows, bush text headers), printf's machinery costs more
 * than the rest of the line. */
#ifndef DUMPANALYZE_DIGITS_H
#define DUMPANALYZE_DIGITS_H

#include <stdint.h>

#define DIGITS_MAX 20               /* of UINT64_MAX */

/* v's digits written to end just before end: returns where they start. */
static inline char *digits_u64(char *end, uint64_t v)
{
	do
		*--end = (char)('0' + v % 10);
	while (v /= 10);
	return end;
}

#endif
