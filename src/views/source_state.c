/* source_state.c — the state the source view and the files view share
 * (views/source.h): the hooks that feed the source model (source/source_model.c),
 * its callees the findings' (findings/failed.c); the model made
 * ready at the end of the run; and the link the report puts on a source
 * line, asked of the source view once its pages exist. */
#include <stdio.h>
#include <string.h>
#include "views/source.h"
#include "findings/failed.h"
#include "lib/api.h"

/* The state starts zeroed; the model wants its tables made. */
struct source_state *source_view_state(struct view_ctx *c)
{
	struct source_state *s = c->state;
	if (!s->inited) {
		src_model_init(&s->model);
		s->inited = 1;
		/* the source view reads trace text; the files view needs none */
		s->model.want_cover = (c->view->needs & NEEDS_TEXT) != 0;
		s->model.want_lines = s->model.want_cover;
	}
	return s;
}

int source_view_gen_begin(struct view_ctx *c, const struct da_gen *g)
{
	(void)g;
	src_model_gen_begin(&source_view_state(c)->model);
	return 0;
}

int source_view_trace(struct view_ctx *c, const struct da_trace *t)
{
	struct source_state *s = source_view_state(c);
	src_model_trace(&s->model, t);
	return 0;
}

int source_view_abort(struct view_ctx *c, const struct da_abort *a)
{
	struct source_state *s = source_view_state(c);
	src_model_abort(&s->model, a);
	return 0;
}

int source_view_gen_end(struct view_ctx *c, const struct da_gen *g)
{
	struct source_state *s = source_view_state(c);
	s->gens++;
	src_model_gen_end(&s->model, g);
	return 0;
}

void source_prepare(struct view_ctx *c, struct source_state *s)
{
	struct callees cal;
	failed_callees(&cal, api_findings(c->dump), c->profile);
	src_model_profile(&s->model, c->profile, &cal);
	callees_free(&cal);
	src_model_rank(&s->model);
}

void source_view_release(struct view_ctx *c)
{
	struct source_state *s = c->state;
	if (!s->inited)
		return;
	src_model_free(&s->model);
	source_finder_free(&s->finder);
}

int source_page_link(const struct view_set *set, const char *file, size_t n, int32_t line,
                     char *buf, size_t len)
{
	for (size_t i = 0; i < set->n; i++) {
		const struct view_ctx *c = &set->ctx[i];
		if (strcmp(c->view->name, "source") != 0)
			continue;
		struct source_state *s = c->state;
		if (!s->ready)
			return -1;
		const struct src_file *f = src_model_file(&s->model, file, n);
		if (!f || !f->page)
			return -1;
		if (line > 0)
			snprintf(buf, len, "source-%u.html#L%d", f->page, line);
		else
			snprintf(buf, len, "source-%u.html", f->page);
		return 0;
	}
	return -1;
}
