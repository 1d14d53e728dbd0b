/* csvout.h — CSV rows as Python's csv module writes them (QUOTE_MINIMAL,
 * "\r\n" line ends), so files stay byte-compatible with dumpanalyze 0.9.1.
 * libcsv does the quoting; we only decide when a field needs it. */
#ifndef DUMPANALYZE_CSVOUT_H
#define DUMPANALYZE_CSVOUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct csv_row {
	FILE *fp;
	int nfields;
};

void csv_row_begin(struct csv_row *r, FILE *fp);
void csv_field(struct csv_row *r, const char *s, size_t n);
void csv_field_str(struct csv_row *r, const char *s);
void csv_field_u64(struct csv_row *r, uint64_t v);
void csv_field_i64(struct csv_row *r, int64_t v);
void csv_row_end(struct csv_row *r);

#endif
