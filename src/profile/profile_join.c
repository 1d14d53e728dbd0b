/* profile_join.c — samples and JIT events per source line; see
 * profile_join.h.  Both sides become rows keyed by (file bytes, line),
 * sorted and merged; a profile's file is matched as written, else by its
 * name without directories (-jp=...p prints whole paths, dumps print the
 * chunk's base name). */
#include <stdlib.h>
#include <string.h>
#include "profile/profile_join.h"
#include "util/arena.h"
#include "util/intern.h"

struct row {
	struct joined_line j;
	uint64_t reason_count;      /* aborts of top_reason */
};

struct rows {
	struct row *r;
	size_t n, cap;
};

static int bytes_cmp(const char *a, size_t na, const char *b, size_t nb)
{
	int k = memcmp(a, b, na < nb ? na : nb);
	return k ? k : (na > nb) - (na < nb);
}

static struct row *add(struct rows *rs, const char *file, size_t n, int32_t line)
{
	ALLOC_GROW(rs->r, rs->n + 1, rs->cap);
	struct row *r = &rs->r[rs->n++];
	memset(r, 0, sizeof(*r));
	r->j.file = file;
	r->j.file_len = n;
	r->j.line = line;
	return r;
}

static int by_place(const void *x, const void *y)
{
	const struct joined_line *a = x, *b = y;
	int k = bytes_cmp(a->file, a->file_len, b->file, b->file_len);
	return k ? k : (a->line > b->line) - (a->line < b->line);
}

/* The files the dump names, sorted, for lookups by bytes. */
struct names {
	const char **s;
	size_t n;
};

static int by_name(const void *x, const void *y)
{
	return intern_cmp(*(const char *const *)x, *(const char *const *)y);
}

static void dump_files(struct names *f, const struct answers *a)
{
	size_t ns, nt;
	struct tally_entry *s = tally_entries(&a->sites, &ns);
	struct tally_entry *t = tally_entries(&a->starts, &nt);
	f->s = xrealloc(NULL, (ns + nt + 1) * sizeof(*f->s));
	f->n = 0;
	for (size_t i = 0; i < ns; i++)
		if (s[i].b)
			f->s[f->n++] = s[i].b;
	for (size_t i = 0; i < nt; i++)
		if (t[i].a)
			f->s[f->n++] = t[i].a;
	free(s);
	free(t);
	qsort(f->s, f->n, sizeof(*f->s), by_name);
	size_t u = 0;
	for (size_t i = 0; i < f->n; i++)
		if (u == 0 || f->s[i] != f->s[u - 1])
			f->s[u++] = f->s[i];
	f->n = u;
}

static const char *known(const struct names *f, const char *s, size_t n)
{
	size_t lo = 0, hi = f->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int k = bytes_cmp(f->s[mid], intern_len(f->s[mid]), s, n);
		if (k == 0)
			return f->s[mid];
		if (k < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int joined_failed(const struct joined_line *r)
{
	return r->aborts || r->blacklisted;
}

static int rank(const void *x, const void *y)
{
	const struct joined_line *a = x, *b = y;
	if (joined_failed(a) != joined_failed(b))
		return joined_failed(a) ? -1 : 1;
	if (a->rank_samples != b->rank_samples)
		return a->rank_samples > b->rank_samples ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	if (a->aborts != b->aborts)
		return a->aborts > b->aborts ? -1 : 1;
	return by_place(a, b);
}

static void merge_into(struct row *to, const struct row *r)
{
	to->j.samples += r->j.samples;
	for (int s = 0; s < VM_STATES; s++)
		to->j.state[s] += r->j.state[s];
	to->j.aborts += r->j.aborts;
	to->j.started += r->j.started;
	to->j.blacklisted += r->j.blacklisted;
	if (r->j.top_reason && (r->reason_count > to->reason_count ||
	    (r->reason_count == to->reason_count && intern_cmp(r->j.top_reason, to->j.top_reason) < 0))) {
		to->j.top_reason = r->j.top_reason;
		to->reason_count = r->reason_count;
	}
}

void join_build(struct join *j, const struct answers *a, const struct profile *p)
{
	memset(j, 0, sizeof(*j));
	struct rows rs = { NULL, 0, 0 };
	size_t n;
	struct tally_entry *e = tally_entries(&a->sites, &n);
	for (size_t i = 0; i < n; i++) {
		if (!e[i].b)
			continue;
		struct row *r = add(&rs, e[i].b, intern_len(e[i].b), (int32_t)e[i].c);
		r->j.aborts = e[i].count;
		r->j.top_reason = e[i].a;
		r->reason_count = e[i].count;
	}
	free(e);
	e = tally_entries(&a->starts, &n);
	for (size_t i = 0; i < n; i++)
		if (e[i].a)
			add(&rs, e[i].a, intern_len(e[i].a), (int32_t)e[i].c)->j.started = e[i].count;
	free(e);
	for (size_t i = 0; i < a->ngave_up; i++) {
		const struct start *st = &a->gave_up[i].st;
		if (st->exit == PARENT_EXIT_NONE && st->file)
			add(&rs, st->file, intern_len(st->file), st->line)->j.blacklisted++;
	}

	struct names files;
	dump_files(&files, a);
	for (size_t i = 0; p && i < p->nlines; i++) {
		const struct profile_line *pl = &p->lines[i];
		size_t len = intern_len(pl->file), blen;
		const char *name = known(&files, pl->file, len);
		if (!name) {
			const char *base = profile_basename(pl->file, len, &blen);
			name = base != pl->file ? known(&files, base, blen) : NULL;
			if (name)
				j->by_basename++;
		}
		j->profile_lines++;
		if (!name) {
			j->unmatched_lines++;
			j->unmatched_samples += pl->samples;
		}
		struct row *r = add(&rs, name ? name : pl->file, name ? intern_len(name) : len, pl->line);
		r->j.samples = pl->samples;
		memcpy(r->j.state, pl->state, sizeof(r->j.state));
	}
	free(files.s);

	qsort(rs.r, rs.n, sizeof(*rs.r), by_place);
	size_t u = 0;
	for (size_t i = 0; i < rs.n; i++) {
		if (u && by_place(&rs.r[u - 1], &rs.r[i]) == 0)
			merge_into(&rs.r[u - 1], &rs.r[i]);
		else
			rs.r[u++] = rs.r[i];
	}
	j->rows = xrealloc(NULL, (u ? u : 1) * sizeof(*j->rows));
	for (size_t i = 0; i < u; i++) {
		j->rows[i] = rs.r[i].j;
		j->rows[i].rank_samples = p && p->states ? j->rows[i].state[VM_INTERPRETED]
		                                         : j->rows[i].samples;
	}
	j->n = u;
	free(rs.r);
	qsort(j->rows, j->n, sizeof(*j->rows), rank);
}

void join_free(struct join *j)
{
	free(j->rows);
	memset(j, 0, sizeof(*j));
}
