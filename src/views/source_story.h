/* source_story.h — the JIT's story of one source line in words
 * (source_story.c), shared by source.txt (source.c) and the pages
 * (source_html.c). */
#ifndef DUMPANALYZE_VIEWS_SOURCE_STORY_H
#define DUMPANALYZE_VIEWS_SOURCE_STORY_H

#include <stddef.h>
#include "source/source_model.h"
#include "dumpanalyze.h"

/* One line's annotations in words: calls text(arg, s, n) for each plain
 * piece, link(arg, href, s, n) for each linked piece, end(arg) after each
 * annotation. */
struct src_writer {
	void (*text)(void *arg, const char *s, size_t n);
	void (*link)(void *arg, const char *href, const char *s, size_t n);
	void (*end)(void *arg);     /* one annotation done */
	void *arg;
};
void source_annotate(const struct src_model *m, const struct src_line *l,
                     const struct src_writer *w);
/* The same into a buffer (malloc'd, *n bytes; NULL when none can be
 * had), after `before`, without the separator `sep` that every annotation
 * ends with after the last one.  w->arg is not used. */
char *source_story(const struct src_model *m, const struct src_line *l,
                   struct src_writer w, const char *before, const char *sep, size_t *n);

/* The library's findings whose extent lies in the file of that name
 * (interned), best first (malloc'd, *n of them): what source.txt and the
 * pages mark. */
const struct da_finding **source_file_findings(const da_dump *d, const char *name, size_t *n);

#endif
