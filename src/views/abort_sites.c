/* abort_sites.c — gen-N-abort-sites.csv: aborts grouped by where they
 * happened, why, where the attempt started and from which parent exit:
 * FILE,LINE,REASON,START_FILE,START_LINE,PARENT,EXIT,COUNT, then the
 * normal reason, its error name and the dump lines of the site's first
 * and last abort; most frequent first.  One reason comes from several places, and an NYI bytecode in a
 * root loop is another problem than one in a side trace: this tells them
 * apart. */
#include <stdlib.h>
#include <string.h>
#include "views/view.h"
#include "outdir/outdir.h"
#include "output/csvout.h"
#include "util/intern.h"
#include "util/tally.h"
#include "util/arena.h"
#include "lib/api.h"

/* The header line, from the table the comparison reads the file by. */
static const char sites_header[] =
#include "views/columns/csv_header.h"
#include "views/columns/abort_sites_columns.def"
	"\r\n";

struct site {
	const char *file, *reason, *start_file;
	int32_t line, start_line, parent_exit;
	uint32_t parent;
};

/* Not part of a site's key: what its aborts say beyond it. */
struct site_more {
	const char *reason_normal, *error;
	uint64_t first_line, last_line;
};

struct abort_sites_state {
	struct intern keys;         /* the fields of a site, as bytes */
	struct tally counts;        /* key -> count, first = index in sites */
	struct site *sites;
	struct site_more *more;     /* parallel to sites */
	size_t nsites, cap, more_cap;
};

static int abort_sites_abort(struct view_ctx *c, const struct da_abort *a)
{
	struct abort_sites_state *s = c->state;
	struct site k;
	memset(&k, 0, sizeof(k));   /* padding too: the bytes are the key */
	k.file = a->file;
	k.reason = a->reason;
	k.start_file = a->start_file;
	k.line = a->line;
	k.start_line = a->start_line;
	k.parent = a->parent_exit == PARENT_EXIT_NONE ? 0 : a->parent;
	k.parent_exit = a->parent_exit;
	if (!s->keys.slots)
		intern_init(&s->keys);
	const char *key = intern_get(&s->keys, (const char *)&k, sizeof(k));
	size_t before = s->counts.count;
	tally_add(&s->counts, key, NULL, 0, 1);
	if (s->counts.count != before) {
		ALLOC_GROW(s->sites, s->nsites + 1, s->cap);
		ALLOC_GROW(s->more, s->nsites + 1, s->more_cap);
		s->more[s->nsites] = (struct site_more){ a->reason_normal, a->error,
		                                         a->line_no, a->line_no };
		s->sites[s->nsites++] = k;
	} else {
		s->more[tally_find(&s->counts, key, NULL, 0)->first].last_line = a->line_no;
	}
	return 0;
}

struct row {
	uint64_t count;
	const struct site *site;
	const struct site_more *more;
};

static int by_count(const void *x, const void *y)
{
	const struct row *a = x, *b = y;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	const struct site *p = a->site, *q = b->site;
	int r;
	if ((r = intern_cmp(p->file, q->file)) || (r = (p->line > q->line) - (p->line < q->line)) ||
	    (r = intern_cmp(p->reason, q->reason)) || (r = intern_cmp(p->start_file, q->start_file)) ||
	    (r = (p->start_line > q->start_line) - (p->start_line < q->start_line)) ||
	    (r = (p->parent > q->parent) - (p->parent < q->parent)))
		return r;
	return (p->parent_exit > q->parent_exit) - (p->parent_exit < q->parent_exit);
}

static void line_field(struct csv_row *r, int32_t line)
{
	if (line == LOC_NO_LINE)
		csv_field(r, "", 0);
	else
		csv_field_i64(r, line);
}

static int abort_sites_gen_end(struct view_ctx *c, const struct da_gen *g)
{
	struct abort_sites_state *s = c->state;
	struct outfile *f = view_create_file(c, g, "abort-sites.csv");
	FILE *fp = f ? outfile_fp(f) : NULL;
	if (!fp)
		return -1;
	size_t n;
	struct tally_entry *e = tally_entries(&s->counts, &n);
	struct row *rows = xrealloc(NULL, (n ? n : 1) * sizeof(*rows));
	for (size_t i = 0; i < n; i++)
		rows[i] = (struct row){ e[i].count, &s->sites[e[i].first], &s->more[e[i].first] };
	free(e);
	qsort(rows, n, sizeof(*rows), by_count);
	fputs(sites_header, fp);
	for (size_t i = 0; i < n; i++) {
		const struct site *t = rows[i].site;
		struct csv_row r;
		csv_row_begin(&r, fp);
		csv_field(&r, t->file, intern_len(t->file));
		line_field(&r, t->line);
		csv_field(&r, t->reason, intern_len(t->reason));
		if (t->start_file) {
			csv_field(&r, t->start_file, intern_len(t->start_file));
			line_field(&r, t->start_line);
		} else {
			csv_field(&r, "", 0);
			csv_field(&r, "", 0);
		}
		if (t->parent_exit == PARENT_EXIT_NONE) {
			csv_field(&r, "", 0);
			csv_field(&r, "", 0);
		} else {
			csv_field_u64(&r, t->parent);
			if (t->parent_exit == PARENT_EXIT_STITCH)
				csv_field_str(&r, "stitch");
			else
				csv_field_i64(&r, t->parent_exit);
		}
		csv_field_u64(&r, rows[i].count);
		const struct site_more *m = rows[i].more;
		csv_field(&r, m->reason_normal, intern_len(m->reason_normal));
		csv_field_str(&r, m->error ? m->error : "");
		csv_field_u64(&r, m->first_line);
		csv_field_u64(&r, m->last_line);
		char fp12[13];
		if (api_line_fingerprint(c->dump, t->file, intern_len(t->file), t->line, fp12) == 0)
			csv_field(&r, fp12, 12);
		else
			csv_field(&r, "", 0);
		csv_row_end(&r);
	}
	free(rows);
	tally_clear(&s->counts);
	s->nsites = 0;
	return outfile_commit(f);
}

static int abort_sites_finish(struct view_ctx *c)
{
	struct abort_sites_state *s = c->state;
	if (s->keys.slots)
		intern_free(&s->keys);
	tally_free(&s->counts);
	free(s->sites);
	free(s->more);
	return 0;
}

const struct view view_abort_sites = {
	.name = "abort-sites",
	.files = "gen-N-abort-sites.csv",
	.is_default = 1,
	.state_size = sizeof(struct abort_sites_state),
	.abort = abort_sites_abort,
	.gen_end = abort_sites_gen_end,
	.finish = abort_sites_finish,
};
