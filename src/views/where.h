/* where.h — where a finding's place is for the tools that show it on the
 * code (SARIF, compiler-style lines, CI annotations, GitLab's Code
 * Quality): a Lua file the run read, by its path from the current
 * directory; or a chunk that is no file we read (a string chunk, "=stdin",
 * a loader's "tpl-3", a name not found or refused), shown by its name; or
 * no place at all (a finding about the whole run).  A file is claimed
 * only when it was found and read by the source view's rules (the current
 * directory as written, then each --source-root), so a tool never opens a
 * file the dump made up. */
#ifndef DUMPANALYZE_VIEWS_WHERE_H
#define DUMPANALYZE_VIEWS_WHERE_H

#include <stddef.h>
#include <stdint.h>
#include "source/find.h"
#include "util/tally.h"

enum where_kind {
	WHERE_FILE,                 /* a file read: path */
	WHERE_CHUNK,                /* a chunk name that is no file we read */
	WHERE_RUN                   /* no file: the whole run */
};

struct where {
	enum where_kind kind;
	/* WHERE_FILE: the real path (symbolic links resolved), relative to
	 * the current directory when it lies inside it, else absolute. */
	const char *path;
	/* Relative to base: 0 the current directory (path itself), k >= 1
	 * the k-th --source-root when the file lies outside the current
	 * directory and inside that root, -1 none (rel is the absolute
	 * path). */
	int base;
	const char *rel;
};

struct where_map {
	struct source_finder finder;    /* its own, when not given one */
	struct source_finder *use;      /* the one it finds files with */
	char *cwd;                  /* realpath of "." (NULL: none) */
	char **roots;               /* realpath of each --source-root (or NULL) */
	size_t nroots;
	struct tally ix;            /* a finding's file pointer -> index + 1 */
	struct where *v;
	size_t n, cap;
};

/* The rules of the tool: the current directory, then each root.  finder:
 * the library's (api_source_finder, which says an ambiguous name once
 * per run), or NULL for one of its own made from roots. */
void where_init(struct where_map *m, struct source_finder *finder, const char *const *roots,
                size_t nroots);
void where_free(struct where_map *m);
/* The place of a finding's file (NULL: the run) at a line (DA_NO_LINE:
 * none); its strings are valid until where_free.  Each name is looked up
 * once. */
struct where where_of(struct where_map *m, const char *file, int32_t line);

#endif
