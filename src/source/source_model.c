/* source_model.c — the JIT's story per source line and file; see source_model.h. */
#include <stdlib.h>
#include <string.h>
#include "source/source_model.h"
#include "util/alloc.h"
#include "util/intern.h"
#include "model/model.h"
#include "profile/callees.h"
#include "source/family.h"

void src_model_init(struct src_model *m)
{
	memset(m, 0, sizeof(*m));
	tally_init(&m->line_ix);
	tally_init(&m->file_ix);
	tally_init(&m->by_ptr);
	intern_init(&m->names);
}

/* Names are kept in the model's own intern, so that a name from a
 * record and one read off a bytecode line are the same pointer. */
static const char *local(struct src_model *m, const char *s, size_t n)
{
	return intern_get(&m->names, s, n);
}

/* The file's entry, made on first sight: good only until the next call
 * that may add a file (file_of, file_by_ptr, line_of), which may move
 * m->files; keep its name (interned) across those, not the pointer. */
static struct src_file *file_of(struct src_model *m, const char *file)
{
	uint64_t k = tally_get(&m->file_ix, file, NULL, 0);
	if (k)
		return &m->files[k - 1];
	ALLOC_GROW(m->files, m->nfiles + 1, m->files_cap);
	struct src_file *f = &m->files[m->nfiles++];
	memset(f, 0, sizeof(*f));
	f->name = file;
	tally_add(&m->file_ix, file, NULL, 0, m->nfiles);
	return f;
}

/* A record's file (its name interned by the library: one pointer per
 * name), through a table by pointer: no hashing of bytes per record. */
static struct src_file *file_by_ptr(struct src_model *m, const char *interned)
{
	uint64_t k = tally_get(&m->by_ptr, interned, NULL, 0);
	if (k)
		return &m->files[k - 1];
	struct src_file *f = file_of(m, local(m, interned, intern_len(interned)));
	tally_add(&m->by_ptr, interned, NULL, 0, (uint64_t)(f - m->files) + 1);
	return f;
}

static size_t line_of(struct src_model *m, const char *file, int32_t line)
{
	uint64_t k = tally_get(&m->line_ix, file, NULL, line);
	if (k)
		return k - 1;
	ALLOC_GROW(m->lines, m->nlines + 1, m->lines_cap);
	struct src_line *l = &m->lines[m->nlines];
	memset(l, 0, sizeof(*l));
	l->file = file;
	l->line = line;
	tally_add(&m->line_ix, file, NULL, line, m->nlines + 1);
	struct src_file *f = file_of(m, file);
	ALLOC_GROW(f->lines, f->nlines + 1, f->lines_cap);
	f->lines[f->nlines++] = m->nlines;
	return m->nlines++;
}

const struct src_file *src_model_file(struct src_model *m, const char *file, size_t n)
{
	uint64_t k = tally_get(&m->file_ix, local(m, file, n), NULL, 0);
	return k ? &m->files[k - 1] : NULL;
}

static void add_ref(struct src_ref *refs, uint64_t had, struct src_ref r)
{
	if (had < SRC_REFS)
		refs[had] = r;
}

static void add_reason(struct src_reason **v, uint32_t *n, uint32_t *cap, const char *reason,
                       struct src_ref at, const char *at_file, int32_t at_line)
{
	uint32_t i = 0;
	while (i < *n && (*v)[i].reason != reason)
		i++;
	if (i == *n) {
		ALLOC_GROW(*v, *n + 1, *cap);
		memset(&(*v)[i], 0, sizeof(**v));
		(*v)[i].reason = reason;
		(*v)[i].first = at;
		(*n)++;
	}
	struct src_reason *r = &(*v)[i];
	r->count++;
	r->last = at;
	r->at_file = at_file;
	r->at_line = at_line;
}

void src_model_gen_begin(struct src_model *m)
{
	if (m->loc_of_id)
		memset(m->loc_of_id, 0, m->nloc * sizeof(*m->loc_of_id));
}

