/* api.h — what the public API's files share inside the library. */
#ifndef DUMPANALYZE_API_H
#define DUMPANALYZE_API_H

#include "dumpanalyze.h"
#include "analysis/answers.h"

/* The handle's answers, NULL without DA_ANSWERS (or DA_FINDINGS). */
const struct answers *api_answers(const da_dump *d);
/* The profile da_use_profile read, or NULL: the tool's views use it. */
struct profile;
const struct profile *api_profile(const da_dump *d);

/* For the files of lib/ beside api.c: the findings' state (NULL without
 * DA_FINDINGS); whether what must come before the first da_step still
 * may; whether da_read ended; a DA_ERROR through the caller's diag; out
 * of memory, which leaves only da_close. */
struct findings;
struct findings *api_findings(const da_dump *d);
int api_may_add(const da_dump *d);
int api_read_done(const da_dump *d);
void api_error(const da_dump *d, const char *file, uint64_t line, const char *msg);
int api_out_of_memory(da_dump *d);

/* A source line's fingerprint (findings/lines.h: the hash of its
 * normalised text and its index among equal texts), from the files
 * da_use_source_root allows: 0, or -1 when the line has no text. */
int api_line_fingerprint(const da_dump *d, const char *file, size_t n, int32_t line, char out[13]);

#endif
