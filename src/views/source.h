/* source.h — the source view's state, shared by its text form
 * (source.c) and its pages (source_html.c), and the link the report
 * puts on a source line. */
#ifndef DUMPANALYZE_VIEWS_SOURCE_H
#define DUMPANALYZE_VIEWS_SOURCE_H

#include <stddef.h>
#include <stdint.h>
#include "views/view.h"
#include "analysis/answers.h"
#include "source/model.h"
#include "source/find.h"

struct source_state {
	struct answers answers;     /* failed lines for the callees */
	struct src_model model;
	struct source_finder finder;
	int inited;                 /* the model's tables are made */
	int ready;                  /* finish ran: the pages exist */
};

/* The page and anchor of a source line ("source-3.html#L29") into buf,
 * when the run has the source view and a page for that file: 0; else -1
 * (no page: the file was not found, or the view is not in the set). */
int source_page_link(const struct view_set *s, const char *file, size_t n, int32_t line,
                     char *buf, size_t len);

/* source_html.c: source-K.html for every file read, and
 * source-index.html.  0, or -1 after the cause was printed. */
int source_write_pages(struct view_ctx *c, struct source_state *s);

/* One annotation of a line in words, shared by the text and the pages:
 * calls put(arg, text, n) for each plain piece, link(arg, href, text)
 * for each linked piece. */
struct src_writer {
	void (*text)(void *arg, const char *s, size_t n);
	void (*link)(void *arg, const char *href, const char *s, size_t n);
	void (*end)(void *arg);     /* one annotation done */
	void *arg;
};
void source_annotate(const struct src_model *m, const struct src_line *l,
                     const struct src_writer *w);

#endif
