/* profile_join.h — a profile's samples and a dump's JIT events on the
 * same source lines: which aborts and blacklistings cost time.  The
 * profile and summary views and the HTML report share it. */
#ifndef DUMPANALYZE_PROFILE_JOIN_H
#define DUMPANALYZE_PROFILE_JOIN_H

#include <stddef.h>
#include <stdint.h>
#include "analysis/answers.h"
#include "profile/profile.h"

struct joined_line {
	const char *file;           /* the dump's spelling when it names the file */
	size_t file_len;
	int32_t line;
	uint64_t samples;           /* 0.01% units for a percentage profile */
	uint64_t state[VM_STATES];
	uint64_t aborts;
	const char *top_reason;     /* the most frequent abort reason there, or NULL */
	uint64_t started;           /* traces and aborted attempts started there */
	uint64_t blacklisted;       /* root starts LuaJIT likely gave up on */
	uint64_t rank_samples;      /* interpreted samples, or all of them
	                               when the profile has no VM states */
};

struct join {
	struct joined_line *rows;   /* ranked: see join_build */
	size_t n;
	uint64_t profile_lines;     /* source lines in the profile */
	uint64_t unmatched_lines;   /* of them, in files the dump never names */
	uint64_t unmatched_samples;
	uint64_t by_basename;       /* matched after dropping a directory */
};

/* Rows for every line with samples or JIT events, ranked: lines where
 * traces aborted or were blacklisted first, by interpreted samples (all
 * samples when the profile has no VM states), then samples, then the
 * rest the same way; ties by file and line. */
void join_build(struct join *j, const struct answers *a, const struct profile *p);
int joined_failed(const struct joined_line *r);      /* aborts or blacklisted */
void join_free(struct join *j);

#endif
