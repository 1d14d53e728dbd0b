/* files.c — files.csv: traces, aborts and samples summed per file and per
 * chunk family (source/family.h: "tpl-1" ... "tpl-20000" are one row,
 * "tpl-*"), so that a template engine's thousands of chunks are one row;
 * the source model's families (source/source_model.c), ranked as the source
 * view ranks them. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "views/source.h"
#include "outdir/outdir.h"
#include "output/csvout.h"
#include "util/intern.h"

/* The header line, from the table the comparison reads the file by. */
static const char files_header[] =
#include "views/columns/csv_header.h"
#include "views/columns/files_columns.def"
	"\r\n";

static int files_finish(struct view_ctx *c)
{
	struct source_state *s = c->state;
	int r = 0;
	if (c->out && s->inited && s->gens) {
		source_prepare(c, s);
		const struct src_model *m = &s->model;
		struct outfile *f = outfile_create(c->out, "files.csv");
		FILE *fp = f ? outfile_fp(f) : NULL;
		if (!fp)
			r = -1;
		else {
			fputs(files_header, fp);
			for (size_t i = 0; i < m->nfamilies; i++) {
				const struct src_family *fam = &m->families[i];
				const struct src_file *first = m->ranked[fam->first];
				struct csv_row row;
				csv_row_begin(&row, fp);
				/* a family of one goes by the chunk's own name */
				if (fam->members > 1)
					csv_field(&row, fam->name, fam->len);
				else
					csv_field(&row, first->name, intern_len(first->name));
				csv_field_str(&row, fam->members > 1 ? "family" : chunk_kind_names[first->kind]);
				csv_field_u64(&row, fam->members);
				csv_field_u64(&row, fam->traces);
				csv_field_u64(&row, fam->aborts);
				csv_field_u64(&row, fam->attempts);
				csv_field_u64(&row, fam->blacklisted);
				if (c->profile) {
					csv_field_u64(&row, fam->samples);
					csv_field_u64(&row, fam->interpreted);
					csv_field_u64(&row, fam->callee_samples);
				} else {
					csv_field(&row, "", 0);
					csv_field(&row, "", 0);
					csv_field(&row, "", 0);
				}
				csv_row_end(&row);
			}
			r = outfile_commit(f);
		}
	}
	return r;
}

const struct view view_files = {
	.name = "files",
	.files = "files.csv",
	.needs = NEEDS_FINDINGS,
	.is_default = 1,
	.state_size = sizeof(struct source_state),
	.gen_begin = source_view_gen_begin,
	.trace = source_view_trace,
	.abort = source_view_abort,
	.gen_end = source_view_gen_end,
	.finish = files_finish,
	.release = source_view_release,
};