/* "... (file:line)" at the end of a luajit2 bytecode line: the place. */
static int suffix_place(const char *l, size_t n, const char **file, size_t *flen, int32_t *line)
{
	if (n < 5 || l[n - 1] != ')')
		return 0;
	size_t open = n - 1;
	while (open > 0 && l[open] != '(')
		open--;
	if (l[open] != '(' || !profile_split_frame(l + open + 1, n - open - 2, flen, line))
		return 0;
	*file = l + open + 1;
	return 1;
}

/* luajit2: the lines this compiled trace holds bytecode of, and where
 * its last bytecode is. */
static void cover(struct src_model *m, const struct da_trace *t, struct src_ref ref)
{
	if (!m->want_cover || !t->text || !(t->text->present & (1u << DA_SEC_BYTECODE)))
		return;
	m->has_bytecode = 1;
	if (!t->text->len[DA_SEC_BYTECODE])
		return;             /* a header and no lines: no buffer either */
	const char *p = t->text->buf + t->text->off[DA_SEC_BYTECODE];
	const char *end = p + t->text->len[DA_SEC_BYTECODE];
	size_t *mine = NULL, nmine = 0, cap = 0, last = (size_t)-1;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *file;
		size_t flen;
		int32_t line;
		if (suffix_place(p, n, &file, &flen, &line)) {
			m->annotated = 1;
			const char *name = local(m, file, flen);
			{
				size_t k = line_of(m, name, line);
				int dup = 0;
				for (size_t i = 0; i < nmine && !dup; i++)
					dup = mine[i] == k;
				if (!dup) {
					ALLOC_GROW(mine, nmine + 1, cap);
					mine[nmine++] = k;
				}
				last = k;
			}
		}
		p += n + 1;
	}
	for (size_t i = 0; i < nmine; i++) {
		struct src_line *l = &m->lines[mine[i]];
		add_ref(l->cover_refs, l->covered, ref);
		l->covered++;
	}
	if (last != (size_t)-1)
		m->lines[last].stops++;
	free(mine);
}

void src_model_trace(struct src_model *m, const struct da_trace *t)
{
	attempts_trace(&m->attempts, t);
	if (!m->want_lines) {
		if (t->file) {
			struct src_file *f = file_by_ptr(m, t->file);
			f->traces++;
			f->has_line |= t->line != LOC_NO_LINE;
		}
		return;
	}
	struct src_ref ref = { t->gen, t->id, t->start_line };
	struct src_file *tf = t->file ? file_by_ptr(m, t->file) : NULL;
	if (tf) {
		tf->traces++;
		size_t k = line_of(m, tf->name, t->line);
		struct src_line *l = &m->lines[k];
		add_ref(l->trace_refs, l->traces, ref);
		l->traces++;
		if (t->parent_exit == PARENT_EXIT_STITCH)
			l->stitched++;
		else if (t->parent_exit != PARENT_EXIT_NONE && t->parent_trace)
			l->side++;
		else if (t->parent_exit != PARENT_EXIT_NONE)
			l->orphans++;
		if (t->id >= m->nloc) {
			size_t was = m->nloc;
			m->nloc = (size_t)t->id + 64;
			m->loc_of_id = xrealloc(m->loc_of_id, m->nloc * sizeof(*m->loc_of_id));
			memset(m->loc_of_id + was, 0, (m->nloc - was) * sizeof(*m->loc_of_id));
		}
		m->loc_of_id[t->id] = k + 1;
	}
	if (t->link_kind == DA_LINK_ROOT && t->link_target < m->nloc && m->loc_of_id[t->link_target]) {
		struct src_line *l = &m->lines[m->loc_of_id[t->link_target] - 1];
		if (!l->links_in)
			l->link_ref = ref;
		l->links_in++;
	}
	cover(m, t, ref);
}

