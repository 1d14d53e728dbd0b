/* abort_reasons.c — abort reasons counted per generation through a
 * libdumpanalyze sink, as CSV: GEN,REASON,COUNT, each generation's rows
 * in the order of dumpanalyze's gen-N-abort-reasons.csv.
 *   cc -o abort_reasons abort_reasons.c $(pkg-config --cflags --libs dumpanalyze)
 *   ./abort_reasons app.dump */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dumpanalyze.h>

struct reason_count {
	const char *reason;         /* the handle's string: lives until da_close */
	uint64_t count;
	size_t first;               /* order of first appearance, for ties */
};

/* One generation's counts: emptied at gen_begin, printed at gen_end. */
struct reasons {
	struct reason_count *v;
	size_t n, cap;
};

static int on_gen_begin(void *data, const struct da_gen *g)
{
	struct reasons *r = data;
	(void)g;
	r->n = 0;
	return 0;
}

static int on_abort(void *data, const struct da_abort *a)
{
	struct reasons *r = data;
	size_t i = 0;
	while (i < r->n && strcmp(r->v[i].reason, a->reason) != 0)
		i++;
	if (i == r->n) {
		if (r->n == r->cap) {
			size_t cap = r->cap ? 2 * r->cap : 16;
			struct reason_count *v = realloc(r->v, cap * sizeof(*v));
			if (!v)
				return -1;  /* stops the run: da_read returns DA_ESTOPPED */
			r->v = v;
			r->cap = cap;
		}
		r->v[r->n] = (struct reason_count){ a->reason, 0, r->n };
		r->n++;
	}
	r->v[i].count++;
	return 0;
}

/* dumpanalyze's order: count descending, ties in order of first appearance. */
static int by_count(const void *x, const void *y)
{
	const struct reason_count *a = x, *b = y;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

/* A CSV field quoted as dumpanalyze does it (RFC 4180, only when needed). */
static void put_field(const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

static int on_gen_end(void *data, const struct da_gen *g)
{
	struct reasons *r = data;
	qsort(r->v, r->n, sizeof(*r->v), by_count);
	for (size_t i = 0; i < r->n; i++) {
		printf("%lu,", (unsigned long)g->number);
		put_field(r->v[i].reason);
		printf(",%llu\r\n", (unsigned long long)r->v[i].count);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DUMP\n", argv[0]);
		return 2;
	}
	struct reasons r = { 0 };
	struct da_sink sink = DA_SINK(.gen_begin = on_gen_begin, .abort = on_abort,
	                              .gen_end = on_gen_end);
	struct da_options o = DA_OPTIONS(.sink = &sink, .sink_data = &r);
	int err;
	da_dump *d = da_open_path(argv[1], &o, &err);
	if (!d) {
		fprintf(stderr, "%s: %s\n", argv[1], err == DA_EOPEN ? strerror(errno) : da_strerror(err));
		return 1;
	}
	fputs("GEN,REASON,COUNT\r\n", stdout);
	err = da_read(d);
	if (err != DA_OK)
		fprintf(stderr, "%s: %s\n", argv[1], da_dump_error(d));
	da_close(d);
	free(r.v);
	return err == DA_OK ? 0 : 1;
}
