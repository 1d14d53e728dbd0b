/* callees.h — time up the call stack: with folded stacks (-jp=G...), a
 * source line whose callees run where the JIT failed gets those samples
 * too, so the caller that matters shows up.  Which frames failed is the
 * caller's to say: the callee columns (profile-callees.csv, files.csv,
 * source.txt, the summary's sysprof part) take the findings' failed
 * extents (findings/failed.c), the sysprof flame graph's marks the dump's
 * abort sites and likely blacklisted starts (callees_failed_lines).  A
 * sample counts once, for one caller line: of the frames above the
 * deepest failed frame of its stack, the nearest in another file than the
 * failed frame (the code that called into it), else the nearest; so rows,
 * and the files summed from them, add up to at most the stacks' samples.
 * With VM states only interpreted samples count. */
#ifndef DUMPANALYZE_PROFILE_CALLEES_H
#define DUMPANALYZE_PROFILE_CALLEES_H

#include <stddef.h>
#include <stdint.h>
#include "analysis/answers.h"
#include "profile/profile.h"

/* Where the JIT failed, by the base name of its file: a failed finding
 * (its line and main reason) or an abort site or blacklisted start. */
struct failed_line {
	const char *file;           /* the base name of the dump's name: a part
	                               of an interned string, not one itself
	                               (its length is file_len, never
	                               intern_len's) */
	size_t file_len;
	int32_t line;
	const char *reason;         /* the main (normal) reason, or "likely
	                               blacklisted" */
	uint64_t aborts;            /* attempts */
};

struct callee_row {
	const char *file;           /* the caller frame's file, as the
	                               profile writes it (interned there) */
	size_t file_len;
	int32_t line;
	uint64_t samples;           /* interpreted (all without VM states) */
	const struct failed_line *callee;   /* the one with most of them */
};

struct callees {
	struct failed_line *failed; /* the caller's order (callees_failed_lines:
	                               by base name, line) */
	size_t nfailed;
	struct callee_row *rows;    /* most samples first, then file, line */
	size_t n;
	int interpreted;            /* samples are interpreted ones */
};

/* The dump's failed lines (abort sites, likely blacklisted root starts;
 * c zeroed first, sorted by place), for the sysprof flame graph's marks.
 * Then the rows from stacks whose frames look() maps to the failed line
 * they are at (or hold), or NULL; with states, only interpreted stacks
 * count; with c_cuts (-jp's, as its cost rule), a frame is looked for
 * only up to the first C function that called Lua
 * (profile_frame_is_c_boundary). */
void callees_failed_lines(struct callees *c, const struct answers *a);
typedef const struct failed_line *(*callee_lookup)(const struct callees *c, const char *frame,
                                                   void *ctx);
void callees_from_stacks(struct callees *c, const struct profile_stack *stacks, size_t nstacks,
                         const char *const *frames, int states, int c_cuts, callee_lookup look,
                         void *ctx);
void callees_free(struct callees *c);

#endif
