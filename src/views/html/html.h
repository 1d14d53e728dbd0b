/* html.h — the parts of the html view (src/views/html.c is its struct,
 * its hooks and the files it streams): escaping and page heads
 * (escape.c), the trace text kept for the report in compressed chunks
 * (text.c), a generation's page and its data (gen.c), index.html
 * (index.c) and its first screen, the findings (first.c). */
#ifndef DUMPANALYZE_VIEWS_HTML_H
#define DUMPANALYZE_VIEWS_HTML_H

#include <stdint.h>
#include <stdio.h>
#include "views/view.h"
#include "util/tally.h"

/* The files the pages share, beside them: written once a run, with the
 * first generation (html.c). */
#define HTML_CSS_FILE "report.css"
#define HTML_BUSHES_FILE "report-bushes.js"
#define HTML_LINKS_FILE "source-links.js"

/* ---- escape.c ---- */

/* Text between tags or in a quoted attribute; control characters but
 * tabs become spaces. */
void html_put_text(FILE *fp, const char *s, size_t n);
/* A JSON string that is also safe inside <script>. */
void html_put_json(FILE *fp, const char *s, size_t n);
void html_put_json_str(FILE *fp, const char *interned);
/* "FILE:LINE" (FILE interned; no ":LINE" without a line) as a JSON
 * string, or null without a file. */
void html_put_json_loc(FILE *fp, const char *file, int32_t line);
/* A line number as JSON, or null for none (LOC_NO_LINE). */
void html_put_json_line(FILE *fp, int32_t line);
/* <!DOCTYPE> ... <header><h1>title</h1><p>file</p> (the header is left
 * open), the page's style from HTML_CSS_FILE. */
void html_page_head(FILE *fp, const char *title, const char *file);
/* "ROOT" or "ROOT.K": a bush's name in anchors and file names. */
void html_bush_label(char *buf, size_t n, const struct da_bush *b);

/* ---- text.c ---- */

/* The run's budget of compressed trace text (the chunk files' bytes):
 * text is kept in dump order until the chunks written reach it; past
 * HTML_TEXT_FULL, without the machine code (most of the bytes). */
#define HTML_TEXT_BUDGET (24u << 20)
#define HTML_TEXT_FULL (12u << 20)
/* Raw bytes gathered before a chunk is compressed and written. */
#define HTML_CHUNK_RAW (256u << 10)

/* Where a trace's or an attempt's sections are: chunk, offset in the
 * chunk's bytes once decompressed, and each section's length. */
struct html_text_ref {
	int32_t chunk;              /* -1: not kept */
	uint32_t off;
	uint32_t len[DA_SEC_COUNT];
	int no_mcode;               /* its machine code left out (budget) */
};

struct html_text {
	char *raw;                  /* the chunk being gathered */
	size_t len, cap;
	int32_t chunk;              /* its number in the generation */
	uint32_t gen;
	uint64_t written;           /* compressed bytes, the whole run */
	uint64_t kept, dropped;     /* traces and attempts, the whole run */
	void *compressor;
};

/* Keep tx's sections (when the budget allows) and say where in *ref. */
int html_text_add(struct html_text *h, struct view_ctx *c, uint32_t gen,
                  const struct da_trace_text *tx, struct html_text_ref *ref);
/* Write the generation's last chunk; returns how many chunks it has, or -1. */
int html_text_gen_end(struct html_text *h, struct view_ctx *c, uint32_t gen);
void html_text_free(struct html_text *h);

/* ---- gen.c ---- */

/* What the view keeps of a generation until its end: each trace's text
 * (by stop order) and its aborted attempts as JSON rows. */
struct html_gen {
	struct html_text_ref *trace_text;
	size_t ntrace_text, trace_text_cap;
	char *aborts;               /* JSON rows, ",\n"-separated */
	size_t aborts_len, aborts_cap;
	uint64_t naborts;
	uint64_t dropped_before;    /* html_text's dropped when it began */
	/* The run's abort sites (reason, file, line): their first attempt's
	 * generation << 40 | dump line.  Only that attempt's text is kept;
	 * the others at the site link to it. */
	struct tally sites;
	struct tally normal;        /* (reason as written, its normal form)
	                               of the generation's attempts */
};

int html_gen_trace(struct html_gen *hg, struct html_text *h, struct view_ctx *c,
                   const struct da_trace *t);
int html_gen_abort(struct html_gen *hg, struct html_text *h, struct view_ctx *c,
                   const struct da_abort *r);
/* gen-N-bushes.html and gen-N-bushes.js; resets hg for the next generation. */
int html_gen_write(struct html_gen *hg, struct html_text *h, struct view_ctx *c,
                   const struct da_gen *g);
void html_gen_free(struct html_gen *hg);

/* ---- first.c ---- */

/* Each generation's number and last dump line, in dump order: which
 * generation's page holds an attempt of a given dump line. */
struct html_gen_lines {
	uint32_t *number;
	uint64_t *last;
	size_t n, cap_number, cap_last;
};
void html_gen_lines_add(struct html_gen_lines *gl, uint32_t number, uint64_t last);
/* The generation of a dump line, 0 when past the last. */
uint32_t html_gen_of_line(const struct html_gen_lines *gl, uint64_t line);
void html_gen_lines_free(struct html_gen_lines *gl);

/* index.html's first screen as JSON members: "shares" (the profile's
 * samples by VM state, or null), "top" (how many findings the screen
 * lists first) and "findings" ({"cols": names, "rows": one per finding,
 * in rank order}). */
void html_put_first(FILE *fp, struct view_ctx *c, const struct html_gen_lines *gl);

/* ---- index.c ---- */

/* index.html from the run's answers; trace_rows: index-traces.js was
 * written, for the page to load; gl: the generations' dump lines.  0, or
 * -1 after the cause was printed. */
struct answers;
int html_index_write(struct view_ctx *c, const struct answers *a, int trace_rows,
                     const struct html_gen_lines *gl);

/* ---- time.c ---- */

#define HTML_TIME_FILE "profile-time.js"
/* With a sysprof profile: DA_TIME, its samples per trace and bush, for
 * the generation pages.  0 or -1. */
int html_time_write(struct view_ctx *c);

#endif
