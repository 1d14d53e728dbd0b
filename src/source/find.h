/* find.h — the Lua files a dump names, found and read without trusting
 * the dump: a name is read as written only when it is a relative path
 * under the current directory, else under each --source-root (as
 * written relative to it, then by its base name anywhere below it).
 * Nothing outside those directories is ever opened, a name with a ".."
 * component never, and only regular files are read.  Below a directory,
 * nothing is read through a hidden component, one whose name starts with
 * '.' (.git/config, .env, .ssh/id_rsa, or a link that resolves to one):
 * the secrets a checkout keeps there would reach findings, SARIF and the
 * report.  A hidden directory the user gives as a root is read below.
 *
 * By base name, the file whose path ends in most of the name's
 * components is the one (a name "lua/app.lua" takes "src/lua/app.lua"
 * over "test/app.lua"); when several end in equally many, none is read
 * (CHUNK_AMBIGUOUS): a guess would put findings, their fingerprints and
 * CI annotations on another program's file. */
#ifndef DUMPANALYZE_SOURCE_FIND_H
#define DUMPANALYZE_SOURCE_FIND_H

#include <stddef.h>
#include "util/intern.h"

/* What a chunk name is. */
enum chunk_kind {
	CHUNK_FILE,                 /* found and read */
	CHUNK_MISSING,              /* looks like a file, not found */
	CHUNK_STRING,               /* a string chunk: "..." or [string ...] */
	CHUNK_BUILTIN,              /* builtin:x, a fast function, no line */
	CHUNK_REFUSED,              /* a path we do not open (absolute, ..) */
	CHUNK_AMBIGUOUS,            /* by base name, several files equally
	                               close to it: none read */
	CHUNK_HIDDEN,               /* found only through a hidden component
	                               (.git, .env): not read */
	CHUNK_KINDS
};
extern const char *const chunk_kind_names[CHUNK_KINDS];

struct source_root {
	char *given;                /* as the user wrote it (a copy) */
	char *real;                 /* realpath, or NULL when unusable */
	int by_name;                /* names are also looked up by their base
	                               name anywhere below it */
	int bare;                   /* "." without by_name: a file found there
	                               is shown by its relative name alone */
	/* base name -> path relative to the root, built at the first need */
	char **names, **paths;
	size_t n, cap, *same;       /* same[i]: files with names[i] (>= 1) */
	int indexed;
};

/* The directories to look in, in order: for each, a name as written
 * relative to it (a relative path without ".."), an absolute name that
 * lies inside it, then with by_name its base name anywhere below it. */
struct source_finder {
	struct source_root *roots;
	size_t nroots, cap;
	/* Told once per name found ambiguous (NULL: nobody): the root as
	 * given, ncands the files that tie, cands the first 8 of them (at
	 * most), each as the user would type it. */
	void (*on_ambiguous)(void *data, const char *name, size_t n, const char *root,
	                     const char *const *cands, size_t ncands);
	void *ambiguous_data;       /* the data of both callbacks */
	struct intern told;         /* the names on_ambiguous was told of */
	/* Told once per name not read for a hidden component (NULL: nobody). */
	void (*on_hidden)(void *data, const char *name, size_t n);
	struct intern told_hidden;
};

/* No directory yet: nothing is ever found. */
void source_finder_empty(struct source_finder *f);
/* Look in dir too (copied); by_name: also by base name below it. */
void source_finder_add(struct source_finder *f, const char *dir, int by_name);
/* The tool's rule: the current directory as written, then each of
 * roots as written and by base name. */
void source_finder_init(struct source_finder *f, const char *const *roots, size_t n);
void source_finder_free(struct source_finder *f);

/* A chunk name (line NO_LINE: no source line) as the dump writes it:
 * its kind without touching the disk, CHUNK_FILE meaning "try it". */
enum chunk_kind chunk_classify(const char *name, size_t n, int has_line);

/* Find and read a name classified CHUNK_FILE: CHUNK_FILE with *text
 * (malloc'd, *len bytes) and *shown (malloc'd: the path as the user
 * would type it, or "ROOT/rel"), and *ambiguous (the other files of its
 * base name under that root, whose paths match the name less far); or
 * CHUNK_AMBIGUOUS with *ambiguous the files that tie (nothing read, the
 * search stops at that root: a later root never outranks it); or
 * CHUNK_HIDDEN (nothing read: only a path through a hidden component
 * would have been), CHUNK_MISSING or CHUNK_REFUSED. */
enum chunk_kind source_find(struct source_finder *f, const char *name, size_t n,
                            char **text, size_t *len, char **shown, size_t *ambiguous);

#endif
