/* csvin.h — reading back the CSV files dumpanalyze wrote (for --compare
 * and the merged summary of several dumps), with libcsv, and a small list
 * of named counts to sum them in. */
#ifndef DUMPANALYZE_CSVIN_H
#define DUMPANALYZE_CSVIN_H

#include <stddef.h>
#include <stdint.h>

#define CSVIN_MAX_FIELDS 32

/* Call on_row for every data row (the header row skipped) of the file.
 * Returns 1 when read, 0 when the file does not exist, -1 on an error
 * (printed). */
int csvin_read(const char *path, void (*on_row)(void *ctx, char **fields, size_t n), void *ctx);

/* A file's header row, to read columns by name: other releases and views
 * add columns, so positions are not to be trusted. */
struct csvin_header {
	char *name[CSVIN_MAX_FIELDS];
	size_t n;
};

/* Like csvin_read, with the header handed to every row. */
int csvin_read_named(const char *path,
                     void (*on_row)(void *ctx, const struct csvin_header *h, char **fields, size_t n),
                     void *ctx);
/* The index of a column, or -1 when the file has none. */
int csvin_col(const struct csvin_header *h, const char *name);
/* The row's field of that column, or NULL. */
const char *csvin_field(const struct csvin_header *h, char **fields, size_t n, const char *name);

struct named { char *name; uint64_t count; };

struct named_list {
	struct named *v;
	size_t n, cap;
};

struct named *named_find(struct named_list *l, const char *name);
void named_add(struct named_list *l, const char *name, uint64_t count);
void named_sort_by_name(struct named_list *l);
void named_sort_by_count(struct named_list *l);     /* descending, then name */
void named_free(struct named_list *l);

#endif
