/* files.c — files.csv: traces, aborts and samples summed per file and per
 * chunk family (source/family.h: "tpl-1" ... "tpl-20000" are one row,
 * "tpl-*"), so that a template engine's thousands of chunks are one row;
 * ranked like the source view's files. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "views/source.h"
#include "output/outdir.h"
#include "output/csvout.h"
#include "util/intern.h"
#include "source/family.h"

struct roll {
	char *name;
	size_t len;
	enum chunk_kind kind;
	uint64_t chunks, traces, aborts, attempts, blacklisted, samples, interpreted, callee;
	size_t first;               /* rank of its first file, for ties */
};

static int by_name(const void *x, const void *y)
{
	const struct roll *a = x, *b = y;
	int k = memcmp(a->name, b->name, a->len < b->len ? a->len : b->len);
	if (!k)
		k = (a->len > b->len) - (a->len < b->len);
	return k ? k : (a->first > b->first) - (a->first < b->first);
}

static int by_rank(const void *x, const void *y)
{
	const struct roll *a = x, *b = y;
	if (a->aborts != b->aborts)
		return a->aborts > b->aborts ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	if (a->traces != b->traces)
		return a->traces > b->traces ? -1 : 1;
	return by_name(a, b);
}

/* Rows of the roll-up, ranked (caller frees each name and the array). */
static struct roll *roll_up(const struct src_model *m, size_t *count)
{
	struct roll *v = xrealloc(NULL, (m->nfiles ? m->nfiles : 1) * sizeof(*v));
	for (size_t i = 0; i < m->nfiles; i++) {
		const struct src_file *f = m->ranked[i];
		size_t n = intern_len(f->name);
		char *buf = xrealloc(NULL, n + 2);
		size_t fl = chunk_family(f->name, n, buf, n + 1);
		if (!fl) {
			memcpy(buf, f->name, n);
			fl = n;
		}
		v[i] = (struct roll){ buf, fl, f->kind, 1, f->traces, f->aborts, f->attempts,
		                      f->blacklisted, f->samples, f->interpreted, f->callee_samples, i };
	}
	qsort(v, m->nfiles, sizeof(*v), by_name);
	size_t u = 0;
	for (size_t i = 0; i < m->nfiles; i++) {
		struct roll *r = &v[i];
		if (u && v[u - 1].len == r->len && memcmp(v[u - 1].name, r->name, r->len) == 0) {
			struct roll *t = &v[u - 1];
			t->chunks++;
			t->traces += r->traces;
			t->aborts += r->aborts;
			t->attempts += r->attempts;
			t->blacklisted += r->blacklisted;
			t->samples += r->samples;
			t->interpreted += r->interpreted;
			t->callee += r->callee;
			free(r->name);
			continue;
		}
		v[u++] = *r;
	}
	/* A family of one chunk goes by the chunk's name. */
	for (size_t i = 0; i < u; i++)
		if (v[i].chunks == 1) {
			const char *name = m->ranked[v[i].first]->name;
			size_t n = intern_len(name);
			free(v[i].name);
			v[i].name = xrealloc(NULL, n + 1);
			memcpy(v[i].name, name, n);
			v[i].len = n;
		}
	qsort(v, u, sizeof(*v), by_rank);
	*count = u;
	return v;
}

static int files_finish(struct view_ctx *c)
{
	struct source_state *s = c->state;
	int r = 0;
	if (c->out && s->inited && s->gens) {
		source_prepare(c, s);
		size_t n;
		struct roll *v = roll_up(&s->model, &n);
		struct outfile *f = outfile_create(c->out, "files.csv");
		FILE *fp = f ? outfile_fp(f) : NULL;
		if (!fp)
			r = -1;
		else {
			fputs("NAME,KIND,CHUNKS,TRACES,ABORTS,ATTEMPTS,BLACKLISTED,SAMPLES,INTERPRETED,"
			      "CALLEE_SAMPLES\r\n", fp);
			for (size_t i = 0; i < n; i++) {
				struct csv_row row;
				csv_row_begin(&row, fp);
				csv_field(&row, v[i].name, v[i].len);
				csv_field_str(&row, v[i].chunks > 1 ? "family" : chunk_kind_names[v[i].kind]);
				csv_field_u64(&row, v[i].chunks);
				csv_field_u64(&row, v[i].traces);
				csv_field_u64(&row, v[i].aborts);
				csv_field_u64(&row, v[i].attempts);
				csv_field_u64(&row, v[i].blacklisted);
				if (c->profile) {
					csv_field_u64(&row, v[i].samples);
					csv_field_u64(&row, v[i].interpreted);
					csv_field_u64(&row, v[i].callee);
				} else {
					csv_field(&row, "", 0);
					csv_field(&row, "", 0);
					csv_field(&row, "", 0);
				}
				csv_row_end(&row);
			}
			r = outfile_commit(f);
		}
		for (size_t i = 0; i < n; i++)
			free(v[i].name);
		free(v);
	}
	answers_free(&s->answers);
	return r;
}

const struct view view_files = {
	.name = "files",
	.summary = "traces, aborts and samples per file and chunk family",
	.files = "files.csv",
	.readme = "`NAME,KIND,CHUNKS,TRACES,ABORTS,ATTEMPTS,BLACKLISTED,SAMPLES,INTERPRETED,CALLEE_SAMPLES` per file and per chunk family (`tpl-1` \u2026 `tpl-20000` are one row `tpl-*`), most aborts first",
	.man =
		".B files.csv\n"
		"with the header\n"
		".ad l\n"
		".B \\%NAME,\\:KIND,\\:CHUNKS,\\:TRACES,\\:ABORTS,\\:ATTEMPTS,\\:BLACKLISTED,\\:SAMPLES,\\:INTERPRETED,\\:CALLEE_SAMPLES :\n"
		".ad\n"
		"the run summed per file and per chunk family: compiled traces that start\n"
		"there, aborts located there, aborted attempts that started there, root\n"
		"starts LuaJIT likely gave up on, and with\n"
		".B \\-\\-profile\n"
		"samples, interpreted samples, and interpreted samples of callees that\n"
		"failed to compile (see\n"
		".BR source ).\n"
		"A family: chunks whose names differ only in a counter at their end\n"
		"(\\(lqtpl\\-1\\(rq ... \\(lqtpl\\-20000\\(rq from\n"
		".BR loadstring ,\n"
		"as lua\\-resty\\-template names them) are one row named with\n"
		".B *\n"
		"for the counter\n"
		".RB ( tpl\\-* ,\n"
		"KIND\n"
		".BR family ,\n"
		"CHUNKS how many); the rule: the name's last run of digits, when it ends\n"
		"the name (or a quoted name before its closing quote) and follows\n"
		"something that is no digit.\n"
		"KIND is otherwise\n"
		".B file\n"
		"(a name with source lines),\n"
		".B string chunk\n"
		"(a quoted name: load() of a string) or\n"
		".B builtin\n"
		"(no line).\n"
		"Rows by aborts, then samples, then traces.\n",
	.is_default = 1,
	.state_size = sizeof(struct source_state),
	.gen_begin = source_view_gen_begin,
	.trace = source_view_trace,
	.abort = source_view_abort,
	.gen_end = source_view_gen_end,
	.finish = files_finish,
	.release = source_view_release,
};
