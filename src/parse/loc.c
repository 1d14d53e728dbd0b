/* loc.c — split "FILE:LINE"; see loc.h. */
#include "parse/loc.h"

void loc_split(const char *s, size_t n, struct loc *out)
{
	size_t i = n;
	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
		i--;
	/* Digits up to the end, preceded by ':', and not absurdly long; "C:"
	 * is a C function's address (%x), which may happen to be all digits. */
	int c_addr = i == 2 && s[0] == 'C';
	if (i < n && i > 0 && s[i - 1] == ':' && n - i <= 9 && !c_addr) {
		int32_t v = 0;
		for (size_t k = i; k < n; k++)
			v = v * 10 + (s[k] - '0');
		out->file = s;
		out->file_len = i - 1;
		out->line = v;
		return;
	}
	out->file = s;
	out->file_len = n;
	out->line = LOC_NO_LINE;
}
