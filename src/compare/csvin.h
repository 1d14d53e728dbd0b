/* csvin.h — reading back the CSV files dumpanalyze wrote (for --compare
 * and the summary of several dumps), with libcsv, trusting none of it:
 * each file's columns by header name against csvin_files.def (a column
 * missing or unknown is an error), every field of a typed column checked
 * before a reader sees its row, sums kept below 2^63, and each error one
 * message naming the file, the row (the header is row 1) and the column.
 * Also a small list of named counts to sum them in. */
#ifndef DUMPANALYZE_CSVIN_H
#define DUMPANALYZE_CSVIN_H

#include <stddef.h>
#include <stdint.h>
#include "compare/runfile.h"

#define CSVIN_MAX_FIELDS 48
#define CSVIN_MAX_SUM ((uint64_t)INT64_MAX)

enum csvin_kind {
#define CSVFILE(kind, name) CSVIN_##kind,
#include "compare/csvin_files.def"
	CSVIN_NKINDS
};

/* Columns as CSVIN_<KIND>_<NAME>. */
enum csvin_col {
#define CSVCOL(kind, name, type, need) CSVIN_##kind##_##name,
#include "compare/csvin_files.def"
	CSVIN_NCOLS
};

enum csvin_type { CSVIN_TEXT, CSVIN_COUNT, CSVIN_LINE, CSVIN_AMOUNT, CSVIN_AMOUNT_OR_EMPTY,
                  CSVIN_FINGERPRINT };

/* The file being read, as a reader's callbacks see it. */
struct csvin {
	const char *shown;          /* its path, for messages */
	enum csvin_kind kind;
	uint64_t row;               /* of the row being handed: the header is 1 */
	int pos[CSVIN_NCOLS];       /* the column's field, or -1 */
	char *field[CSVIN_MAX_FIELDS];
	size_t nfield;
};

struct csvin_reader {
	/* each may be NULL; a negative return stops the reading (after the
	 * callback's own message) */
	int (*header)(void *ctx, const struct csvin *c);
	int (*row)(void *ctx, const struct csvin *c);
	void *ctx;
};

/* The file's name for the kind ("traces.csv"). */
const char *csvin_name(enum csvin_kind kind);
/* Read d/name as a file of the kind, at most RUNFILE_MAX bytes.  1 when
 * read, 0 when it does not exist and may_lack, -1 after a message. */
int csvin_read(const struct runfile_dir *d, const char *name, enum csvin_kind kind, int may_lack,
               const struct csvin_reader *rd);

/* Whether the file has the column. */
int csvin_has(const struct csvin *c, enum csvin_col col);
/* The row's text of the column ("" when the file lacks it). */
const char *csvin_text(const struct csvin *c, enum csvin_col col);
/* A checked number: COUNT or LINE (0 when empty or absent). */
uint64_t csvin_count(const struct csvin *c, enum csvin_col col);
/* AMOUNT or AMOUNT_OR_EMPTY: the value, or -1 when empty or absent. */
double csvin_amount(const struct csvin *c, enum csvin_col col);
/* Add the row's COUNT field to *total, which is kept at most 2^63-1
 * (whatever files it sums): 0, or -1 after a message naming the file,
 * row and column where the sum would pass it. */
int csvin_add(const struct csvin *c, enum csvin_col col, uint64_t *total);
/* The same of an AMOUNT (an empty one adds nothing). */
int csvin_add_amount(const struct csvin *c, enum csvin_col col, double *total);

struct named { char *name; uint64_t count; };

struct named_list {
	struct named *v;
	size_t n, cap;
};

struct named *named_find(struct named_list *l, const char *name);
/* Sums stay below 2^64: callers add counts whose total csvin_add checked. */
void named_add(struct named_list *l, const char *name, uint64_t count);
void named_sort_by_name(struct named_list *l);
void named_sort_by_count(struct named_list *l);     /* descending, then name */
void named_free(struct named_list *l);

#endif
