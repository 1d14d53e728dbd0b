/* escape.c — text from the dump made safe for where the report puts it:
 * HTML text, or a JSON string inside <script> that the page inserts as
 * text only; and the head every page of the report shares. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "views/html/html.h"
#include "util/alloc.h"
#include "util/intern.h"
#include "parse/loc.h"

void html_put_text(FILE *fp, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '\'': fputs("&#39;", fp); break;
		default: putc((c < 0x20 && c != '\t') || c == 0x7f ? ' ' : c, fp);
		}
	}
}

/* No '<', '>' or '&' as themselves, so "</script>" in a chunk name
 * cannot end the element. */
void html_put_json(FILE *fp, const char *s, size_t n)
{
	putc('"', fp);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c < 0x20 || c == 0x7f || c == '<' || c == '>' || c == '&')
			fprintf(fp, "\\u%04x", c);
		else
			putc(c, fp);
	}
	putc('"', fp);
}

void html_put_json_str(FILE *fp, const char *interned)
{
	html_put_json(fp, interned, intern_len(interned));
}

void html_put_json_loc(FILE *fp, const char *file, int32_t line)
{
	if (!file) {
		fputs("null", fp);
		return;
	}
	size_t n = intern_len(file);
	char *s = xrealloc(NULL, n + 32);
	memcpy(s, file, n);
	if (line != LOC_NO_LINE)
		n += (size_t)snprintf(s + n, 32, ":%d", line);
	html_put_json(fp, s, n);
	free(s);
}

void html_put_json_line(FILE *fp, int32_t line)
{
	if (line == LOC_NO_LINE)
		fputs("null", fp);
	else
		fprintf(fp, "%" PRId32, line);
}

void html_page_head(FILE *fp, const char *title, const char *file)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", fp);
	html_put_text(fp, title, strlen(title));
	fputs(" \xe2\x80\x94 dumpanalyze</title>\n<link rel=\"stylesheet\" href=\"" HTML_CSS_FILE "\">\n"
	      "</head>\n<body>\n<header>\n<h1>", fp);
	html_put_text(fp, title, strlen(title));
	fputs("</h1>\n<p>", fp);
	html_put_text(fp, file, strlen(file));
	fputs("</p>\n", fp);
}

void html_bush_label(char *buf, size_t n, const struct da_bush *b)
{
	if (b->dup > 1)
		snprintf(buf, n, "%u.%u", b->root->id, b->dup);
	else
		snprintf(buf, n, "%u", b->root->id);
}
