/* runset_read.c — what each run of a run set wrote into OUT/run-K, read
 * back (trusting none of it, through csvin): its findings by identity,
 * the source files it names, whether its dump was cut short. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/csvin.h"
#include "compare/runfile.h"
#include "cli/runset_impl.h"
#include "output/message.h"
#include "util/alloc.h"

struct read_ctx {
	struct rs_set *s;
	size_t run;
};

static void add_extent(struct rs_finding *f, const char *file, int32_t first, int32_t last)
{
	const char *b = strrchr(file, '/');
	b = b ? b + 1 : file;
	for (size_t i = 0; i < f->next; i++)
		if (f->ext[i].first == first && f->ext[i].last == last && strcmp(f->ext[i].base, b) == 0)
			return;
	f->ext = xrealloc(f->ext, (f->next + 1) * sizeof(*f->ext));
	f->ext[f->next++] = (struct rs_extent){ rs_strdup(b), first, last };
}

static int finding_row(void *ctx, const struct csvin *c)
{
	struct read_ctx *x = ctx;
	struct rs_finding *f = rs_find(x->s, csvin_text(c, CSVIN_FINDINGS_IDENTITY), 1);
	if (!f->kind)
		rs_finding_describe(f, c);
	if (!f->in_run[x->run]) {
		f->in_run[x->run] = 1;
		f->seen++;
	}
	if (csvin_add(c, CSVIN_FINDINGS_ATTEMPTS, &f->attempts) < 0)
		return -1;
	double own = csvin_amount(c, CSVIN_FINDINGS_SAMPLES);
	if (own >= 0) {
		f->own_samples += own;
		f->own_profiled = 1;
	}
	add_extent(f, csvin_text(c, CSVIN_FINDINGS_FILE), (int32_t)csvin_count(c, CSVIN_FINDINGS_LINE),
	           (int32_t)csvin_count(c, CSVIN_FINDINGS_END_LINE));
	return 0;
}

struct files_ctx {
	struct rs_set *s;
	int first;                  /* run 1: makes the set the others meet */
	size_t shared, named;
};

static int file_row(void *ctx, const struct csvin *c)
{
	struct files_ctx *x = ctx;
	if (strcmp(csvin_text(c, CSVIN_FILES_KIND), "file") != 0)
		return 0;
	const char *name = csvin_text(c, CSVIN_FILES_NAME);
	const char *b = strrchr(name, '/');
	b = b ? b + 1 : name;
	x->named++;
	if (x->first)
		rs_add_file(x->s, name);
	else if (rs_has_file(x->s, b, strlen(b)))
		x->shared++;
	return 0;
}

/* "  incomplete               1" in the run's summary.txt: traces its
 * dump ends inside of. */
static int read_incomplete(struct rs_dump *d, const struct runfile_dir *dir)
{
	struct runfile f;
	int r = runfile_open(&f, dir, "summary.txt", 1 << 24, 1);
	if (r != 0) {
		runfile_close(&f);
		return r < 0 ? -1 : 0;
	}
	long n;
	while ((n = runfile_line(&f)) >= 0) {
		unsigned long long v;
		char tail;
		if (sscanf(f.buf, "  incomplete %llu%c", &v, &tail) == 1)
			d->incomplete += v;
	}
	runfile_close(&f);
	return n == -2 ? -1 : 0;
}

int rs_read_runs(struct rs_set *s, const struct runfile_dir *top)
{
	for (size_t k = 0; k < s->ndumps; k++) {
		struct rs_dump *d = &s->dumps[k];
		if (d->status != 0 && d->status != 3)
			continue;
		struct runfile_dir dir;
		int r = runfile_dir_open(&dir, top, d->dir);
		if (r > 0) {
			/* the run wrote nothing: it failed */
			d->status = 2;
			continue;
		}
		if (r < 0)
			return -1;
		struct read_ctx x = { s, k };
		struct csvin_reader rd = { NULL, finding_row, &x };
		struct files_ctx fx = { s, s->nfiles == 0, 0, 0 };
		struct csvin_reader frd = { NULL, file_row, &fx };
		/* a dump cut short is left out of the set (said by the caller) */
		r = read_incomplete(d, &dir);
		d->cut_short = d->incomplete > 0 && !s->several;
		if (r >= 0 && !d->cut_short) {
			r = csvin_read(&dir, "findings.csv", CSVIN_FINDINGS, s->several, &rd);
			s->findings_read += r > 0;
		}
		if (r >= 0 && !d->cut_short)
			r = csvin_read(&dir, "files.csv", CSVIN_FILES, 1, &frd);
		runfile_dir_free(&dir);
		if (r < 0)
			return -1;
		/* of another program: it shares fewer than half of the files
		 * the two runs name together */
		size_t all = fx.named + s->nfiles - fx.shared;
		d->foreign = !fx.first && fx.named > 0 && 2 * fx.shared < all;
	}
	return 0;
}
