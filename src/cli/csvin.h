/* csvin.h — reading back the CSV files dumpanalyze wrote (for --compare
 * and the merged summary of several dumps), with libcsv, and a small list
 * of named counts to sum them in. */
#ifndef DUMPANALYZE_CSVIN_H
#define DUMPANALYZE_CSVIN_H

#include <stddef.h>
#include <stdint.h>

/* Call on_row for every data row (the header row skipped) of the file.
 * Returns 1 when read, 0 when the file does not exist, -1 on an error
 * (printed). */
int csvin_read(const char *path, void (*on_row)(void *ctx, char **fields, size_t n), void *ctx);

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