void src_model_abort(struct src_model *m, const struct da_abort *a)
{
	attempts_abort(&m->attempts, a);
	/* The files' names, not pointers to them: the start file's
	 * file_by_ptr may move m->files, and line_of may too. */
	const char *afile = NULL, *sfile = NULL;
	if (a->file) {
		struct src_file *f = file_by_ptr(m, a->file);
		f->aborts++;
		f->has_line |= a->line != LOC_NO_LINE;
		afile = f->name;
	}
	if (a->start_file) {
		struct src_file *f = file_by_ptr(m, a->start_file);
		f->attempts++;
		f->has_line |= a->start_line != LOC_NO_LINE;
		sfile = f->name;
	}
	if (!m->want_lines)
		return;
	struct src_ref ref = { a->gen, a->id, a->line_no };
	const char *reason = a->reason_normal ? a->reason_normal : a->reason;
	if (afile) {
		size_t k = line_of(m, afile, a->line);  /* before m->lines is read */
		struct src_line *l = &m->lines[k];
		add_reason(&l->aborted, &l->naborted, &l->aborted_cap, reason, ref, NULL, 0);
		l->aborts++;
	}
	if (sfile) {
		size_t k = line_of(m, sfile, a->start_line);
		struct src_line *l = &m->lines[k];
		add_reason(&l->started, &l->nstarted, &l->started_cap, reason, ref, afile, a->line);
		l->attempts++;
	}
}

void src_model_gen_end(struct src_model *m, const struct da_gen *g)
{
	size_t n;
	const struct start **rows = attempts_given_up(&m->attempts, &n);
	for (size_t i = 0; i < n; i++) {
		const struct start *st = rows[i];
		/* a side exit or stitch: at the line its parent trace starts */
		if (st->exit != PARENT_EXIT_NONE && st->later != LATER_YES && m->want_lines &&
		    st->parent < m->nloc && m->loc_of_id[st->parent]) {
			struct src_line *l = &m->lines[m->loc_of_id[st->parent] - 1];
			if (!l->exits_given_up) {
				l->exit_ref = (struct src_ref){ g ? g->number : 0, st->parent, 0 };
				l->exit_no = st->exit;
				l->exit_attempts = st->attempts;
				l->exit_reason = st->last_normal;
				l->exit_stub = st->later == LATER_STUB;
			}
			l->exits_given_up++;
			continue;
		}
		if (st->exit != PARENT_EXIT_NONE || !st->file || st->later != LATER_NO)
			continue;
		struct src_file *f = file_by_ptr(m, st->file);
		f->blacklisted++;
		if (!m->want_lines)
			continue;
		size_t li = line_of(m, f->name, st->line);
		struct src_line *l = &m->lines[li];
		l->blacklisted++;
		l->blacklist_reason = st->last_normal;
		l->blacklist_main = st->main_reason;
		l->blacklist_main_n = st->main_attempts;
		l->blacklist_attempts = st->attempts;
	}
	free(rows);
	attempts_clear(&m->attempts);
}

/* The dump's name for a profile's file: as written, else its base name. */
static const char *dump_name(const struct src_model *m, const char *file, size_t n)
{
	size_t bn;
	const char *base = profile_basename(file, n, &bn);
	const char *by_base = NULL;
	for (size_t i = 0; i < m->nfiles; i++) {
		const char *d = m->files[i].name;
		size_t dn = intern_len(d);
		if (dn == n && memcmp(d, file, n) == 0)
			return d;
		if (!by_base && dn == bn && memcmp(d, base, bn) == 0)
			by_base = d;
	}
	return by_base;
}

