/* sysprof_join.c — a sysprof profile's trace records matched to the
 * dump's traces, and their samples charged to traces and bushes; the rule
 * is in sysprof_join.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "profile/sysprof_index.h"
#include "profile/sysprof_join.h"
#include "util/alloc.h"

#define NONE UINT32_MAX

void sj_init(struct sysprof_join *j)
{
	memset(j, 0, sizeof(*j));
	intern_init(&j->strings);
}

/* A string of the dump's model (interned there), kept past its run. */
static const char *keep(struct sysprof_join *j, const char *s)
{
	return s ? intern_get(&j->strings, s, intern_len(s)) : NULL;
}

void sj_gen(struct sysprof_join *j, const struct da_gen *g)
{
	size_t base = j->nbushes;
	for (const struct da_bush *b = g->bushes; b; b = b->next) {
		const struct da_trace *r = b->root;
		ALLOC_GROW(j->bushes, j->nbushes + 1, j->bushes_cap);
		j->bushes[j->nbushes++] = (struct sj_bush){
			.gen = g->number, .root = r->id, .dup = b->dup,
			.kind = r->parent_exit == DA_PARENT_EXIT_STITCH ? "stitch"
			      : r->parent_exit >= 0 ? "orphan" : "root",
			.file = keep(j, r->file), .line = r->line, .ntraces = b->ntraces,
			.mcode = b->mcode_bytes,
		};
	}
	struct sp_map seen = { 0 };         /* number -> traces of it so far */
	for (const struct da_trace *t = g->traces; t; t = t->next) {
		uint32_t k = sp_map_get(&seen, t->id);
		k = k == SP_NONE ? 1 : k + 1;
		sp_map_set(&seen, t->id, k);
		ALLOC_GROW(j->traces, j->ntraces + 1, j->traces_cap);
		j->traces[j->ntraces++] = (struct sj_trace){
			.gen = g->number, .id = t->id, .k = k, .file = keep(j, t->file), .line = t->line,
			.bush = t->bush ? (uint32_t)(base + t->bush->seq) : NONE, .record = NONE,
		};
	}
	sp_map_free(&seen);
}

int sj_percent(char *buf, size_t n, uint64_t v, uint64_t total)
{
	uint64_t hundredths = total ? (v * 20000 / total + 1) / 2 : 0;
	return snprintf(buf, n, "%llu.%02llu", (unsigned long long)(hundredths / 100),
	                (unsigned long long)(hundredths % 100));
}

void sj_loc(char *buf, size_t n, const char *file, int32_t line)
{
	if (!file)
		snprintf(buf, n, "?");
	else if (line < 0)
		snprintf(buf, n, "%s", file);
	else
		snprintf(buf, n, "%s:%d", file, line);
}

/* The dump's trace has the record's number and start. */
static int same_start(const struct sj_trace *t, const struct sp_trace *r)
{
	if (t->id != r->traceno || t->line != r->line)
		return 0;
	return !r->file || (t->file && strcmp(t->file, r->file) == 0);
}

/* P: see sysprof_join.h.  want: trace number -> the symbol table's record. */
static size_t start_point(const struct sysprof_join *j, const struct sysprof *p,
                          const struct sp_map *want, size_t nwant)
{
	if (!nwant)
		return 0;
	char *ok = xrealloc(NULL, p->ntraces + 1);
	memset(ok, 0, p->ntraces + 1);
	size_t sat = 0, best = 0, best_at = 0;
	for (size_t i = 0; i < j->ntraces; i++) {
		const struct sj_trace *t = &j->traces[i];
		if (i > 0 && t->gen != j->traces[i - 1].gen) {
			memset(ok, 0, p->ntraces + 1);
			sat = 0;
		}
		uint32_t r = sp_map_get(want, t->id);
		if (r == SP_NONE)
			continue;
		int now = same_start(t, &p->traces[r]);
		if (now != ok[r])
			sat = now ? sat + 1 : sat - 1;
		ok[r] = (char)now;
		if (sat > best) {
			best = sat;
			best_at = i + 1;
			if (sat == nwant)
				break;
		}
	}
	free(ok);
	return best_at;
}

/* The symbol table's records to the newest traces of their numbers in
 * the generation of the trace before P. */
static void match_initial(struct sysprof_join *j, const struct sysprof *p,
                          const struct sp_map *want, size_t at)
{
	if (at == 0)
		return;
	uint32_t gen = j->traces[at - 1].gen;
	struct sp_map latest = { 0 };
	for (size_t i = at; i-- > 0 && j->traces[i].gen == gen;)
		if (sp_map_get(&latest, j->traces[i].id) == SP_NONE)
			sp_map_set(&latest, j->traces[i].id, (uint32_t)i);
	for (size_t r = 0; r < p->ntraces; r++) {
		if (!p->traces[r].initial || sp_map_get(want, p->traces[r].traceno) != r)
			continue;
		uint32_t i = sp_map_get(&latest, p->traces[r].traceno);
		if (i != SP_NONE && same_start(&j->traces[i], &p->traces[r])) {
			j->traces[i].record = (uint32_t)r;
			j->initial_matched++;
		}
	}
	sp_map_free(&latest);
}

