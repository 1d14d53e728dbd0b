/* compare.h — `dumpanalyze --compare OLD NEW`: what changed between two
 * output directories, in human terms, and whether it crosses the
 * thresholds a CI job set with --fail-on. */
#ifndef DUMPANALYZE_COMPARE_H
#define DUMPANALYZE_COMPARE_H

#include <stdio.h>

struct compare_opts {
	const char *fail_on;        /* --fail-on RULES, or NULL */
	int json;                   /* the result as one JSON object instead of text */
	int allow_empty;            /* compare a side whose run saw no JIT event */
	const char *baseline;       /* --baseline FILE, or NULL */
	const char *write_baseline; /* --write-baseline FILE: NEW's findings */
	int annotate;               /* --annotate github: NEW's new and failing
	                               findings as workflow commands, after the
	                               report */
	const char *const *source_roots;    /* where their files are (with the
	                               current directory) */
	size_t nsource_roots;
};

/* Returns 0 (no threshold crossed), 1 (a --fail-on rule tripped), or 2
 * (a directory could not be read, is not dumpanalyze output or holds a
 * file that is not what its run wrote; a side saw no JIT event; a rule
 * could not be evaluated; message printed).  A bad rule list is reported
 * and gives -1. */
int compare_dirs(const char *old_dir, const char *new_dir, const struct compare_opts *o,
                 FILE *out);

#endif
