/* family.c — the chunk family rule; see family.h. */
#include <string.h>
#include "source/family.h"

size_t chunk_family(const char *name, size_t n, char *buf, size_t cap)
{
	size_t end = n;
	if (end >= 2 && name[0] == '"' && name[end - 1] == '"')
		end--;
	size_t d = end;
	while (d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9')
		d--;
	if (d == end || d == 0 || (d == 1 && name[0] == '"'))
		return 0;
	size_t len = d + 1 + (n - end);
	if (len > cap)
		return 0;
	memcpy(buf, name, d);
	buf[d] = '*';
	memcpy(buf + d + 1, name + end, n - end);
	return len;
}
