/* view.c — the view registry and the set of views chosen for a run. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "views/view.h"
#include "analysis/answers.h"
#include "util/arena.h"
#include "outdir/outdir.h"

extern const struct view view_summary;
extern const struct view view_findings;
extern const struct view view_sarif;
extern const struct view view_problems;
extern const struct view view_codequality;
extern const struct view view_traces;
extern const struct view view_abort_reasons;
extern const struct view view_abort_reasons_txt;
extern const struct view view_abort_sites;
extern const struct view view_exits;
extern const struct view view_blacklist;
extern const struct view view_bush_txt;
extern const struct view view_bush_png;
extern const struct view view_bush_svg;
extern const struct view view_jsonl;
extern const struct view view_html;
extern const struct view view_profile;
extern const struct view view_sysprof;
extern const struct view view_source;
extern const struct view view_files;
extern const struct view view_flamegraph;

/* Adding a view: one file in src/views/ and one line here. */
const struct view *const view_table[] = {
	&view_summary,
	&view_findings,
	&view_sarif,
	&view_problems,
	&view_codequality,
	&view_traces,
	&view_abort_reasons,
	&view_abort_reasons_txt,
	&view_abort_sites,
	&view_exits,
	&view_blacklist,
	&view_bush_txt,
	&view_bush_png,
	&view_bush_svg,
	&view_jsonl,
	&view_profile,
	&view_sysprof,
	&view_flamegraph,
	&view_source,
	&view_files,
	&view_html,
	NULL
};

const struct view *view_find(const char *name, char *err, size_t errlen)
{
	size_t n = strlen(name);
	const struct view *found = NULL;
	int matches = 0;
	for (size_t i = 0; view_table[i]; i++) {
		if (strcmp(view_table[i]->name, name) == 0)
			return view_table[i];
		if (n && strncmp(view_table[i]->name, name, n) == 0) {
			found = view_table[i];
			matches++;
		}
	}
	if (matches == 1)
		return found;
	if (matches == 0) {
		snprintf(err, errlen, "unknown view '%s' (--views list shows them)", name);
		return NULL;
	}
	size_t k = (size_t)snprintf(err, errlen, "ambiguous view '%s': could be", name);
	for (size_t i = 0; view_table[i] && k < errlen; i++)
		if (strncmp(view_table[i]->name, name, n) == 0)
			k += (size_t)snprintf(err + k, errlen - k, " %s", view_table[i]->name);
	return NULL;
}

/* How a view came into the set: not at all, with the default set, or by
 * name ('all', or another view's need, counts as by name). */
enum { NOT_CHOSEN, CHOSEN_DEFAULT, CHOSEN_NAMED };

#define PROFILE_NEEDS (NEEDS_PROFILE | NEEDS_STACKS | NEEDS_SYSPROF)

/* Whether what the view needs of a profile is there. */
static int profile_fits(const struct view *v, unsigned have)
{
	unsigned want = v->needs & PROFILE_NEEDS;
	return (want & have) == want;
}

/* The default set: the views marked default, and those a profile brings
 * when it is there (profile, sysprof, and flamegraph with stacks). */
static void choose_defaults(char *chosen, size_t count, unsigned have)
{
	for (size_t i = 0; i < count; i++) {
		const struct view *v = view_table[i];
		int in = v->is_default || ((v->needs & PROFILE_NEEDS) && profile_fits(v, have));
		if (in && chosen[i] == NOT_CHOSEN)
			chosen[i] = CHOSEN_DEFAULT;
	}
}

/* Place view i after the chosen views it requires (depth first; a view
 * is marked before its requirements, so a loop cannot recur forever). */
static void place(const struct view *const *table, size_t count, const char *chosen, size_t i,
                  char *placed, size_t *order, size_t *n)
{
	if (placed[i])
		return;
	placed[i] = 1;
	for (const char *const *r = table[i]->requires; r && *r; r++)
		for (size_t k = 0; k < count; k++)
			if (chosen[k] && strcmp(table[k]->name, *r) == 0)
				place(table, count, chosen, k, placed, order, n);
	order[(*n)++] = i;
}

