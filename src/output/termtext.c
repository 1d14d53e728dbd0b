/* termtext.c — names escaped for people to read; the rule is in termtext.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/json.h"
#include "output/termtext.h"
#include "util/alloc.h"

/* The code point of a 2- or 3-byte UTF-8 sequence that must be shown as
 * \uHHHH (bidirectional controls, line and paragraph separators), else 0. */
static unsigned invisible_code(const unsigned char *u, size_t len)
{
	if (len == 2 && u[0] == 0xd8 && u[1] == 0x9c)
		return 0x061c;
	if (len != 3 || u[0] != 0xe2)
		return 0;
	unsigned cp = 0x2000 | (unsigned)(u[1] & 0x3f) << 6 | (u[2] & 0x3f);
	if (cp == 0x200e || cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069))
		return cp;
	return 0;
}

/* Writes s[0..n) escaped into out (room for 6 bytes per input byte) or,
 * when out is NULL, onto fp; returns the bytes written into out. */
static size_t escape(char *out, FILE *fp, const char *s, size_t n, int flags)
{
	size_t o = 0;
	char esc[8];
	for (size_t i = 0; i < n;) {
		const unsigned char *u = (const unsigned char *)s + i;
		size_t len = json_utf8_len(s + i, n - i);
		/* U+0080..U+009F: C2 80..C2 9F; 8-bit CSI and friends */
		int c1 = len == 2 && u[0] == 0xc2 && u[1] < 0xa0;
		unsigned cp = len > 1 ? invisible_code(u, len) : 0;
		const char *piece = s + i;
		size_t plen = len;
		if (cp) {
			plen = (size_t)snprintf(esc, sizeof(esc), "\\u%04x", cp);
			piece = esc;
		} else if (len <= 1 || c1) {
			unsigned char c = u[0];
			len = 1;
			plen = 1;
			if ((c >= 0x20 && c < 0x7f) || ((flags & TERM_KEEP_LINES) && (c == '\n' || c == '\r')) ||
			    ((flags & TERM_KEEP_TABS) && c == '\t'))
				;
			else if (c == '\t' || c == '\n' || c == '\r') {
				esc[0] = '\\';
				esc[1] = c == '\t' ? 't' : c == '\n' ? 'n' : 'r';
				piece = esc;
				plen = 2;
			} else {
				plen = (size_t)snprintf(esc, sizeof(esc), "\\x%02x", c);
				piece = esc;
			}
		}
		if (out)
			memcpy(out + o, piece, plen);
		else
			fwrite(piece, 1, plen, fp);
		o += plen;
		i += len;
	}
	return o;
}

char *term_textn_flags(const char *s, size_t n, int flags)
{
	char *out = xrealloc(NULL, n * 4 + 1);     /* \xHH: 4 for 1 byte, \uHHHH: 6 for 2 or 3 */
	out[escape(out, NULL, s, n, flags)] = '\0';
	return out;
}

char *term_textn(const char *s, size_t n)
{
	return term_textn_flags(s, n, 0);
}

char *term_text(const char *s)
{
	return term_textn(s, strlen(s));
}

void term_putn_flags(FILE *fp, const char *s, size_t n, int flags)
{
	escape(NULL, fp, s, n, flags);
}

void term_putn(FILE *fp, const char *s, size_t n)
{
	escape(NULL, fp, s, n, 0);
}

void term_puts(FILE *fp, const char *s)
{
	if (s)
		escape(NULL, fp, s, strlen(s), 0);
}
