/* vmdef.c — the bcnames string of a build's jit/vmdef.lua, found in its
 * text: `bcnames = "ISLT  ISGE  ..."`, six characters per opcode. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "luajit/vmdef.h"

#define VMDEF_FILE_MAX (1u << 20)   /* vmdef.lua is some 10 kB */
#define BC_WIDTH 6

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int vmdef_parse(const char *text, size_t len, struct vmdef *v)
{
	static const char key[] = "bcnames";
	const char *end = text + len, *p = text;
	memset(v, 0, sizeof(*v));
	while ((p = memchr(p, 'b', (size_t)(end - p))) != NULL) {
		const char *q = p + strlen(key);
		/* the key itself, not a longer name that ends in it */
		int word = (p == text || !(p[-1] == '_' || ((p[-1] | 0x20) >= 'a' && (p[-1] | 0x20) <= 'z')));
		if (q > end || memcmp(p, key, strlen(key)) != 0 || !word) {
			p++;
			continue;
		}
		while (q < end && is_space(*q))
			q++;
		if (q == end || *q != '=') {
			p++;
			continue;
		}
		q++;
		while (q < end && is_space(*q))
			q++;
		if (q == end || *q != '"')
			return -2;
		const char *s = ++q, *close = memchr(s, '"', (size_t)(end - s));
		if (!close || close == s || (close - s) % BC_WIDTH != 0 ||
		    (size_t)(close - s) / BC_WIDTH > VMDEF_BC_MAX)
			return -2;
		for (; s < close; s += BC_WIDTH) {
			size_t n = BC_WIDTH;
			while (n && s[n - 1] == ' ')
				n--;
			if (!n)
				return -2;
			for (size_t i = 0; i < n; i++)
				if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')))
					return -2;
			memcpy(v->bc[v->nbc], s, n);
			v->bc[v->nbc++][n] = '\0';
		}
		return 0;
	}
	return -2;
}

int vmdef_read(const char *path, struct vmdef *v)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	char *buf = malloc(VMDEF_FILE_MAX);
	if (!buf) {
		fclose(f);
		errno = ENOMEM;
		return -1;
	}
	size_t n = fread(buf, 1, VMDEF_FILE_MAX, f);
	int bad = ferror(f);
	fclose(f);
	int r = bad ? -1 : vmdef_parse(buf, n, v);
	free(buf);
	return r;
}

const char *vmdef_bcname(const struct vmdef *v, const char *num, size_t len)
{
	if (!num || len == 0 || len > 3)
		return NULL;
	unsigned n = 0;
	for (size_t i = 0; i < len; i++) {
		if (num[i] < '0' || num[i] > '9')
			return NULL;
		n = n * 10 + (unsigned)(num[i] - '0');
	}
	return n < v->nbc ? v->bc[n] : NULL;
}
