/* diagnose.c — run-level diagnoses (see diagnose.h).
 *
 * Why a flush happened, from what LuaJIT writes (lj_trace.c, lj_mcode.c):
 *   - machine code ran out: the trace being assembled aborts with "failed
 *     to allocate mcode memory" and LuaJIT flushes at once, so that abort is
 *     the generation's last record;
 *   - the trace limit: when no number up to maxtrace is free, starting a
 *     trace flushes without a word, so the generation's highest number is
 *     maxtrace.  The dump does not say maxtrace, so the dump's highest
 *     number (no generation goes past the limit) counts as the limit when
 *     it is a default (1000: LuaJIT 2.0 and 2.1; 8000: OpenResty's
 *     luajit2), or when two or more flushes happened there and it is
 *     DIAG_MAXTRACE_REPEAT_MIN or more (a program calling jit.flush() in a
 *     loop repeats small numbers too);
 *   - anything else is an explicit flush (jit.flush()).
 * The -O values suggested are concrete guesses, said to be. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include "analysis/diagnose.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/intern.h"

#define MAXMCODE_DEFAULT_KB 512     /* LuaJIT 2.0 and 2.1 beta3 */
#define MAXTRACE_DEFAULT 1000       /* LuaJIT 2.0 and 2.1 */
#define MAXTRACE_LUAJIT2 8000       /* OpenResty's luajit2 */
#define MAXTRACE_CAP 65534          /* lj_trace.c caps the table there */

int diagnose_is_mcode(const char *reason)
{
	return reason && strstr(reason, "failed to allocate mcode memory") != NULL;
}

void diagnose_trace(struct diagnose *d, const struct da_trace *t)
{
	if (t->id > d->cur.highest)
		d->cur.highest = t->id;
	d->cur.mcode += t->size_mc;
	d->cur.mcode_last = 0;
	if (t->id >= d->ndepth) {
		size_t n = d->ndepth ? d->ndepth : 64;
		while (n <= t->id)
			n *= 2;
		d->depth = xrealloc(d->depth, n * sizeof(*d->depth));
		memset(d->depth + d->ndepth, 0, (n - d->ndepth) * sizeof(*d->depth));
		d->ndepth = n;
	}
	uint16_t depth = 0;
	if (t->parent_trace) {
		uint32_t p = t->parent_trace->id;
		depth = (uint16_t)(p < d->ndepth && d->depth[p] < UINT16_MAX ? d->depth[p] + 1 : 1);
		tally_add(&d->sides, t->file, NULL, t->line, 1);
	}
	d->depth[t->id] = depth;
	if (depth >= DIAG_CHAIN_DEPTH) {
		/* One row per chain: a deeper trace of a chain already kept
		 * replaces it (its parent is the kept one, or deeper still). */
		struct diag_line c = { t->gen, t->id, t->file, t->line, depth };
		size_t k = DIAG_TOP;
		for (size_t i = 0; i < DIAG_TOP; i++)
			if (d->chains[i].n && d->chains[i].gen == c.gen &&
			    d->chains[i].trace == t->parent_trace->id)
				k = i;
		if (k < DIAG_TOP) {
			memmove(&d->chains[k], &d->chains[k + 1], (DIAG_TOP - k - 1) * sizeof(c));
			memset(&d->chains[DIAG_TOP - 1], 0, sizeof(c));
		}
		/* A chain's one trace at the threshold depth counts it. */
		d->nchains += depth == DIAG_CHAIN_DEPTH;
		k = DIAG_TOP;
		while (k > 0 && (!d->chains[k - 1].n || c.n > d->chains[k - 1].n))
			k--;
		if (k < DIAG_TOP) {
			memmove(&d->chains[k + 1], &d->chains[k], (DIAG_TOP - k - 1) * sizeof(c));
			d->chains[k] = c;
		}
	}
}

void diagnose_abort(struct diagnose *d, const struct da_abort *a)
{
	if (a->id > d->cur.highest)
		d->cur.highest = a->id;
	d->cur.mcode_last = diagnose_is_mcode(a->reason);
}

static void keep_burst(struct diagnose *d, struct diag_line b)
{
	d->nbursts++;
	size_t k = DIAG_TOP;
	while (k > 0 && (!d->bursts[k - 1].n || b.n > d->bursts[k - 1].n))
		k--;
	if (k < DIAG_TOP) {
		memmove(&d->bursts[k + 1], &d->bursts[k], (DIAG_TOP - k - 1) * sizeof(b));
		d->bursts[k] = b;
	}
}

