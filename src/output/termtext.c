/* termtext.c — names escaped for a terminal; see termtext.h. */
#include <stdio.h>
#include <string.h>
#include "output/json.h"
#include "output/termtext.h"
#include "util/alloc.h"

char *term_textn(const char *s, size_t n)
{
	char *out = xrealloc(NULL, n * 4 + 1);     /* \xHH: 4 per byte at most */
	size_t o = 0;
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		size_t len = json_utf8_len(s + i, n - i);
		/* U+0080..U+009F: C2 80..C2 9F; 8-bit CSI and friends */
		int c1 = len == 2 && c == 0xc2 && (unsigned char)s[i + 1] < 0xa0;
		if (len > 1 && !c1) {
			memcpy(out + o, s + i, len);
			o += len;
			i += len;
			continue;
		}
		size_t k = len > 1 ? len : 1;
		for (; k > 0; k--, i++) {
			c = (unsigned char)s[i];
			if (c >= 0x20 && c < 0x7f)
				out[o++] = (char)c;
			else if (c == '\t' || c == '\n' || c == '\r') {
				out[o++] = '\\';
				out[o++] = c == '\t' ? 't' : c == '\n' ? 'n' : 'r';
			} else {
				snprintf(out + o, 5, "\\x%02x", c);
				o += 4;
			}
		}
	}
	out[o] = '\0';
	return out;
}

char *term_text(const char *s)
{
	return term_textn(s, strlen(s));
}
