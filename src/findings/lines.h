/* lines.h — the Lua files a run reads for its findings and fingerprints,
 * each found (source/find.c, only where the finder looks) and read once
 * per run: its lines whitespace-normalised, each with its index among the
 * earlier lines of equal text, and its block structure.  The findings
 * take extents and identities from it (place.c); abort-sites.csv and
 * profile-lines.csv a line's fingerprint, so that --compare can follow a
 * line that moved without reading any source. */
#ifndef DUMPANALYZE_FINDINGS_LINES_H
#define DUMPANALYZE_FINDINGS_LINES_H

#include <stddef.h>
#include <stdint.h>
#include "source/blocks.h"
#include "source/find.h"
#include "util/diag.h"
#include "util/intern.h"
#include "util/tally.h"

struct text_file {
	const char *name;           /* lines.names' copy */
	int read;                   /* found and read */
	int balanced;               /* its blocks balance */
	struct blocks blocks;
	char **norm;                /* line k (1-based) at norm[k - 1] */
	uint32_t *index;            /* among the earlier lines of equal text */
	int32_t *scope;             /* the first line of the innermost function
	                               holding it, 0: none (or unbalanced) */
	uint32_t *scope_index;      /* among the earlier lines of equal text
	                               in that function */
	size_t nlines;
};

struct text_files {
	struct source_finder *finder;   /* NULL: nothing is read */
	struct diag *diag;              /* a note for blocks that do not balance */
	struct text_file *v;
	size_t n, cap;
	struct intern names;
	struct tally ix;            /* name (names' copy) -> index + 1 */
};

void text_files_init(struct text_files *fs, struct source_finder *finder, struct diag *diag);
/* The file of that chunk name, read at its first need (a file that
 * cannot be read has read == 0).  The pointer is valid until the next
 * call. */
const struct text_file *text_file_get(struct text_files *fs, const char *name, size_t n);
/* The normalised text of a line (NULL past the end, or for a line that
 * is blank) and its index among equal texts before it. */
const char *text_file_line(const struct text_file *t, int32_t line, uint32_t *index);
/* A line's fingerprint, into out: the hash (identity_hash) of
 * "F:FUNCTION#J|L:TEXT#K", FUNCTION the text of the first line of the
 * innermost function that holds it (empty at the top level, or when the
 * file's blocks do not balance) and J its index among equal texts in
 * the file, TEXT the line's and K its index among the equal texts before
 * it in that function; so a line keeps its fingerprint when lines are
 * inserted or removed elsewhere, and equal lines in other functions do
 * not share it.  0, or -1 when the line has no text (not read, blank, no
 * line). */
int text_files_fingerprint(struct text_files *fs, const char *name, size_t n, int32_t line,
                           char out[13]);
void text_files_free(struct text_files *fs);

#endif
