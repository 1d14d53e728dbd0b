/* merge.h — the summary of several dumps analysed at once: OUT/summary.txt
 * from the files each one wrote into OUT/<name>/. */
#ifndef DUMPANALYZE_MERGE_H
#define DUMPANALYZE_MERGE_H

#include <stddef.h>
#include <stdio.h>

struct outdir;

/* dumps[i] was analysed into TOP/names[i]/ with exit status status[i];
 * messages name TOP as top_shown (where the commit moves it).  Writes
 * summary.txt into out (published by the caller).  0 or -1. */
int merge_summaries(struct outdir *out, const char *top, const char *top_shown,
                    const char *const *dumps, const char *const *names, const int *status,
                    size_t n);

/* merge_findings.c: the dumps' findings matched by identity (the run
 * set's reader), ranked by the samples each dump's profile charged to
 * them, then attempts, then the dumps they appear in. */
struct runfile_dir;
struct rs_set;
struct merge_findings {
	struct rs_set *set;
};
/* Read TOP/names[i]/findings.csv of each dump whose status is 0: 0, or
 * -1 after a message.  Free with merge_findings_free either way. */
int merge_findings_read(struct merge_findings *mf, const struct runfile_dir *top,
                        const char *const *names, const int *status, size_t n);
/* The summary's section: the first ten not usually harmless. */
void merge_findings_write(const struct merge_findings *mf, FILE *fp, size_t ndumps);
void merge_findings_free(struct merge_findings *mf);

#endif
