/* clean.c — the presentation noise taken out of a dump's lines: the CR of
 * a CRLF end, -jdump=A's ANSI escapes, -jdump=H's tags and entities. */
#include <string.h>
#include "input/input_impl.h"

/* ESC [ parameters final-byte (the SGR colours of -jdump=A), and any other
 * lone ESC. */
size_t input_strip_ansi(char *p, size_t n)
{
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		if (p[i] != 0x1b) {
			p[o++] = p[i];
			continue;
		}
		if (i + 1 < n && p[i + 1] == '[') {
			size_t k = i + 2;
			while (k < n && ((p[k] >= '0' && p[k] <= '9') || p[k] == ';' || p[k] == '?'))
				k++;
			if (k < n && p[k] >= 0x40 && p[k] <= 0x7e)
				i = k;
			else
				i = k - 1;
		}
	}
	return o;
}

static int starts(const char *p, size_t n, const char *w)
{
	size_t k = strlen(w);
	return n >= k && memcmp(p, w, k) == 0;
}

/* Tags out, entities decoded (dump.lua escapes < > & only; &quot; and
 * numeric ones are taken too). */
size_t input_strip_html(char *p, size_t n)
{
	static const struct { const char *name; char c; } ent[] = {
		{ "&lt;", '<' }, { "&gt;", '>' }, { "&amp;", '&' }, { "&quot;", '"' },
		{ "&apos;", '\'' }, { "&#39;", '\'' },
	};
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '<') {
			const char *gt = memchr(p + i, '>', n - i);
			if (gt) {
				i = (size_t)(gt - p);
				continue;
			}
		} else if (p[i] == '&') {
			size_t k;
			for (k = 0; k < sizeof(ent) / sizeof(ent[0]); k++)
				if (starts(p + i, n - i, ent[k].name))
					break;
			if (k < sizeof(ent) / sizeof(ent[0])) {
				p[o++] = ent[k].c;
				i += strlen(ent[k].name) - 1;
				continue;
			}
		}
		p[o++] = p[i];
	}
	return o;
}

/* -jdump=H: a <style> block first, each trace event in <pre>, IR types in
 * <span>s.  The mode switches on at the first of those and stays on. */
static size_t clean_html(struct input_reader *rd, char *p, size_t n)
{
	if (!rd->html) {
		if (!starts(p, n, "<style type=\"text/css\">") && !starts(p, n, "<pre class=\"ljdump\">"))
			return n;
		rd->html = 1;
	}
	if (rd->in_style || starts(p, n, "<style")) {
		rd->in_style = 1;
		for (size_t i = 0; i + 8 <= n; i++)
			if (memcmp(p + i, "</style>", 8) == 0)
				rd->in_style = 0;
		return 0;
	}
	if (!memchr(p, '<', n) && !memchr(p, '&', n))
		return n;
	return input_strip_html(p, n);
}

void input_clean_line(struct input_reader *rd, struct line *l)
{
	char *line = (char *)l->p;
	size_t len = l->len;
	if (len && line[len - 1] == '\r')
		len--;
	if (rd->html || (len && line[0] == '<'))
		len = clean_html(rd, line, len);
	/* Per line only once an escape was seen in what was read. */
	if (rd->ansi && len && memchr(line, 0x1b, len))
		len = input_strip_ansi(line, len);
	l->len = len;
}