void src_model_profile(struct src_model *m, const struct profile *p, const struct callees *c)
{
	if (!p)
		return;
	m->profiled = 1;
	m->states = p->states;
	m->percent = p->percent;
	m->stacks = p->kind == PROFILE_STACKS;
	for (size_t i = 0; i < p->nlines; i++) {
		const struct profile_line *pl = &p->lines[i];
		const char *name = dump_name(m, pl->file, intern_len(pl->file));
		if (!name || pl->line <= 0)
			continue;
		size_t li = line_of(m, name, pl->line);
		struct src_line *l = &m->lines[li];
		l->samples += pl->samples;
		for (int s = 0; s < VM_STATES; s++)
			l->state[s] += pl->state[s];
		struct src_file *f = file_of(m, name);
		f->samples += pl->samples;
		f->interpreted += pl->state[VM_INTERPRETED];
	}
	for (size_t i = 0; c && i < c->n; i++) {
		const struct callee_row *r = &c->rows[i];
		const char *name = dump_name(m, r->file, r->file_len);
		if (!name || !r->callee)
			continue;
		/* The callee's file is a base name inside another string, not an
		 * interned one (intern_len would read its length from the bytes
		 * before it), and the findings own it and its reason: both are
		 * copied into the model's intern, which lives as long as the
		 * lines that name them. */
		const char *callee_file = local(m, r->callee->file, r->callee->file_len);
		const char *callee_reason = local(m, r->callee->reason, strlen(r->callee->reason));
		size_t li = line_of(m, name, r->line);
		struct src_line *l = &m->lines[li];
		l->callee_samples += r->samples;
		l->callee_file = callee_file;
		l->callee_line = r->callee->line;
		l->callee_reason = callee_reason;
		file_of(m, name)->callee_samples += r->samples;
	}
}

int src_line_notable(const struct src_line *l)
{
	return l->traces || l->attempts || l->aborts || l->links_in || l->stops || l->blacklisted ||
	       l->exits_given_up ||
	       l->samples || l->callee_samples;
}

struct line_pos { int32_t line; size_t index; };

static int by_line(const void *x, const void *y)
{
	const struct line_pos *a = x, *b = y;
	return (a->line > b->line) - (a->line < b->line);
}

static void sort_lines(struct src_model *m, struct src_file *f)
{
	struct line_pos *v = xrealloc(NULL, (f->nlines ? f->nlines : 1) * sizeof(*v));
	for (size_t k = 0; k < f->nlines; k++)
		v[k] = (struct line_pos){ m->lines[f->lines[k]].line, f->lines[k] };
	qsort(v, f->nlines, sizeof(*v), by_line);
	for (size_t k = 0; k < f->nlines; k++)
		f->lines[k] = v[k].index;
	free(v);
}

static int by_rank(const void *x, const void *y)
{
	const struct src_file *a = *(const struct src_file *const *)x;
	const struct src_file *b = *(const struct src_file *const *)y;
	if (a->aborts != b->aborts)
		return a->aborts > b->aborts ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	if (a->traces != b->traces)
		return a->traces > b->traces ? -1 : 1;
	return intern_cmp(a->name, b->name);
}

struct keyed { char *key; size_t len, rank; };

static int by_key(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;
	int k = memcmp(a->key, b->key, a->len < b->len ? a->len : b->len);
	if (!k)
		k = (a->len > b->len) - (a->len < b->len);
	return k ? k : (a->rank > b->rank) - (a->rank < b->rank);
}

static int by_sums(const void *x, const void *y)
{
	const struct src_family *a = x, *b = y;
	if (a->aborts != b->aborts)
		return a->aborts > b->aborts ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	if (a->traces != b->traces)
		return a->traces > b->traces ? -1 : 1;
	return (a->first > b->first) - (a->first < b->first);
}

/* Each ranked file's family; families in the order of their first
 * (best ranked) member. */