void diagnose_gen_end(struct diagnose *d, const struct da_gen *g)
{
	d->cur.number = g->number;
	size_t n;
	struct tally_entry *e = tally_entries(&d->sides, &n);
	qsort(e, n, sizeof(*e), tally_by_count);
	for (size_t i = 0; i < n && e[i].count >= DIAG_SIDES_AT_LINE; i++)
		keep_burst(d, (struct diag_line){ g->number, 0, e[i].a, (int32_t)e[i].c, e[i].count });
	free(e);
	tally_clear(&d->sides);
	ALLOC_GROW(d->gens, d->ngens + 1, d->gens_cap);
	d->gens[d->ngens++] = d->cur;
	memset(&d->cur, 0, sizeof(d->cur));
	d->cur.number = g->number + 1;
	if (d->depth)
		memset(d->depth, 0, d->ndepth * sizeof(*d->depth));
}

void diagnose_free(struct diagnose *d)
{
	free(d->gens);
	free(d->depth);
	tally_free(&d->sides);
}

/* ---- the findings as text ------------------------------------------ */

static void add_loc(struct strbuf *t, const char *file, int32_t line)
{
	size_t n = file ? intern_len(file) : 0;
	for (size_t i = 0; i < n; i++)
		strbuf_add(t, file[i] == '\n' || file[i] == '\r' ? " " : file + i, 1);
	if (line != DA_NO_LINE)
		strbuf_addf(t, ":%d", line);
}

struct lines { char **v; size_t n, cap; };

static void push(struct lines *l, struct strbuf *t)
{
	if (!t->len)
		return;
	ALLOC_GROW(l->v, l->n + 1, l->cap);
	l->v[l->n++] = t->buf;
	memset(t, 0, sizeof(*t));
}

/* The generations that ended with a flush of this cause, as ranges
 * ("1-5, 9"), at most 6 ranges. */
static void add_gens(struct strbuf *t, const struct diagnose *d, const enum flush_cause *cause,
                     enum flush_cause which)
{
	size_t ranges = 0, more = 0;
	for (size_t i = 0; i < d->ngens; i++) {
		if (cause[i] != which)
			continue;
		size_t j = i;
		while (j + 1 < d->ngens && cause[j + 1] == which)
			j++;
		if (ranges++ < 6) {
			strbuf_addf(t, "%s%u", ranges > 1 ? ", " : "", d->gens[i].number);
			if (j > i)
				strbuf_addf(t, "-%u", d->gens[j].number);
		} else
			more += j - i + 1;
		i = j;
	}
	if (more)
		strbuf_addf(t, ", %zu more", more);
}

static uint64_t pow2_at_least(uint64_t v)
{
	uint64_t p = 1;
	while (p < v)
		p *= 2;
	return p;
}

void diagnose_flushes(const struct diagnose *d, struct flush_summary *s, enum flush_cause *cause)
{
	memset(s, 0, sizeof(*s));
	size_t nflush = d->ngens ? d->ngens - 1 : 0;
	uint32_t top = 0;           /* no generation went past it */
	size_t at_top = 0;
	for (size_t i = 0; i < d->ngens; i++)
		if (d->gens[i].highest > top)
			top = d->gens[i].highest;
	for (size_t i = 0; i < nflush; i++)
		at_top += !d->gens[i].mcode_last && d->gens[i].highest == top;
	int limit = top == MAXTRACE_DEFAULT || top == MAXTRACE_LUAJIT2 ||
	            (at_top >= 2 && top >= DIAG_MAXTRACE_REPEAT_MIN);
	uint64_t mcode_most = 0;
	for (size_t i = 0; i < d->ngens; i++) {
		const struct diag_gen *g = &d->gens[i];
		enum flush_cause c;
		if (i == nflush)
			c = FLUSH_NONE;
		else if (g->mcode_last)
			c = FLUSH_MCODE;
		else if (limit && g->highest == top)
			c = FLUSH_MAXTRACE;
		else
			c = FLUSH_EXPLICIT;
		if (cause)
			cause[i] = c;
		s->n[c]++;
		if (c == FLUSH_MAXTRACE && g->highest > s->maxtrace)
			s->maxtrace = g->highest;
		if (g->mcode > mcode_most)
			mcode_most = g->mcode;
	}
	s->flushes = nflush;
	s->mcode_kb = (mcode_most + 1023) / 1024;
	s->try_maxmcode = pow2_at_least(4 * s->mcode_kb);
	if (s->try_maxmcode < 2 * MAXMCODE_DEFAULT_KB)
		s->try_maxmcode = 2 * MAXMCODE_DEFAULT_KB;
	s->try_maxtrace = 2 * (uint64_t)s->maxtrace;
	if (s->try_maxtrace > MAXTRACE_CAP)
		s->try_maxtrace = MAXTRACE_CAP;
}