size_t view_order(const struct view *const *table, size_t count, const char *chosen,
                  size_t *order)
{
	char *placed = xrealloc(NULL, count ? count : 1);
	memset(placed, 0, count ? count : 1);
	size_t n = 0;
	for (size_t i = 0; i < count; i++)
		if (chosen[i])
			place(table, count, chosen, i, placed, order, &n);
	free(placed);
	return n;
}

int view_set_init(struct view_set *s, const char *list, unsigned have,
                  char *err, size_t errlen)
{
	size_t count = 0;
	while (view_table[count])
		count++;
	char *chosen = xrealloc(NULL, count ? count : 1);
	memset(chosen, NOT_CHOSEN, count ? count : 1);
	if (!list) {
		choose_defaults(chosen, count, have);
	} else {
		const char *p = list;
		for (;;) {
			const char *comma = strchr(p, ',');
			size_t len = comma ? (size_t)(comma - p) : strlen(p);
			char name[64];
			if (len == 0 || len >= sizeof(name)) {
				snprintf(err, errlen, "bad view list '%s'", list);
				free(chosen);
				return -1;
			}
			memcpy(name, p, len);
			name[len] = '\0';
			if (strcmp(name, VIEWS_DEFAULT) == 0) {
				choose_defaults(chosen, count, have);
			} else if (strcmp(name, VIEWS_ALL) == 0) {
				for (size_t i = 0; i < count; i++)
					if (profile_fits(view_table[i], have))
						chosen[i] = CHOSEN_NAMED;
			} else {
				const struct view *v = view_find(name, err, errlen);
				if (!v) {
					free(chosen);
					return -1;
				}
				for (size_t i = 0; i < count; i++)
					if (view_table[i] == v)
						chosen[i] = CHOSEN_NAMED;
			}
			if (!comma)
				break;
			p = comma + 1;
		}
	}
	/* A view that needs another's files brings it along (one level:
	 * a required view requires nothing more) when the profile fits it
	 * (the report brings the flame graph only for a profile of stacks). */
	for (size_t i = 0; i < count; i++)
		for (const char *const *r = view_table[i]->requires; chosen[i] && r && *r; r++)
			for (size_t k = 0; k < count; k++)
				if (strcmp(view_table[k]->name, *r) == 0 && profile_fits(view_table[k], have))
					chosen[k] = CHOSEN_NAMED;
	/* Registry order, each view once, whatever the order given, each
	 * after the views it requires (view_order). */
	size_t *order = xrealloc(NULL, (count ? count : 1) * sizeof(*order));
	size_t norder = view_order(view_table, count, chosen, order);
	s->ctx = xrealloc(NULL, (count ? count : 1) * sizeof(*s->ctx));
	memset(s->ctx, 0, (count ? count : 1) * sizeof(*s->ctx));
	s->n = 0;
	s->left_out = 0;
	s->needs = 0;
	s->sysprof = NULL;
	for (size_t o = 0; o < norder; o++) {
		size_t i = order[o];
		struct view_ctx *c = &s->ctx[s->n++];
		c->view = view_table[i];
		c->set = s;
		c->named = chosen[i] == CHOSEN_NAMED;
		c->state = xrealloc(NULL, c->view->state_size ? c->view->state_size : 1);
		memset(c->state, 0, c->view->state_size ? c->view->state_size : 1);
		s->needs |= c->view->needs;
	}
	free(order);
	free(chosen);
	return 0;
}

void view_set_attach(struct view_set *s, struct outdir *out, const da_dump *d,
                     const char *name, unsigned jobs, const struct profile *profile)
{
	for (size_t i = 0; i < s->n; i++) {
		struct view_ctx *c = &s->ctx[i];
		c->out = out;
		c->dump = d;
		c->name = name;
		c->jobs = jobs;
		c->profile = profile;
	}
}

void view_set_sysprof(struct view_set *s, const struct sysprof *p)
{
	s->sysprof = p;
	sj_init(&s->join);
	for (size_t i = 0; i < s->n; i++) {
		s->ctx[i].sysprof = p;
		s->ctx[i].join = &s->join;
	}
}

void view_set_source_roots(struct view_set *s, const char *const *roots, size_t n)
{
	for (size_t i = 0; i < s->n; i++) {
		s->ctx[i].source_roots = roots;
		s->ctx[i].nsource_roots = n;
	}
}

