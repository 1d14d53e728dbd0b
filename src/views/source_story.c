/* source_story.c — the JIT's story of one source line in words (traces
 * started there, aborted attempts, aborts, blacklisting, exits given up,
 * links, coverage, samples, callee time), written through a struct
 * src_writer so that source.txt and the pages (source_html.c) say the
 * same: plain text pieces, and links to the report that the text leaves
 * as text; and which findings a file's lines hold, for both to mark. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "views/source_story.h"
#include "util/intern.h"
#include "util/diag.h"
#include "util/alloc.h"

#define REFS_SHOWN 4                /* traces named per annotation */

static void say(const struct src_writer *w, const char *fmt, ...) DA_PRINTF(2, 3);
static void say(const struct src_writer *w, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		w->text(w->arg, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

static void say_name(const struct src_writer *w, const char *s)
{
	w->text(w->arg, s, strlen(s));
}

static void say_interned(const struct src_writer *w, const char *s)
{
	w->text(w->arg, s, intern_len(s));
}

static void link_trace(const struct src_writer *w, struct src_ref r)
{
	char href[64], text[48];
	snprintf(href, sizeof(href), "gen-%u-bushes.html#trace-%u", r.gen, r.id);
	int n = snprintf(text, sizeof(text), "gen %u trace %u", r.gen, r.id);
	w->link(w->arg, href, text, (size_t)n);
}

static void link_abort(const struct src_writer *w, struct src_ref r)
{
	char href[64], text[48];
	snprintf(href, sizeof(href), "gen-%u-bushes.html#abort-%" PRIu64, r.gen, r.line_no);
	int n = snprintf(text, sizeof(text), "dump line %" PRIu64, r.line_no);
	w->link(w->arg, href, text, (size_t)n);
}

static void say_refs(const struct src_writer *w, const struct src_ref *refs, uint64_t n)
{
	for (uint64_t i = 0; i < n && i < REFS_SHOWN && i < SRC_REFS; i++) {
		if (i)
			say_name(w, ", ");
		link_trace(w, refs[i]);
	}
	if (n > REFS_SHOWN)
		say(w, ", \u2026 %" PRIu64 " more", n - REFS_SHOWN);
}

static void say_first_last(const struct src_writer *w, const struct src_reason *r)
{
	say_name(w, " (");
	if (r->count > 1)
		say_name(w, "first ");
	link_abort(w, r->first);
	if (r->count > 1) {
		say_name(w, ", last ");
		link_abort(w, r->last);
	}
	say_name(w, ")");
}

static void say_samples(const struct src_writer *w, const struct src_model *m, uint64_t v)
{
	if (m->percent)
		say(w, "%" PRIu64 ".%02" PRIu64 "%%", v / 100, v % 100);
	else
		say(w, "%" PRIu64, v);
}

/* FILE:LINE; a line of the same file links to its anchor on the page. */
static void say_place(const struct src_writer *w, const struct src_line *l, const char *file,
                      int32_t line)
{
	size_t n = intern_len(file), k = intern_len(l->file);
	if (line != LOC_NO_LINE && n == k && memcmp(file, l->file, n) == 0 && n < 200) {
		char text[256], href[32];
		int tn = snprintf(text, sizeof(text), "%.*s:%d", (int)n, file, line);
		snprintf(href, sizeof(href), "#L%d", line);
		w->link(w->arg, href, text, (size_t)tn);
		return;
	}
	say_interned(w, file);
	if (line != LOC_NO_LINE)
		say(w, ":%d", line);
}

static const char *plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

char *source_story(const struct src_model *m, const struct src_line *l,
                   struct src_writer w, const char *before, const char *sep, size_t *n)
{
	char *buf = NULL;
	*n = 0;
	/* a memory stream fails for want of memory only */
	FILE *mem = open_memstream(&buf, n);
	if (!mem)
		out_of_memory();
	w.arg = mem;
	fputs(before, mem);
	source_annotate(m, l, &w);
	if (fclose(mem) != 0) {
		free(buf);
		out_of_memory();
	}
	size_t k = strlen(sep);
	if (*n >= k && memcmp(buf + *n - k, sep, k) == 0)
		*n -= k;
	return buf;
}

void source_annotate(const struct src_model *m, const struct src_line *l,
                     const struct src_writer *w)
{
	if (l->traces) {
		say(w, "%" PRIu64 " compiled %s here", l->traces, plural(l->traces, "trace starts", "traces start"));
		if (l->side || l->stitched || l->orphans)
			say(w, " (%" PRIu64 " side, %" PRIu64 " stitched%s", l->side, l->stitched,
			    l->orphans ? ", " : ")");
		if (l->orphans)
			say(w, "%" PRIu64 " orphan)", l->orphans);
		say_name(w, ": ");
		say_refs(w, l->trace_refs, l->traces);
		w->end(w->arg);
	}
	for (uint32_t i = 0; i < l->nstarted; i++) {
		const struct src_reason *r = &l->started[i];
		say(w, "%" PRIu64 " aborted %s started here: ", r->count, plural(r->count, "attempt", "attempts"));
		say_interned(w, r->reason);
		if (r->at_file && (r->at_file != l->file || r->at_line != l->line)) {
			say_name(w, " at ");
			say_place(w, l, r->at_file, r->at_line);
		}
		say_first_last(w, r);
		w->end(w->arg);
	}
	for (uint32_t i = 0; i < l->naborted; i++) {
		const struct src_reason *r = &l->aborted[i];
		say(w, "%" PRIu64 " %s here: ", r->count, plural(r->count, "abort", "aborts"));
		say_interned(w, r->reason);
		say_first_last(w, r);
		w->end(w->arg);
	}
	if (l->blacklisted) {
		say(w, "likely blacklisted (in %" PRIu64 " %s; %" PRIu64 " of its %" PRIu64
		    " attempts: ", l->blacklisted, plural(l->blacklisted, "generation", "generations"),
		    l->blacklist_main_n, l->blacklist_attempts);
		say_interned(w, l->blacklist_main);
		if (strcmp(l->blacklist_reason, l->blacklist_main) != 0) {
			say_name(w, "; last: ");
			say_interned(w, l->blacklist_reason);
		}
		say_name(w, ")");
		w->end(w->arg);
	}
	if (l->exits_given_up) {
		if (l->exit_no == PARENT_EXIT_STITCH)
			say(w, "likely blacklisted: the stitch after ");
		else
			say(w, "likely given up: exit %d of ", l->exit_no);
		link_trace(w, l->exit_ref);
		say(w, " (%" PRIu64 " aborted %s, last: ", l->exit_attempts,
		    plural(l->exit_attempts, "attempt", "attempts"));
		say_interned(w, l->exit_reason);
		say_name(w, l->exit_stub ? "; now an interpreter stub)" : ")");
		if (l->exits_given_up > 1)
			say(w, " and %" PRIu64 " more", l->exits_given_up - 1);
		w->end(w->arg);
	}
	if (l->links_in) {
		say(w, "%" PRIu64 " %s to a trace starting here (first: ", l->links_in,
		    plural(l->links_in, "trace links", "traces link"));
		link_trace(w, l->link_ref);
		say_name(w, ")");
		w->end(w->arg);
	}
	if (l->stops) {
		say(w, "%" PRIu64 " compiled %s here", l->stops, plural(l->stops, "trace ends", "traces end"));
		w->end(w->arg);
	}
	if (l->covered) {
		say(w, "in %" PRIu64 " compiled %s: ", l->covered, plural(l->covered, "trace", "traces"));
		say_refs(w, l->cover_refs, l->covered);
		w->end(w->arg);
	}
	if (l->samples) {
		say_samples(w, m, l->samples);
		say_name(w, m->percent ? " of the samples" : plural(l->samples, " sample", " samples"));
		if (m->states) {
			static const char *const names[VM_STATES] = { "interpreted", "compiled", "C", "GC", "JIT" };
			const char *sep = ": ";
			for (int k = 0; k < VM_STATES; k++)
				if (l->state[k]) {
					say_name(w, sep);
					say_samples(w, m, l->state[k]);
					say(w, " %s", names[k]);
					sep = ", ";
				}
		}
		w->end(w->arg);
	}
	if (l->callee_samples) {
		say(w, "%" PRIu64 " %s in callees that failed to compile (", l->callee_samples,
		    m->states ? plural(l->callee_samples, "interpreted sample", "interpreted samples")
		              : plural(l->callee_samples, "sample", "samples"));
		say_name(w, l->callee_reason);
		say_name(w, ", ");
		say_place(w, l, l->callee_file, l->callee_line);
		say_name(w, ")");
		w->end(w->arg);
	}
}

/* The findings whose extent lies in the file of that name, best first. */
const struct da_finding **source_file_findings(const da_dump *d, const char *name, size_t *n)
{
	size_t total = d ? da_findings(d) : 0, len = intern_len(name);
	const struct da_finding **v = xrealloc(NULL, (total ? total : 1) * sizeof(*v));
	*n = 0;
	for (size_t i = 0; i < total; i++) {
		const struct da_finding *x = da_finding(d, i);
		if (x->file && x->extent_basis != DA_BASIS_NONE && x->line > 0 && x->end_line >= x->line &&
		    strlen(x->file) == len && memcmp(x->file, name, len) == 0)
			v[(*n)++] = x;
	}
	return v;
}
