/* view.h — pluggable outputs.  A view is one file in src/views/ that
 * defines one `const struct view` and is listed in the registry table in
 * src/view.c; what is said about it is its page, docs/views/NAME.md.
 * Every hook may be NULL; a negative return stops the run. */
#ifndef DUMPANALYZE_VIEW_H
#define DUMPANALYZE_VIEW_H

#include <stddef.h>
#include "dumpanalyze.h"
#include "model/model.h"
#include "profile/sysprof_join.h"

struct outdir;
struct profile;
struct sysprof;

/* What a view needs built for it; main builds only what is selected. */
enum view_needs {
	NEEDS_TEXT = 1 << 0,        /* trace text (bytecode/IR/mcode lines) */
	NEEDS_CAIRO = 1 << 1,       /* draws pictures */
	NEEDS_PROFILE = 1 << 2,     /* only with a -jp profile (--profile) */
	NEEDS_STACKS = 1 << 3,      /* ... stacks: -jp=G, or a sysprof profile */
	NEEDS_SYSPROF = 1 << 4,     /* only with a sysprof profile (--profile) */
	NEEDS_FINDINGS = 1 << 5     /* the library's findings (da_findings) */
};

struct view_ctx {
	const struct view *view;
	void *state;                /* state_size zeroed bytes, view-private */
	struct outdir *out;
	const char *name;           /* the dump's name, as the user gave it */
	const da_dump *dump;        /* for its counts (da_warnings, ...) */
	const struct da_line_counts *lines;    /* where the input lines went */
	unsigned jobs;              /* workers allowed (pictures), 1: none */
	const struct profile *profile;      /* --profile of -jp, or NULL */
	const struct sysprof *sysprof;      /* --profile of sysprof, or NULL */
	const struct sysprof_join *join;    /* its samples per trace and bush: valid
	                                       in finish hooks, with sysprof */
	const struct view_set *set;         /* all the views of the run */
	int named;                  /* chosen by name in --views (or by 'all',
	                             * or brought by another view), not only as
	                             * one of the default set */
	unsigned long left_out;     /* files the view chose not to write: the
	                             * default run's pictures of large bushes */
	const char *const *source_roots;    /* --source-root, in order */
	size_t nsource_roots;
};

struct view {
	const char *name;           /* as given to --views */
	const char *files;          /* the files it writes, space-separated */
	unsigned needs;
	int is_default;             /* part of the set used without --views */
	const char *const *requires;    /* views chosen with it (NULL-ended),
	                                   whose hooks run before its own: its
	                                   finish reads what theirs made */
	size_t state_size;
	int (*gen_begin)(struct view_ctx *, const struct da_gen *);
	int (*trace)(struct view_ctx *, const struct da_trace *);
	int (*abort)(struct view_ctx *, const struct da_abort *);
	int (*exit)(struct view_ctx *, const struct da_exit *);
	int (*gen_end)(struct view_ctx *, const struct da_gen *);
	int (*finish)(struct view_ctx *);   /* also frees the view's state */
	/* After every view's finish: frees what a view kept for the others'
	 * finish hooks (the source view's page links for the report). */
	void (*release)(struct view_ctx *);
};

/* NULL-terminated registry, in --views list order. */
extern const struct view *const view_table[];

struct view_set {
	struct view_ctx *ctx;
	size_t n;
	unsigned needs;
	unsigned long left_out;     /* the views' left_out, summed at finish */
	const struct sysprof *sysprof;
	struct sysprof_join join;   /* the dump's traces, matched to it before
	                               the finish hooks run */
};

/* The chosen views of table (chosen[i] non-zero) as indices into order:
 * table order, except that each comes after the chosen views it
 * requires.  Their number. */
size_t view_order(const struct view *const *table, size_t count, const char *chosen,
                  size_t *order);
/* Look a name up: exact name, else a unique prefix.  On failure returns
 * NULL and writes a message ("unknown view 'x'", "ambiguous view 'a':
 * could be ...") into err. */
const struct view *view_find(const char *name, char *err, size_t errlen);
/* The words of a --views list besides view names. */
#define VIEWS_DEFAULT "default"     /* the default set (as without --views) */
#define VIEWS_ALL "all"             /* every view the run can render */
/* Build the set from a comma-separated list of names, "default" and
 * "all" (list NULL: the default set).  have: NEEDS_PROFILE (a -jp
 * profile), NEEDS_STACKS (-jp=G or sysprof), NEEDS_SYSPROF as the run's
 * profiles give them; the default set then adds the views whose needs of
 * a profile are met, and "all" takes only those.  Returns 0, or -1 with a
 * message in err. */
int view_set_init(struct view_set *s, const char *list, unsigned have,
                  char *err, size_t errlen);
/* What every view of the set works with, before the first record. */
void view_set_attach(struct view_set *s, struct outdir *out, const da_dump *d,
                     const char *name, unsigned jobs, const struct profile *profile);
/* A sysprof profile (kept by the caller) for every view; the set matches
 * its trace records to the dump's traces (profile/sysprof_join.h). */
void view_set_sysprof(struct view_set *s, const struct sysprof *p);
/* --source-root directories (kept by the caller), for the views that
 * read Lua files the dump names. */
void view_set_source_roots(struct view_set *s, const char *const *roots, size_t n);
/* The set as a library sink (its data: the struct view_set): each record
 * goes to every view's hook, in the set's order (view_order), and a generation's files
 * are published at its end. */
extern const struct da_sink view_set_sink;
/* Whether the view of that name is in the set. */
int view_set_has(const struct view_set *s, const char *name);
/* Files the views chose not to write (view_ctx.left_out), summed; also
 * after view_set_finish. */
unsigned long view_set_left_out(const struct view_set *s);
/* Frees a set that never saw a record, calling no hook. */
void view_set_discard(struct view_set *s);
/* Calls every finish hook (even after an error) and frees the set: 0,
 * -ENOMEM when memory ran out (the hooks after it are not called), or
 * another negative value when a hook failed. */
int view_set_finish(struct view_set *s);

/* For views: create "gen-N-SUFFIX" in the output directory (NULL after
 * the cause was printed). */
struct outfile *view_create_file(struct view_ctx *c, const struct da_gen *g,
                                 const char *suffix);

/* View hooks for a view whose state starts with its struct answers. */
int answers_view_trace(struct view_ctx *c, const struct da_trace *t);
int answers_view_abort(struct view_ctx *c, const struct da_abort *r);
int answers_view_gen_end(struct view_ctx *c, const struct da_gen *g);

#endif
