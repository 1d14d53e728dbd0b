/* csvin.c — CSV files read back without trusting them; see csvin.h. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <csv.h>
#include "compare/csvin.h"
#include "output/message.h"
#include "output/termtext.h"
#include "util/alloc.h"

static const struct {
	enum csvin_kind kind;
	const char *name;
	enum csvin_type type;
	int need;
} cols[CSVIN_NCOLS] = {
#define CSVCOL(kind, name, type, need) { CSVIN_##kind, #name, CSVIN_##type, need },
#include "compare/csvin_files.def"
};

static const char *const kind_names[CSVIN_NKINDS] = {
#define CSVFILE(kind, name) name,
#include "compare/csvin_files.def"
};

const char *csvin_name(enum csvin_kind kind)
{
	return kind_names[kind];
}

struct reading {
	struct csvin c;
	const struct csvin_reader *rd;
	size_t nheader;
	size_t nseen;               /* fields of the row, kept or not */
	uint64_t pending;           /* bytes given to libcsv since a row ended */
	int failed;                 /* a message was printed: the rest is skipped */
};

/* "FILE: row R, column C: " and the rest, once. */
static void fail(struct reading *r, const char *col, const char *fmt, ...) DA_PRINTF(3, 4);
static void fail(struct reading *r, const char *col, const char *fmt, ...)
{
	char what[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (col)
		msg_error("%s: row %" PRIu64 ", column %s: %s", r->c.shown, r->c.row, col, what);
	else
		msg_error("%s: row %" PRIu64 ": %s", r->c.shown, r->c.row, what);
	r->failed = 1;
}

/* A field as a message shows it: escaped, at most 40 bytes of it. */
static char *shown_value(const char *s)
{
	size_t n = strlen(s);
	char *t = term_textn(s, n > 40 ? 40 : n);
	if (n > 40) {
		t = xrealloc(t, strlen(t) + 4);
		strcat(t, "...");
	}
	return t;
}

/* Digits up to max: NULL, or what is wrong with s. */
static const char *parse_count(const char *s, uint64_t max, uint64_t *v)
{
	const char *p = s;
	int minus = *p == '-';
	p += minus;
	if (!*p)
		return minus ? "is not a number" : "is empty, not a number";
	uint64_t n = 0;
	int over = 0;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return "is not a number";
		unsigned d = (unsigned)(*p - '0');
		if (n > (max - d) / 10)
			over = 1;
		else
			n = n * 10 + d;
	}
	if (minus)
		return n == 0 && !over ? NULL : "is negative";
	if (over)
		return max == INT64_MAX ? "is more than 2^63-1" : "is more than 2^31-1";
	*v = n;
	return NULL;
}

/* A count or a decimal (a profile of percentages): NULL, or what is
 * wrong. */
static const char *parse_amount(const char *s, double *v)
{
	const char *p = s;
	if (*p == '-')
		return strspn(p + 1, "0123456789.") == strlen(p + 1) && p[1] ? "is negative"
		                                                               : "is not a number";
	size_t whole = strspn(p, "0123456789");
	if (!whole)
		return *p ? "is not a number" : "is empty, not a number";
	p += whole;
	if (*p == '.') {
		size_t frac = strspn(p + 1, "0123456789");
		if (!frac)
			return "is not a number";
		p += 1 + frac;
	}
	if (*p)
		return "is not a number";
	*v = strtod(s, NULL);       /* digits and a point only: no locale in it */
	return *v > 9223372036854775808.0 ? "is more than 2^63" : NULL;
}

static const char *check(enum csvin_type t, const char *s)
{
	uint64_t u;
	double d;
	switch (t) {
	case CSVIN_COUNT: return parse_count(s, INT64_MAX, &u);
	case CSVIN_LINE: return *s ? parse_count(s, INT32_MAX, &u) : NULL;
	case CSVIN_AMOUNT: return parse_amount(s, &d);
	case CSVIN_AMOUNT_OR_EMPTY: return *s ? parse_amount(s, &d) : NULL;
	case CSVIN_FINGERPRINT:
		return !*s || (strlen(s) == 12 && strspn(s, "0123456789abcdef") == 12) ? NULL
		       : "is not a fingerprint (12 hex digits)";
	case CSVIN_TEXT: break;
	}
	return NULL;
}

