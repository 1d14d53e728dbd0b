/* jv.h — one line of LuaJIT's -jv verbose log (jit/v.lua):
 *   [TRACE   3 (1/2) file.lua:10 -> 1]      [TRACE   1 file.lua:5 loop]
 *   [TRACE   8 x.lua:4 stitch string.find]  [TRACE   4 x.lua:9 -- fallback to interpreter]
 *   [TRACE --- (43/1) x.lua:24 -- NYI: bytecode 71 at x.lua:106]
 *   [TRACE flush]
 * It says less than a dump: no bytecode, IR, machine code or exits. */
#ifndef DUMPANALYZE_JV_H
#define DUMPANALYZE_JV_H

#include <stddef.h>
#include <stdint.h>
#include "parse/header.h"

enum jv_kind { JV_STOP, JV_ABORT, JV_FLUSH, JV_OTHER };

struct jv_event {
	enum jv_kind kind;
	uint32_t id;                /* 0 for an abort ("---") */
	uint32_t parent;
	int32_t parent_exit;        /* PARENT_EXIT_NONE / _STITCH or the exit */
	const char *loc;            /* where the trace started */
	size_t loc_len;
	const char *abort_loc;      /* where it aborted ("at LOC", else loc) */
	size_t abort_loc_len;
	const char *reason;
	size_t reason_len;
	const char *link;           /* as a dump's "stop -> LINK" would say */
	size_t link_len;
	enum da_link link_kind;
	uint32_t link_target;
};

/* 0 and *e filled, or -1 when the line is not a -jv event. */
int jv_parse(const char *p, size_t n, struct jv_event *e);

#endif
