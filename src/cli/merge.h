/* merge.h — the summary of several dumps analysed at once: OUT/summary.txt
 * from the files each one wrote into OUT/<name>/. */
#ifndef DUMPANALYZE_MERGE_H
#define DUMPANALYZE_MERGE_H

#include <stddef.h>

struct outdir;

/* dumps[i] was analysed into TOP/names[i]/ with exit status status[i];
 * messages name TOP as top_shown (where the commit moves it).  Writes
 * summary.txt into out (published by the caller).  0 or -1. */
int merge_summaries(struct outdir *out, const char *top, const char *top_shown,
                    const char *const *dumps, const char *const *names, const int *status,
                    size_t n);

#endif
