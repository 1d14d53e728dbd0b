/* json.c — any bytes as a valid JSON string; see json.h. */
#include <stdlib.h>
#include <string.h>
#include "output/json.h"
#include "util/alloc.h"

size_t json_utf8_len(const char *s, size_t n)
{
	unsigned char c = (unsigned char)s[0];
	size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
	           : (c & 0xf8) == 0xf0 && c <= 0xf4 ? 4 : 0;
	int ok = len && len <= n && !(len == 2 && c < 0xc2);
	for (size_t k = 1; ok && k < len; k++)
		ok = ((unsigned char)s[k] & 0xc0) == 0x80;
	if (ok && len == 3) {       /* no overlongs, no surrogates */
		unsigned char d = (unsigned char)s[1];
		ok = !(c == 0xe0 && d < 0xa0) && !(c == 0xed && d >= 0xa0);
	} else if (ok && len == 4) {
		unsigned char d = (unsigned char)s[1];
		ok = !(c == 0xf0 && d < 0x90) && !(c == 0xf4 && d >= 0x90);
	}
	return ok ? len : 0;
}

/* Valid UTF-8 of the bytes, invalid sequences as U+FFFD. */
json_t *json_text(const char *s, size_t n)
{
	char *buf = xrealloc(NULL, n * 3 + 1);
	size_t o = 0;
	for (size_t i = 0; i < n;) {
		size_t len = json_utf8_len(s + i, n - i);
		if (!len) {
			memcpy(buf + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		} else {
			memcpy(buf + o, s + i, len);
			o += len;
			i += len;
		}
	}
	json_t *j = json_stringn(buf, o);
	free(buf);
	return j;
}