static void read_header(struct reading *r)
{
	struct csvin *c = &r->c;
	for (size_t i = 0; i < c->nfield && !r->failed; i++) {
		int k = 0;
		while (k < CSVIN_NCOLS && (cols[k].kind != c->kind || strcmp(cols[k].name, c->field[i]) != 0))
			k++;
		char where[32];
		snprintf(where, sizeof(where), "%zu", i + 1);
		if (k == CSVIN_NCOLS) {
			char *v = shown_value(c->field[i]);
			fail(r, where, "unknown column '%s'", v);
			free(v);
		} else if (c->pos[k] >= 0) {
			fail(r, where, "column %s again", cols[k].name);
		} else {
			c->pos[k] = (int)i;
		}
	}
	for (int k = 0; k < CSVIN_NCOLS && !r->failed; k++)
		if (cols[k].kind == c->kind && cols[k].need && c->pos[k] < 0)
			fail(r, NULL, "no column %s", cols[k].name);
	r->nheader = c->nfield;
	if (!r->failed && r->rd->header && r->rd->header(r->rd->ctx, c) < 0)
		r->failed = 1;
}

static void read_row(struct reading *r)
{
	struct csvin *c = &r->c;
	if (r->nseen != r->nheader) {
		fail(r, NULL, "%zu field%s, the header has %zu", r->nseen, r->nseen == 1 ? "" : "s",
		     r->nheader);
		return;
	}
	for (int k = 0; k < CSVIN_NCOLS && !r->failed; k++) {
		if (cols[k].kind != c->kind || c->pos[k] < 0)
			continue;
		const char *s = c->field[c->pos[k]];
		const char *why = check(cols[k].type, s);
		if (why) {
			char *v = shown_value(s);
			fail(r, cols[k].name, "'%s' %s", v, why);
			free(v);
		}
	}
	if (!r->failed && r->rd->row && r->rd->row(r->rd->ctx, c) < 0)
		r->failed = 1;
}

static void cb_field(void *s, size_t len, void *data)
{
	struct reading *r = data;
	if (r->failed)
		return;
	r->nseen++;
	if (r->c.nfield < CSVIN_MAX_FIELDS) {
		char *f = xrealloc(NULL, len + 1);
		if (len)
			memcpy(f, s, len);
		f[len] = '\0';
		r->c.field[r->c.nfield++] = f;
	}
}

static void cb_row(int ch, void *data)
{
	struct reading *r = data;
	(void)ch;
	r->pending = 0;
	if (!r->failed) {
		r->c.row++;
		if (r->nseen > CSVIN_MAX_FIELDS)
			fail(r, NULL, "%zu fields, more than the %d of any file dumpanalyze writes",
			     r->nseen, CSVIN_MAX_FIELDS);
		else if (r->c.row == 1)
			read_header(r);
		else
			read_row(r);
	}
	for (size_t i = 0; i < r->c.nfield; i++)
		free(r->c.field[i]);
	r->c.nfield = 0;
	r->nseen = 0;
}

