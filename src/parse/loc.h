/* loc.h — a LuaJIT source location "FILE:LINE", as dump.lua prints it
 * for trace starts and aborts. */
#ifndef DUMPANALYZE_LOC_H
#define DUMPANALYZE_LOC_H

#include <stddef.h>
#include <stdint.h>

#define LOC_NO_LINE (-1)

struct loc {
	const char *file;           /* span inside the text given */
	size_t file_len;
	int32_t line;               /* LOC_NO_LINE for builtin:x, pcall, C:7f... */
};

/* Split at the last ':' that is followed only by digits; chunk names may
 * contain colons, spaces and quotes.  Without such a ':' the whole text
 * is the file and there is no line. */
void loc_split(const char *s, size_t n, struct loc *out);

#endif
