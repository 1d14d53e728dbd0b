/* csvin.c — read CSV rows with libcsv; see csvin.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <csv.h>
#include "output/message.h"
#include "cli/csvin.h"
#include "util/arena.h"
#include "util/diag.h"


struct rows {
	char *field[CSVIN_MAX_FIELDS];
	size_t nfield, row;
	void (*on_row)(void *ctx, char **f, size_t n);
	void (*on_named)(void *ctx, const struct csvin_header *h, char **f, size_t n);
	void *ctx;
	struct csvin_header header;
};

static void cb_field(void *s, size_t len, void *data)
{
	struct rows *r = data;
	if (r->nfield < CSVIN_MAX_FIELDS) {
		char *f = xrealloc(NULL, len + 1);
		memcpy(f, s, len);
		f[len] = '\0';
		r->field[r->nfield++] = f;
	}
}

static void cb_row(int c, void *data)
{
	struct rows *r = data;
	(void)c;
	if (r->row++ == 0 && r->on_named) {     /* the header: kept */
		memcpy(r->header.name, r->field, r->nfield * sizeof(*r->field));
		r->header.n = r->nfield;
		r->nfield = 0;
		return;
	}
	if (r->row > 1) {
		if (r->on_named)
			r->on_named(r->ctx, &r->header, r->field, r->nfield);
		else
			r->on_row(r->ctx, r->field, r->nfield);
	}
	for (size_t i = 0; i < r->nfield; i++)
		free(r->field[i]);
	r->nfield = 0;
}

static int read_rows(const char *path, struct rows *rp)
{
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		if (errno == ENOENT)
			return 0;
		msg_error("%s: %s", path, strerror(errno));
		return -1;
	}
	struct csv_parser p;
	csv_init(&p, CSV_APPEND_NULL);
	struct rows r = *rp;
	char buf[65536];
	size_t n;
	int rc = 1;
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		if (csv_parse(&p, buf, n, cb_field, cb_row, &r) != n) {
			msg_error("%s: %s", path, csv_strerror(csv_error(&p)));
			rc = -1;
			break;
		}
	if (rc > 0)
		csv_fini(&p, cb_field, cb_row, &r);
	for (size_t i = 0; i < r.nfield; i++)
		free(r.field[i]);
	for (size_t i = 0; i < r.header.n; i++)
		free(r.header.name[i]);
	csv_free(&p);
	fclose(fp);
	return rc;
}

int csvin_read(const char *path, void (*on_row)(void *, char **, size_t), void *ctx)
{
	struct rows r = { .on_row = on_row, .ctx = ctx };
	return read_rows(path, &r);
}

int csvin_read_named(const char *path,
                     void (*on_row)(void *, const struct csvin_header *, char **, size_t), void *ctx)
{
	struct rows r = { .on_named = on_row, .ctx = ctx };
	return read_rows(path, &r);
}

int csvin_col(const struct csvin_header *h, const char *name)
{
	for (size_t i = 0; i < h->n; i++)
		if (strcmp(h->name[i], name) == 0)
			return (int)i;
	return -1;
}

const char *csvin_field(const struct csvin_header *h, char **fields, size_t n, const char *name)
{
	int c = csvin_col(h, name);
	return c >= 0 && (size_t)c < n ? fields[c] : NULL;
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
