/* source.h — the state the source view (source.c, source.txt;
 * source_html.c, its pages) and the files view (files.c) share, kept by
 * source_state.c, and the link the report puts on a source line. */
#ifndef DUMPANALYZE_VIEWS_SOURCE_H
#define DUMPANALYZE_VIEWS_SOURCE_H

#include <stddef.h>
#include <stdint.h>
#include "views/view.h"
#include "source/source_model.h"
#include "source/find.h"

struct source_state {
	uint64_t gens;              /* generations ended */
	struct src_model model;
	struct source_finder finder;    /* its own, when the library has none */
	struct source_finder *use;  /* the library's (api_source_finder), or &finder */
	int inited;                 /* the model's tables are made */
	int ready;                  /* finish ran: the pages exist */
};

/* A view's struct source_state, its model's tables made at the first call. */
struct source_state *source_view_state(struct view_ctx *c);
/* Hooks for a view whose state is a struct source_state (source, files). */
int source_view_gen_begin(struct view_ctx *c, const struct da_gen *g);
int source_view_trace(struct view_ctx *c, const struct da_trace *t);
int source_view_abort(struct view_ctx *c, const struct da_abort *a);
int source_view_gen_end(struct view_ctx *c, const struct da_gen *g);
void source_view_release(struct view_ctx *c);
/* At the end of the run: the profile and callees joined, files ranked
 * (nothing read from disk). */
void source_prepare(struct view_ctx *c, struct source_state *s);

/* The page and anchor of a source line ("source-3.html#L29") into buf,
 * when the run has the source view and a page for that file: 0; else -1
 * (no page: the file was not found, or the view is not in the set). */
int source_page_link(const struct view_set *s, const char *file, size_t n, int32_t line,
                     char *buf, size_t len);

/* source_html.c: source-K.html for every file read, and
 * source-index.html.  0, or -1 after the cause was printed. */
int source_write_pages(struct view_ctx *c, struct source_state *s);

#endif
