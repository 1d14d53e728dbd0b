/* abort_files.c — a custom view over libdumpanalyze: aborted trace
 * attempts counted per source file, printed as "COUNT FILE", most first.
 *   cc -o abort_files abort_files.c $(pkg-config --cflags --libs dumpanalyze)
 *   ./abort_files app.dump */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dumpanalyze.h>

struct file_count {
	const char *file;           /* the handle's string: lives until da_close */
	unsigned long long count;
};

struct files {
	struct file_count *v;
	size_t n, cap;
};

/* The sink's abort hook.  A linear search: a dump names few files. */
static int on_abort(void *data, const struct da_abort *a)
{
	struct files *f = data;
	size_t i = 0;
	while (i < f->n && strcmp(f->v[i].file, a->file) != 0)
		i++;
	if (i == f->n) {
		if (f->n == f->cap) {
			size_t cap = f->cap ? 2 * f->cap : 16;
			struct file_count *v = realloc(f->v, cap * sizeof(*v));
			if (!v)
				return -1;  /* stops the run: da_read returns DA_ESTOPPED */
			f->v = v;
			f->cap = cap;
		}
		f->v[f->n++] = (struct file_count){ a->file, 0 };
	}
	f->v[i].count++;
	return 0;
}

/* Count descending, then file name. */
static int by_count(const void *x, const void *y)
{
	const struct file_count *a = x, *b = y;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return strcmp(a->file, b->file);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DUMP\n", argv[0]);
		return 2;
	}
	struct files f = { 0 };
	struct da_sink sink = DA_SINK(.abort = on_abort);
	struct da_options o = DA_OPTIONS(.sink = &sink, .sink_data = &f);
	int err;
	da_dump *d = da_open_path(argv[1], &o, &err);
	if (!d) {
		fprintf(stderr, "%s: %s\n", argv[1], err == DA_EOPEN ? strerror(errno) : da_strerror(err));
		return 1;
	}
	err = da_read(d);
	if (err == DA_OK) {
		qsort(f.v, f.n, sizeof(*f.v), by_count);
		for (size_t i = 0; i < f.n; i++)
			printf("%llu %s\n", f.v[i].count, f.v[i].file);
	} else {
		fprintf(stderr, "%s: %s\n", argv[1], da_dump_error(d));
	}
	da_close(d);                /* the file names die here */
	free(f.v);
	return err == DA_OK ? 0 : 1;
}