void sj_build(struct sysprof_join *j, const struct sysprof *p)
{
	/* from scratch, whatever an earlier build left */
	j->matched = j->initial = j->initial_matched = j->samples = j->samples_apart = 0;
	for (size_t i = 0; i < j->ntraces; i++) {
		j->traces[i].record = NONE;
		j->traces[i].samples = 0;
	}
	for (size_t i = 0; i < j->nbushes; i++)
		j->bushes[i].samples = 0;
	struct sp_map want = { 0 };
	size_t nwant = 0;
	j->records = p->ntraces;
	for (size_t r = 0; r < p->ntraces; r++)
		if (p->traces[r].initial) {
			j->initial++;
			if (sp_map_get(&want, p->traces[r].traceno) == SP_NONE)
				nwant++;
			sp_map_set(&want, p->traces[r].traceno, (uint32_t)r);
		}
	j->start = start_point(j, p, &want, nwant);
	match_initial(j, p, &want, j->start);

	/* The dump's traces by number, in order: first[n] .. first[n + 1]
	 * of pos, through a map from number to a dense index. */
	struct sp_map dense = { 0 };
	uint32_t ndense = 0;
	uint32_t *of = xrealloc(NULL, (j->ntraces + 1) * sizeof(*of));
	for (size_t i = 0; i < j->ntraces; i++) {
		uint32_t d = sp_map_get(&dense, j->traces[i].id);
		if (d == SP_NONE)
			sp_map_set(&dense, j->traces[i].id, d = ndense++);
		of[i] = d;
	}
	size_t *first = xrealloc(NULL, (ndense + 2) * sizeof(*first));
	memset(first, 0, (ndense + 2) * sizeof(*first));
	for (size_t i = 0; i < j->ntraces; i++)
		first[of[i] + 2]++;
	for (uint32_t d = 0; d < ndense; d++)
		first[d + 2] += first[d + 1];
	size_t *pos = xrealloc(NULL, (j->ntraces + 1) * sizeof(*pos));
	for (size_t i = 0; i < j->ntraces; i++)
		pos[first[of[i] + 1]++] = i;    /* first[d + 1] ends as d's end */

	size_t next = j->start;
	for (size_t r = 0; r < p->ntraces; r++) {
		const struct sp_trace *rec = &p->traces[r];
		if (rec->initial)
			continue;
		uint32_t d = sp_map_get(&dense, rec->traceno);
		if (d == SP_NONE)
			continue;
		size_t lo = first[d], hi = first[d + 1];
		while (lo < hi) {               /* the first of the number at or after next */
			size_t mid = lo + (hi - lo) / 2;
			if (pos[mid] < next)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t k = lo; k < first[d + 1]; k++)
			if (same_start(&j->traces[pos[k]], rec)) {
				j->traces[pos[k]].record = (uint32_t)r;
				next = pos[k] + 1;
				break;
			}
	}
	free(pos);
	free(first);
	free(of);
	sp_map_free(&dense);
	sp_map_free(&want);

	uint64_t charged = 0;
	for (size_t i = 0; i < j->ntraces; i++) {
		struct sj_trace *t = &j->traces[i];
		if (t->record == NONE)
			continue;
		j->matched++;
		t->samples = p->traces[t->record].samples;
		charged += t->samples;
		if (t->bush != NONE)
			j->bushes[t->bush].samples += t->samples;
	}
	j->samples = charged;
	j->samples_apart = p->state[SP_TRACE] - charged;
}

struct ranked { uint64_t samples; size_t i; };

static int by_samples(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

/* Indexes of the nonzero of samples[0..n) (stride apart), most first. */
static size_t *rank(const uint64_t *samples, size_t stride, size_t n, size_t *k)
{
	struct ranked *r = xrealloc(NULL, (n + 1) * sizeof(*r));
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t v = *(const uint64_t *)(const void *)((const char *)samples + i * stride);
		if (v)
			r[m++] = (struct ranked){ v, i };
	}
	qsort(r, m, sizeof(*r), by_samples);
	size_t *v = xrealloc(NULL, (m + 1) * sizeof(*v));
	for (size_t i = 0; i < m; i++)
		v[i] = r[i].i;
	free(r);
	*k = m;
	return v;
}

size_t *sj_ranked_traces(const struct sysprof_join *j, size_t *n)
{
	if (!j->ntraces)
		return rank(NULL, 0, 0, n);
	return rank(&j->traces[0].samples, sizeof(j->traces[0]), j->ntraces, n);
}

size_t *sj_ranked_bushes(const struct sysprof_join *j, size_t *n)
{
	if (!j->nbushes)
		return rank(NULL, 0, 0, n);
	return rank(&j->bushes[0].samples, sizeof(j->bushes[0]), j->nbushes, n);
}

void sj_free(struct sysprof_join *j)
{
	intern_free(&j->strings);
	free(j->traces);
	free(j->bushes);
	memset(j, 0, sizeof(*j));
}
