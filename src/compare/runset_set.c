/* runset_set.c — the run set's findings by identity, its source files,
 * the ranking and the statistics its rules use (median and range, the
 * Mann-Whitney test). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare/runset_set.h"
#include "util/alloc.h"

char *rs_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static void rehash(struct rs_set *s)
{
	free(s->hash);
	s->hcap = s->hcap ? s->hcap * 2 : 64;
	while (s->hcap < 2 * s->nf)     /* rs_rank rebuilds it for all nf at once */
		s->hcap *= 2;
	s->hash = xrealloc(NULL, s->hcap * sizeof(*s->hash));
	memset(s->hash, 0, s->hcap * sizeof(*s->hash));
	for (size_t i = 0; i < s->nf; i++) {
		size_t h = hash_str(s->f[i].identity) & (s->hcap - 1);
		while (s->hash[h])
			h = (h + 1) & (s->hcap - 1);
		s->hash[h] = i + 1;
	}
}

struct rs_finding *rs_find(struct rs_set *s, const char *identity, int add)
{
	if (s->hcap) {
		size_t h = hash_str(identity) & (s->hcap - 1);
		for (; s->hash[h]; h = (h + 1) & (s->hcap - 1))
			if (strcmp(s->f[s->hash[h] - 1].identity, identity) == 0)
				return &s->f[s->hash[h] - 1];
	}
	if (!add)
		return NULL;
	ALLOC_GROW(s->f, s->nf + 1, s->fcap);
	struct rs_finding *f = &s->f[s->nf++];
	memset(f, 0, sizeof(*f));
	f->identity = rs_strdup(identity);
	f->in_run = xrealloc(NULL, s->ndumps + 1);
	memset(f->in_run, 0, s->ndumps + 1);
	f->samples = xrealloc(NULL, (s->nprofiles + 1) * sizeof(*f->samples));
	memset(f->samples, 0, (s->nprofiles + 1) * sizeof(*f->samples));
	f->share_med = f->share_low = f->share_high = -1;
	if (2 * s->nf > s->hcap)
		rehash(s);
	else {
		size_t h = hash_str(identity) & (s->hcap - 1);
		while (s->hash[h])
			h = (h + 1) & (s->hcap - 1);
		s->hash[h] = s->nf;
	}
	return f;
}

void rs_add_file(struct rs_set *s, const char *name)
{
	const char *b = strrchr(name, '/');
	b = b ? b + 1 : name;
	if (rs_has_file(s, b, strlen(b)))
		return;
	s->files = xrealloc(s->files, (s->nfiles + 1) * sizeof(*s->files));
	s->files[s->nfiles++] = rs_strdup(b);
}

int rs_has_file(const struct rs_set *s, const char *base, size_t n)
{
	for (size_t i = 0; i < s->nfiles; i++)
		if (strlen(s->files[i]) == n && memcmp(s->files[i], base, n) == 0)
			return 1;
	return 0;
}

static void free_finding(struct rs_finding *f)
{
	char *texts[] = { f->identity, f->kind, f->file, f->reason, f->severity, f->rule, f->id,
	                  f->advice, f->path, f->at_file };
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		free(texts[i]);
	for (size_t i = 0; i < f->next; i++)
		free(f->ext[i].base);
	free(f->ext);
	free(f->in_run);
	free(f->samples);
}

void rs_free(struct rs_set *s)
{
	for (size_t i = 0; i < s->nf; i++)
		free_finding(&s->f[i]);
	for (size_t i = 0; i < s->ndumps; i++) {
		free(s->dumps[i].path);
		free(s->dumps[i].dir);
	}
	for (size_t i = 0; i < s->nprofiles; i++)
		free(s->profiles[i].path);
	for (size_t i = 0; i < s->nfiles; i++)
		free(s->files[i]);
	free(s->files);
	free(s->f);
	free(s->hash);
	free(s->dumps);
	free(s->profiles);
	memset(s, 0, sizeof(*s));
}

static int by_rank(const void *pa, const void *pb)
{
	const struct rs_finding *a = pa, *b = pb;
	if (a->samples_total != b->samples_total)
		return a->samples_total > b->samples_total ? -1 : 1;
	if (a->attempts != b->attempts)
		return a->attempts > b->attempts ? -1 : 1;
	if (a->seen != b->seen)
		return a->seen > b->seen ? -1 : 1;
	return strcmp(a->identity, b->identity);
}