static void families(struct src_model *m)
{
	struct keyed *v = xrealloc(NULL, (m->nfiles ? m->nfiles : 1) * sizeof(*v));
	for (size_t i = 0; i < m->nfiles; i++) {
		const char *name = m->ranked[i]->name;
		size_t n = intern_len(name);
		v[i].key = xrealloc(NULL, n + 2);
		v[i].len = chunk_family(name, n, v[i].key, n + 1);
		if (!v[i].len) {
			memcpy(v[i].key, name, n);
			v[i].len = n;
		}
		v[i].rank = i;
	}
	qsort(v, m->nfiles, sizeof(*v), by_key);
	m->families = xrealloc(NULL, (m->nfiles ? m->nfiles : 1) * sizeof(*m->families));
	m->nfamilies = 0;
	size_t *fam_of = xrealloc(NULL, (m->nfiles ? m->nfiles : 1) * sizeof(*fam_of));
	for (size_t i = 0; i < m->nfiles; i++) {
		struct src_family *fam = m->nfamilies ? &m->families[m->nfamilies - 1] : NULL;
		if (fam && fam->len == v[i].len && memcmp(fam->name, v[i].key, v[i].len) == 0) {
			free(v[i].key);
		} else {
			fam = &m->families[m->nfamilies++];
			memset(fam, 0, sizeof(*fam));
			fam->name = v[i].key;
			fam->len = v[i].len;
			fam->first = v[i].rank;
		}
		fam_of[i] = m->nfamilies - 1;
		const struct src_file *f = m->ranked[v[i].rank];
		fam->members++;
		fam->traces += f->traces;
		fam->attempts += f->attempts;
		fam->aborts += f->aborts;
		fam->blacklisted += f->blacklisted;
		fam->samples += f->samples;
		fam->interpreted += f->interpreted;
		fam->callee_samples += f->callee_samples;
	}
	/* families ranked like files, by their sums; files told their index */
	for (size_t k = 0; k < m->nfamilies; k++)
		m->families[k].id = k;
	struct src_family *sorted = xrealloc(NULL, (m->nfamilies ? m->nfamilies : 1) * sizeof(*sorted));
	memcpy(sorted, m->families, m->nfamilies * sizeof(*sorted));
	qsort(sorted, m->nfamilies, sizeof(*sorted), by_sums);
	size_t *old_to_new = xrealloc(NULL, (m->nfamilies ? m->nfamilies : 1) * sizeof(*old_to_new));
	for (size_t k = 0; k < m->nfamilies; k++)
		old_to_new[sorted[k].id] = k;
	for (size_t i = 0; i < m->nfiles; i++)
		m->ranked[v[i].rank]->family = old_to_new[fam_of[i]];
	free(m->families);
	m->families = sorted;
	free(old_to_new);
	free(fam_of);
	free(v);
}

void src_model_rank(struct src_model *m)
{
	free(m->ranked);
	m->ranked = xrealloc(NULL, (m->nfiles ? m->nfiles : 1) * sizeof(*m->ranked));
	for (size_t i = 0; i < m->nfiles; i++) {
		struct src_file *f = &m->files[i];
		sort_lines(m, f);
		int has_line = f->has_line;
		f->covered_lines = 0;
		for (size_t k = 0; k < f->nlines; k++) {
			has_line |= m->lines[f->lines[k]].line != LOC_NO_LINE;
			f->covered_lines += m->lines[f->lines[k]].covered > 0;
		}
		f->kind = chunk_classify(f->name, intern_len(f->name), has_line);
		m->ranked[i] = f;
	}
	qsort(m->ranked, m->nfiles, sizeof(*m->ranked), by_rank);
	families(m);
}

void src_model_read(struct src_model *m, struct source_finder *finder)
{
	unsigned page = 0;
	for (size_t i = 0; i < m->nfiles; i++) {
		struct src_file *f = m->ranked[i];
		if (f->kind != CHUNK_FILE)
			continue;
		f->kind = source_find(finder, f->name, intern_len(f->name), &f->text, &f->len,
		                      &f->shown, &f->ambiguous);
		if (f->kind == CHUNK_FILE)
			f->page = ++page;
	}
}

void src_model_free(struct src_model *m)
{
	for (size_t i = 0; i < m->nlines; i++) {
		free(m->lines[i].started);
		free(m->lines[i].aborted);
	}
	for (size_t i = 0; i < m->nfiles; i++) {
		free(m->files[i].lines);
		free(m->files[i].text);
		free(m->files[i].shown);
	}
	free(m->lines);
	free(m->files);
	free(m->ranked);
	for (size_t i = 0; i < m->nfamilies; i++)
		free(m->families[i].name);
	free(m->families);
	free(m->loc_of_id);
	tally_free(&m->line_ix);
	tally_free(&m->file_ix);
	tally_free(&m->by_ptr);
	intern_free(&m->names);
	attempts_free(&m->attempts);
	memset(m, 0, sizeof(*m));
}
