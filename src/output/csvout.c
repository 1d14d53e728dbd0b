/* csvout.c — Python-compatible minimal-quoting CSV rows; see csvout.h. */
#include <string.h>
#include <csv.h>
#include "output/csvout.h"
#include "util/digits.h"

void csv_row_begin(struct csv_row *r, FILE *fp)
{
	r->fp = fp;
	r->nfields = 0;
}

void csv_field(struct csv_row *r, const char *s, size_t n)
{
	if (r->nfields++)
		putc(',', r->fp);
	/* QUOTE_MINIMAL: quote only when the field holds the delimiter, the
	 * quote character or a line-end character. */
	int quote = 0;
	for (size_t i = 0; i < n && !quote; i++)
		quote = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
	if (quote)
		csv_fwrite(r->fp, s, n);    /* adds quotes, doubles inner ones */
	else if (n)
		fwrite(s, 1, n, r->fp);
}

void csv_field_str(struct csv_row *r, const char *s)
{
	csv_field(r, s, strlen(s));
}

/* Numbers are most of the fields of the trace rows. */
static void field_digits(struct csv_row *r, uint64_t v, int minus)
{
	char buf[DIGITS_MAX + 1], *end = buf + sizeof(buf);
	char *p = digits_u64(end, v);
	if (minus)
		*--p = '-';
	if (r->nfields++)
		putc(',', r->fp);
	fwrite(p, 1, (size_t)(end - p), r->fp);
}

void csv_field_u64(struct csv_row *r, uint64_t v)
{
	field_digits(r, v, 0);
}

void csv_field_i64(struct csv_row *r, int64_t v)
{
	field_digits(r, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0);
}

void csv_row_end(struct csv_row *r)
{
	fputs("\r\n", r->fp);
}
