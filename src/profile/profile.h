/* profile.h — LuaJIT's profiler output (-jp), read to join it with a
 * dump: samples per source line, split by VM state, and the folded stacks
 * of -jp=G for flame graphs.  Formats read, detected from the text:
 *   -jp=lvr  "   46  file.lua:832" then "  <-    40  Interpreted" ...
 *   -jp=vlr  "  175  Compiled" then "  --   148  file.lua:40" ...
 *   -jp=lv, -jp=vl   the same with percentages ("61%  Compiled")
 *   -jp=lr, -jp=l    lines without VM states
 *   -jp=Gl, -jp=Gvl  "@0x55..;a.lua:25;tablex.lua:575 10", Gvl with a
 *                    "Compiled 176" line before each state's stacks. */
#ifndef DUMPANALYZE_PROFILE_H
#define DUMPANALYZE_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include "util/intern.h"
#include "util/tally.h"

enum vm_state { VM_INTERPRETED, VM_COMPILED, VM_C, VM_GC, VM_JIT, VM_STATES };

enum profile_kind { PROFILE_EMPTY, PROFILE_LINES, PROFILE_STACKS };

struct profile_line {
	const char *file;           /* interned, as the profile spells it */
	int32_t line;
	uint64_t samples;
	uint64_t state[VM_STATES];  /* when the profile has states */
};

struct profile_stack {
	uint32_t first, nframes;    /* frames[first .. first + nframes) */
	int state;                  /* enum vm_state, or -1 */
	uint64_t count;
};

struct profile {
	const char *path;
	enum profile_kind kind;
	int percent;                /* -jp without r: shares, not counts */
	int states;                 /* split by VM state (v) */
	int thresholded;            /* lines look cut at -jp's m (3%) */
	uint64_t total;             /* all samples (10000 for percentages) */
	uint64_t other;             /* samples not at a file:line (C, builtins) */
	uint64_t state_total[VM_STATES];    /* samples by VM state, when split */
	struct intern strings;
	struct profile_line *lines; /* order of first appearance */
	size_t nlines, lines_cap;
	struct profile_stack *stacks;
	size_t nstacks, stacks_cap;
	const char **frames;        /* interned */
	size_t nframes, frames_cap;
	/* reading state */
	uint64_t lineno;
	int format;                 /* detected from the first data line */
	int top_is_state;           /* vlr/vl: the VM state comes first */
	int cur_state;              /* state of the lines that follow */
	size_t cur_line;            /* the location the nested lines split */
	uint64_t cur_count, cur_nested;
	int cur_is_line;
	struct tally by_line;       /* (file, line) -> first = index in lines */
};

/* Names of the VM states as -jp=v prints them, and their short column
 * names (INTERPRETED ...). */
extern const char *const vm_state_names[VM_STATES];

void profile_init(struct profile *p, const char *path);
/* One line of the profile (without its newline).  0, or -1 with the
 * reason in *why (static text) for an unreadable line. */
int profile_line(struct profile *p, const char *s, size_t n, const char **why);
/* After the last line: totals, and checks that need all of it.  0 or -1
 * with *why. */
int profile_end(struct profile *p, const char **why);
/* Why a profile could not be read: the line (0: none, an I/O error) and
 * the message, without the path. */
struct profile_error {
	uint64_t line;
	char msg[256];
};
/* Read a file (plain or compressed, through the input layer): 0; -1 when
 * it is no profile we read, -2 when it cannot be read (errno kept); *e
 * says why.  Prints nothing. */
int profile_load(struct profile *p, const char *path, struct profile_error *e);
void profile_free(struct profile *p);

/* "tablex.lua:575" -> file "tablex.lua" (n 10), line 575; 0 when the
 * frame is not a source line (C code, builtins). */
int profile_split_frame(const char *s, size_t n, size_t *file_len, int32_t *line);
/* Whether a frame that is not a source line ends what a trace of the Lua
 * frames around it can hold: a C function that calls Lua back
 * (table.sort's comparator, string.gsub's callback) runs that Lua code in
 * the interpreter or a trace of its own, never in a trace of its caller.
 * pcall and xpcall are passed over: LuaJIT 2.1 records through them. */
int profile_frame_is_c_boundary(const char *s, size_t n);
/* The name a dump uses for a profile's file: the part after the last '/'
 * (profiles written with -jp=...p carry whole paths). */
const char *profile_basename(const char *file, size_t n, size_t *len);
/* A bytecode line of OpenResty luajit2's dump that ends in "(file:line)",
 * "0026  LEN  10  4       (costly.lua:15)": 1 with *file and *file_len
 * pointing into l and *line set; 0 for any other line. */
int profile_bc_source(const char *l, size_t n, const char **file, size_t *file_len,
                      int32_t *line);

#endif