void rs_rank(struct rs_set *s)
{
	if (s->nf > 1)      /* none: s->f may be NULL, which qsort may not take */
		qsort(s->f, s->nf, sizeof(*s->f), by_rank);
	s->hcap = 0;
	free(s->hash);
	s->hash = NULL;
	rehash(s);
}

/* The words of runs.csv's STATUS, and the runs and profiles that count. */
const char *rs_dump_status(const struct rs_dump *d)
{
	return d->status != 0 && d->status != 3 ? "failed" : d->cut_short ? "cut-short"
	       : d->foreign ? "foreign" : "ok";
}

const char *rs_profile_status(const struct rs_profile *p)
{
	return p->foreign ? "foreign" : !p->ok ? "percentages"
	       : p->total < RUNSET_MIN_SAMPLES ? "too-few-samples" : "ok";
}

size_t rs_usable_runs(const struct rs_set *s)
{
	size_t n = 0;
	for (size_t k = 0; k < s->ndumps; k++)
		n += strcmp(rs_dump_status(&s->dumps[k]), "ok") == 0;
	return n;
}

size_t rs_usable_profiles(const struct rs_set *s)
{
	size_t n = 0;
	for (size_t k = 0; k < s->nprofiles; k++)
		n += s->profiles[k].ok && !s->profiles[k].foreign;
	return n;
}

static int by_value(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return a < b ? -1 : a > b;
}

void rs_median(double *v, size_t n, double *med, double *low, double *high)
{
	if (n == 0) {
		*med = *low = *high = -1;
		return;
	}
	qsort(v, n, sizeof(*v), by_value);
	*low = v[0];
	*high = v[n - 1];
	*med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The exact permutation distribution of the rank sum of a (ranks
 * doubled, so that ties' midranks are whole), as benchstat's test does
 * for small samples: the share of the C(n, na) ways to pick a's ranks
 * whose sum lies as far from its mean as the one seen, or farther. */
double rs_mann_whitney(const double *a, size_t na, const double *b, size_t nb)
{
	if (na == 0 || nb == 0 || na + nb > 60)
		return 1;
	size_t n = na + nb;
	double v[60];
	int from_a[60];
	for (size_t i = 0; i < n; i++) {
		v[i] = i < na ? a[i] : b[i - na];
		from_a[i] = i < na;
	}
	/* sort v with from_a alongside (n is small) */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j]; v[j] = v[j - 1]; v[j - 1] = t;
			int u = from_a[j]; from_a[j] = from_a[j - 1]; from_a[j - 1] = u;
		}
	unsigned rank2[60];         /* twice the midrank */
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && v[j + 1] == v[i])
			j++;
		for (size_t k = i; k <= j; k++)
			rank2[k] = (unsigned)(i + j + 2);
		i = j + 1;
	}
	unsigned seen = 0, maxsum = 0;
	for (size_t i = 0; i < n; i++) {
		if (from_a[i])
			seen += rank2[i];
		maxsum += rank2[i];
	}
	/* ways[k][s]: subsets of k of the ranks so far with sum s */
	size_t cols = maxsum + 1;
	double *ways = xrealloc(NULL, (na + 1) * cols * sizeof(*ways));
	memset(ways, 0, (na + 1) * cols * sizeof(*ways));
	ways[0] = 1;
	for (size_t i = 0; i < n; i++)
		for (size_t k = (i + 1 < na ? i + 1 : na); k >= 1; k--)
			for (size_t s = maxsum; s >= rank2[i]; s--)
				ways[k * cols + s] += ways[(k - 1) * cols + s - rank2[i]];
	double mean = (double)maxsum * (double)na / (double)n;
	double dist = fabs((double)seen - mean), all = 0, far = 0;
	for (size_t s = 0; s <= maxsum; s++) {
		double w = ways[na * cols + s];
		all += w;
		if (fabs((double)s - mean) >= dist - 1e-9)
			far += w;
	}
	free(ways);
	return all > 0 ? far / all : 1;
}
