/* api.h — the dump handle, shared by the public API's files inside the
 * library: api.c (the handle, accounting), open.c (options, opening),
 * read.c (da_step, da_feed), answers_api.c (the whole-run answers),
 * findings_api.c (what the findings read, and the findings); and what the
 * tool asks of a handle. */
#ifndef DUMPANALYZE_API_H
#define DUMPANALYZE_API_H

#include <stdatomic.h>
#include "dumpanalyze.h"
#include "util/strbuf.h"
#include "analysis/answers.h"
#include "luajit/vmdef.h"
#include "findings/findings.h"
#include "input/input.h"
#include "lib/profiles.h"
#include "model/model.h"
#include "util/diag.h"

struct answers_out;

/* Reading is over (0 or a DA_E* code) or not (1): d->state. */
#define API_READING 1

struct da_dump {
	struct input in;
	struct diag diag;
	struct model model;
	struct parser *parser;
	int opened;                 /* in holds a reader to close */
	int push;                   /* opened with da_open_push */
	int busy;                   /* inside da_step or da_feed: a callback
	                               may not call them again */
	unsigned flags;
	const struct da_sink *sink; /* &sink_copy, or NULL */
	struct da_sink sink_copy;   /* the user's, so theirs may go after open */
	void *sink_data;
	struct answers *answers;    /* with DA_ANSWERS (or DA_FINDINGS) */
	struct findings *findings;  /* with DA_FINDINGS */
	struct api_profiles profiles;   /* da_use_profile: a -jp and a sysprof one */
	struct source_finder finder;    /* da_use_source_root's directories */
	struct text_files *texts;   /* the Lua files read, at their first need */
	char *sources_missing;      /* api_sources_missing's sentence, or NULL */
	struct strbuf ambiguous;    /* the names the finder found ambiguous or
	                               hidden, each ended by a NUL: said already */
	int stepped;                /* read or fed: too late to add those */
	struct answers_out *out;    /* the answers' public records, made once
	                               reading is over */
	struct vmdef *vmdef;        /* options.vmdef_path's numbering */
	char *name;
	int state;                  /* API_READING, 0 done, or a DA_E* code */
	atomic_int interrupted;     /* da_interrupt was called */
	char error[128];
};

/* The sink that keeps the answers, in front of the user's (api.c). */
extern const struct da_sink api_tee;

/* Reading is over with code err (0 at the end): the answers are made
 * (answers_api.c) and later calls get err. */
int api_over(da_dump *d, int err);
void api_answers_make(da_dump *d);
void api_answers_free(da_dump *d);
/* The findings, made at the end of a complete read (findings_api.c; a
 * sysprof profile's functions get their extents then too, findings or
 * not), and what they read, freed. */
void api_findings_make(da_dump *d);
void api_findings_free(da_dump *d);

/* The handle's answers, NULL without DA_ANSWERS (or DA_FINDINGS), and the
 * profiles da_use_profile read, or NULL: the tool's views use them (the
 * sysprof one's functions have their extents from the end of a complete
 * read, findings/fnextent.h). */
const struct answers *api_answers(const da_dump *d);
const struct profile *api_profile(const da_dump *d);
const struct sysprof *api_sysprof(const da_dump *d);

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

/* The directories da_use_source_root gave, as one finder (NULL when none
 * was given): the tool's views find files through it, so a name found
 * ambiguous is said once per run (to diag: DA_WARNING at line 0, not
 * counted).  api_source_finder_init makes it empty, at the open. */
struct source_finder;
struct source_finder *api_source_finder(const da_dump *d);
/* After the findings: which chunks' Lua files (names ending in ".lua")
 * the findings needed and no source directory held, what that changes
 * and that --source-root finds them, one sentence (told to diag once as
 * a warning about the source directories, at line 0, not counted); NULL
 * when every one was found or none was needed. */
const char *api_sources_missing(const da_dump *d);
void api_source_finder_init(da_dump *d);

#endif
