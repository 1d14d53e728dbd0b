/* header.h — parse one "---- TRACE ..." header line into its fields. */
#ifndef DUMPANALYZE_HEADER_H
#define DUMPANALYZE_HEADER_H

#include <stddef.h>
#include <stdint.h>
#include "dumpanalyze.h"
#include "parse/loc.h"

enum header_kind {
#define HEADER(e, w) HEADER_##e,
#include "parse/header_kinds.def"
#undef HEADER
	HEADER_KIND_COUNT
};

/* How a trace ends is an enum da_link (dumpanalyze.h), whose order is
 * link_types.def's (api.c checks it). */

/* LuaJIT stores trace numbers in 16 bits (TraceNo1). */
#define TRACE_NUMBER_MAX 65535

#define PARENT_EXIT_NONE DA_PARENT_EXIT_NONE   /* a root trace */
#define PARENT_EXIT_STITCH DA_PARENT_EXIT_STITCH /* "P/stitch" */

struct header {
	enum header_kind kind;
	uint32_t id;                /* 0 for flush */
	/* start */
	uint32_t parent;            /* 0 when none */
	int32_t parent_exit;        /* exit number, or PARENT_EXIT_* */
	/* start, abort: LOC as written, and split */
	const char *loc_text;
	size_t loc_len;
	struct loc loc;
	/* abort: reason, byte-exact including trailing spaces */
	const char *reason;
	size_t reason_len;
	/* stop: the text after "-> ", and what it means */
	const char *link;
	size_t link_len;
	enum da_link link_kind;
	uint32_t link_target;       /* trace number linked to, 0 when none */
	/* mcode: size in bytes; exit: exit number */
	uint32_t number;
};

enum header_result {
	HEADER_OK = 0,
	HEADER_NOT = 1,             /* not a "---- TRACE " line at all */
	HEADER_INCOMPLETE = 2,      /* LOC is a quoted chunk name that goes on
	                               on the next physical line */
	HEADER_BAD = 3              /* starts like a header, does not parse */
};

/* True when the line starts with "---- TRACE ". */
int header_is(const char *p, size_t n);
/* Parse; on HEADER_BAD *why says what was wrong (a static string).  All
 * spans point into p. */
enum header_result header_parse(const char *p, size_t n, struct header *h,
                                const char **why);
const char *header_kind_word(enum header_kind k);
const char *link_kind_word(enum da_link k);

#endif