int csvin_read(const struct runfile_dir *d, const char *name, enum csvin_kind kind, int may_lack,
               const struct csvin_reader *rd)
{
	struct runfile f;
	int rc = runfile_open(&f, d, name, RUNFILE_MAX, may_lack);
	if (rc) {
		runfile_close(&f);
		return rc > 0 ? 0 : -1;
	}
	struct reading r = { .rd = rd };
	r.c.shown = f.shown;
	r.c.kind = kind;
	for (int k = 0; k < CSVIN_NCOLS; k++)
		r.c.pos[k] = -1;
	struct csv_parser p;
	/* strict: a stray quote or an unfinished quoted field is an error,
	 * not a guess */
	csv_init(&p, CSV_APPEND_NULL | CSV_STRICT | CSV_STRICT_FINI);
	/* libcsv grows a field's buffer by this much at a time (128 bytes
	 * by default): a field of 64 MiB, the cap, would be half a million
	 * reallocs, each a copy where realloc cannot grow in place (under
	 * ASan always: hours); by 1 MiB, 64 of them */
	csv_set_blk_size(&p, (size_t)1 << 20);
	char *buf = xrealloc(NULL, 65536);
	long n;
	while (!r.failed && (n = runfile_read(&f, buf, 65536)) != 0) {
		if (n < 0) {
			r.failed = 1;
			break;
		}
		r.pending += (uint64_t)n;
		if (csv_parse(&p, buf, (size_t)n, cb_field, cb_row, &r) != (size_t)n && !r.failed) {
			r.c.row++;
			fail(&r, NULL, "not valid CSV (%s)", csv_strerror(csv_error(&p)));
		} else if (r.pending > RUNFILE_LINE_MAX && !r.failed) {
			/* libcsv holds a field whole: a row is capped as a line
			 * is (one ended in this block is counted from the block's
			 * start, so the cap may take one block more) */
			r.c.row++;
			fail(&r, NULL, "a row longer than %zu bytes, more than any dumpanalyze writes",
			     RUNFILE_LINE_MAX);
		}
	}
	if (!r.failed && csv_fini(&p, cb_field, cb_row, &r) != 0 && !r.failed) {
		r.c.row++;
		fail(&r, NULL, "not valid CSV (%s)", csv_strerror(csv_error(&p)));
	}
	if (!r.failed && r.c.row == 0) {
		msg_error("%s: empty, not even a header row", f.shown);
		r.failed = 1;
	}
	for (size_t i = 0; i < r.c.nfield; i++)
		free(r.c.field[i]);
	free(buf);
	csv_free(&p);
	runfile_close(&f);
	return r.failed ? -1 : 1;
}

int csvin_has(const struct csvin *c, enum csvin_col col)
{
	return c->pos[col] >= 0;
}

const char *csvin_text(const struct csvin *c, enum csvin_col col)
{
	return c->pos[col] >= 0 ? c->field[c->pos[col]] : "";
}

uint64_t csvin_count(const struct csvin *c, enum csvin_col col)
{
	uint64_t v = 0;
	const char *s = csvin_text(c, col);
	if (*s)
		parse_count(s, INT64_MAX, &v);
	return v;
}

double csvin_amount(const struct csvin *c, enum csvin_col col)
{
	double v = -1;
	const char *s = csvin_text(c, col);
	if (*s)
		parse_amount(s, &v);
	return v;
}

int csvin_add(const struct csvin *c, enum csvin_col col, uint64_t *total)
{
	uint64_t v = csvin_count(c, col);
	if (v > CSVIN_MAX_SUM - *total) {
		msg_error("%s: row %" PRIu64 ", column %s: the counts sum past 2^63-1", c->shown,
		          c->row, cols[col].name);
		return -1;
	}
	*total += v;
	return 0;
}

int csvin_add_amount(const struct csvin *c, enum csvin_col col, double *total)
{
	double v = csvin_amount(c, col);
	if (v > 0 && *total + v > 9223372036854775808.0) {
		msg_error("%s: row %" PRIu64 ", column %s: the amounts sum past 2^63", c->shown,
		          c->row, cols[col].name);
		return -1;
	}
	if (v > 0)
		*total += v;
	return 0;
}

struct named *named_find(struct named_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].name, name) == 0)
			return &l->v[i];
	return NULL;
}

void named_add(struct named_list *l, const char *name, uint64_t count)
{
	struct named *e = named_find(l, name);
	if (e) {
		e->count += count;
		return;
	}
	ALLOC_GROW(l->v, l->n + 1, l->cap);
	size_t len = strlen(name) + 1;
	l->v[l->n].name = memcpy(xrealloc(NULL, len), name, len);
	l->v[l->n++].count = count;
}

static int by_name(const void *x, const void *y)
{
	return strcmp(((const struct named *)x)->name, ((const struct named *)y)->name);
}

static int by_count(const void *x, const void *y)
{
	const struct named *a = x, *b = y;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return strcmp(a->name, b->name);
}

void named_sort_by_name(struct named_list *l)
{
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), by_name);
}

void named_sort_by_count(struct named_list *l)
{
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), by_count);
}

void named_free(struct named_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
	memset(l, 0, sizeof(*l));
}