/* Call one hook on every view that has it; stop at the first failure. */
#define DISPATCH(s, hook, arg) do {                                        \
		for (size_t i_ = 0; i_ < (s)->n; i_++) {                   \
			struct view_ctx *c_ = &(s)->ctx[i_];               \
			if (c_->view->hook) {                              \
				int r_ = c_->view->hook(c_, arg);          \
				if (r_ < 0)                                \
					return r_;                         \
			}                                                  \
		}                                                          \
		return 0;                                                  \
	} while (0)

unsigned long view_set_left_out(const struct view_set *s)
{
	unsigned long n = s->left_out;
	for (size_t i = 0; i < s->n; i++)
		n += s->ctx[i].left_out;
	return n;
}

int view_set_has(const struct view_set *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->ctx[i].view->name, name) == 0)
			return 1;
	return 0;
}

static int set_gen_begin(void *s, const struct da_gen *g) { DISPATCH((struct view_set *)s, gen_begin, g); }
static int set_trace(void *s, const struct da_trace *t) { DISPATCH((struct view_set *)s, trace, t); }
static int set_abort(void *s, const struct da_abort *a) { DISPATCH((struct view_set *)s, abort, a); }
static int set_exit(void *s, const struct da_exit *e) { DISPATCH((struct view_set *)s, exit, e); }
static int gen_end_all(struct view_set *s, const struct da_gen *g) { DISPATCH(s, gen_end, g); }

/* A generation's files appear once every view has finished them. */
static int set_gen_end(void *data, const struct da_gen *g)
{
	struct view_set *s = data;
	if (s->sysprof)
		sj_gen(&s->join, g);
	int r = gen_end_all(s, g);
	if (r == 0 && s->n && s->ctx[0].out)
		r = outdir_publish(s->ctx[0].out);
	return r;
}

const struct da_sink view_set_sink = DA_SINK(
	.gen_begin = set_gen_begin,
	.trace = set_trace,
	.abort = set_abort,
	.exit = set_exit,
	.gen_end = set_gen_end,
);

void view_set_discard(struct view_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->ctx[i].state);
	free(s->ctx);
	s->ctx = NULL;
	s->n = 0;
}

struct finishing {
	struct view_set *s;
	int r;
};

static void finish_all(void *arg)
{
	struct finishing *f = arg;
	struct view_set *s = f->s;
	if (s->sysprof)
		sj_build(&s->join, s->sysprof);
	for (size_t i = 0; i < s->n; i++) {
		struct view_ctx *c = &s->ctx[i];
		if (c->view->finish) {
			int e = c->view->finish(c);
			if (e < 0 && f->r == 0)
				f->r = e;
		}
	}
}

int view_set_finish(struct view_set *s)
{
	/* A catch of its own: the library's are over, and the states are
	 * still to be freed. */
	struct finishing f = { s, 0 };
	if (oom_call(finish_all, &f) < 0)
		f.r = -ENOMEM;
	int r = f.r;
	/* States live until every finish hook ran: a later view may ask an
	 * earlier one (the report asks the source view for its pages). */
	for (size_t i = 0; i < s->n; i++) {
		struct view_ctx *c = &s->ctx[i];
		if (c->view->release)
			c->view->release(c);
		free(c->state);
		s->left_out += c->left_out;
	}
	free(s->ctx);
	s->ctx = NULL;
	s->n = 0;
	if (s->sysprof)
		sj_free(&s->join);
	s->sysprof = NULL;
	return r;
}

struct outfile *view_create_file(struct view_ctx *c, const struct da_gen *g,
                                 const char *suffix)
{
	char name[128];
	snprintf(name, sizeof(name), "gen-%u-%s", g->number, suffix);
	return outfile_create(c->out, name);
}

int answers_view_trace(struct view_ctx *c, const struct da_trace *t)
{
	answers_trace(c->state, t);
	return 0;
}

int answers_view_abort(struct view_ctx *c, const struct da_abort *r)
{
	answers_abort(c->state, r);
	return 0;
}

int answers_view_gen_end(struct view_ctx *c, const struct da_gen *g)
{
	answers_gen_end(c->state, g);
	return 0;
}