size_t diagnose_lines(const struct diagnose *d, uint64_t blacklisted,
                      uint64_t mcode_blacklisted, char ***out)
{
	struct lines l = { 0 };
	struct strbuf t = STRBUF_INIT;
	enum flush_cause *cause = xrealloc(NULL, (d->ngens + 1) * sizeof(*cause));
	struct flush_summary fs;
	diagnose_flushes(d, &fs, cause);
	size_t nflush = fs.flushes, *n = fs.n;
	uint32_t maxtrace = fs.maxtrace;

	if (nflush >= DIAG_STORM_FLUSHES) {
		strbuf_addf(&t, "flush storm: %zu flushes, each threw away every compiled trace"
		    " (%zu machine code, %zu trace limit, %zu explicit)\n",
		    nflush, n[FLUSH_MCODE], n[FLUSH_MAXTRACE], n[FLUSH_EXPLICIT]);
		push(&l, &t);
	}
	if (n[FLUSH_MCODE]) {
		uint64_t kb = fs.mcode_kb, try = fs.try_maxmcode;
		strbuf_addf(&t, "%zu flush%s after machine code memory ran out (\"failed to allocate mcode"
		    " memory\"), after gen ", n[FLUSH_MCODE], n[FLUSH_MCODE] == 1 ? "" : "es");
		add_gens(&t, d, cause, FLUSH_MCODE);
		strbuf_addf(&t, "\n    try -Omaxmcode=%" PRIu64 " (KB; default %d in LuaJIT 2.0/2.1 beta3;"
		    " a generation held up to %" PRIu64 " KB of traces)\n",
		    try, MAXMCODE_DEFAULT_KB, kb);
		push(&l, &t);
	}
	if (n[FLUSH_MAXTRACE]) {
		uint64_t try = fs.try_maxtrace;
		strbuf_addf(&t, "%zu flush%s at trace %u, the trace limit (maxtrace), after gen ",
		    n[FLUSH_MAXTRACE], n[FLUSH_MAXTRACE] == 1 ? "" : "es", maxtrace);
		add_gens(&t, d, cause, FLUSH_MAXTRACE);
		strbuf_addf(&t, "\n    try -Omaxtrace=%" PRIu64 " (default %d; %d in OpenResty's luajit2)\n",
		    try, MAXTRACE_DEFAULT, MAXTRACE_LUAJIT2);
		push(&l, &t);
	}
	if (n[FLUSH_EXPLICIT]) {
		strbuf_addf(&t, "%zu explicit flush%s (jit.flush(): no abort before, below the trace limit),"
		    " after gen ", n[FLUSH_EXPLICIT], n[FLUSH_EXPLICIT] == 1 ? "" : "es");
		add_gens(&t, d, cause, FLUSH_EXPLICIT);
		strbuf_addf(&t, "\n");
		push(&l, &t);
	}
	free(cause);

	for (size_t i = 0; i < DIAG_SHOW && d->bursts[i].n; i++) {
		const struct diag_line *b = &d->bursts[i];
		strbuf_addf(&t, "side-trace explosion: %" PRIu64 " side traces start at ", b->n);
		add_loc(&t, b->file, b->line);
		strbuf_addf(&t, " (gen %u)\n", b->gen);
		push(&l, &t);
	}
	if (d->nbursts > DIAG_SHOW) {
		strbuf_addf(&t, "\u2026 %" PRIu64 " more lines with %d or more side traces in one generation"
		    " (gen-N-traces.csv)\n", d->nbursts - DIAG_SHOW, DIAG_SIDES_AT_LINE);
		push(&l, &t);
	}
	for (size_t i = 0; i < DIAG_SHOW && d->chains[i].n; i++) {
		const struct diag_line *c = &d->chains[i];
		strbuf_addf(&t, "long side-trace chain: %" PRIu64 " side traces deep, ending at trace %u \u2192 ",
		    c->n, c->trace);
		add_loc(&t, c->file, c->line);
		strbuf_addf(&t, " (gen %u)\n", c->gen);
		push(&l, &t);
	}
	if (d->nchains > DIAG_SHOW) {
		strbuf_addf(&t, "\u2026 %" PRIu64 " side-trace chains reach %d deep in all (gen-N-traces.csv)\n",
		    d->nchains, DIAG_CHAIN_DEPTH);
		push(&l, &t);
	}
	if (mcode_blacklisted) {
		strbuf_addf(&t, "%" PRIu64 " of %" PRIu64 " likely blacklisted starts last failed on mcode"
		    " memory: a flush side effect, not real blacklisting\n",
		    mcode_blacklisted, blacklisted);
		push(&l, &t);
	}
	*out = l.v;
	return l.n;
}

void diagnose_lines_free(char **lines, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}
