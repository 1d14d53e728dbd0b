/* runset_dir.c — the list of a recorded run set's files: DIR/runs/dump-K
 * and DIR/runs/prof-K (record writes this layout; --run-set reads it). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/runset.h"
#include "util/alloc.h"

#define RUNSET_MAX 1000

/* "dump-12.zst" with prefix "dump-": 12; 0 for any other name (a
 * number with a leading zero, another suffix, no number). */
static unsigned run_number(const char *name, const char *prefix)
{
	size_t pl = strlen(prefix);
	if (strncmp(name, prefix, pl) != 0)
		return 0;
	const char *p = name + pl;
	if (*p < '1' || *p > '9')
		return 0;
	unsigned k = 0;
	while (*p >= '0' && *p <= '9' && k <= RUNSET_MAX)
		k = k * 10 + (unsigned)(*p++ - '0');
	if (k > RUNSET_MAX)
		return 0;
	if (*p && strcmp(p, ".gz") != 0 && strcmp(p, ".xz") != 0 && strcmp(p, ".zst") != 0)
		return 0;
	return k;
}

/* Put DIR/runs/NAME at slot k-1 of *files: -1 when the slot is taken. */
static int put(char ***files, size_t *n, unsigned k, const char *runs, const char *name)
{
	if (k > *n) {
		*files = xrealloc(*files, k * sizeof(**files));
		memset(*files + *n, 0, (k - *n) * sizeof(**files));
		*n = k;
	}
	if ((*files)[k - 1])
		return -1;
	size_t len = strlen(runs) + strlen(name) + 2;
	(*files)[k - 1] = xrealloc(NULL, len);
	snprintf((*files)[k - 1], len, "%s/%s", runs, name);
	return 0;
}

static int gap(char **files, size_t n, const char *what, char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++)
		if (!files[i]) {
			snprintf(err, errlen, "%s-%zu is missing (the runs are numbered from 1 without a gap)",
			         what, i + 1);
			return -1;
		}
	return 0;
}

int runset_from_dir(const char *dir, struct runset_list *rs, char *err, size_t errlen)
{
	memset(rs, 0, sizeof(*rs));
	size_t len = strlen(dir) + 6;
	char *runs = xrealloc(NULL, len);
	snprintf(runs, len, "%s/runs", dir);
	DIR *d = opendir(runs);
	if (!d) {
		snprintf(err, errlen, "%s: %s (a run set keeps its runs in DIR/runs/dump-K, prof-K)",
		         runs, strerror(errno));
		free(runs);
		return -1;
	}
	int bad = 0;
	struct dirent *e;
	while (!bad && (e = readdir(d))) {
		unsigned k;
		if ((k = run_number(e->d_name, "dump-")) > 0)
			bad = put(&rs->dumps, &rs->ndumps, k, runs, e->d_name);
		else if ((k = run_number(e->d_name, "prof-")) > 0)
			bad = put(&rs->profiles, &rs->nprofiles, k, runs, e->d_name);
		if (bad)
			snprintf(err, errlen, "%s: two files for run %u (%s and another)", runs, k, e->d_name);
	}
	closedir(d);
	if (!bad && rs->ndumps == 0) {
		snprintf(err, errlen, "%s: no dump-K file (dump-1, dump-1.zst, ...)", runs);
		bad = 1;
	}
	if (!bad && (gap(rs->dumps, rs->ndumps, "dump", err, errlen) < 0 ||
	             gap(rs->profiles, rs->nprofiles, "prof", err, errlen) < 0))
		bad = 1;
	free(runs);
	if (bad) {
		runset_list_free(rs);
		return -1;
	}
	return 0;
}

void runset_list_free(struct runset_list *rs)
{
	for (size_t i = 0; i < rs->ndumps; i++)
		free(rs->dumps[i]);
	for (size_t i = 0; i < rs->nprofiles; i++)
		free(rs->profiles[i]);
	free(rs->dumps);
	free(rs->profiles);
	memset(rs, 0, sizeof(*rs));
}
