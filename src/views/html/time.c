/* time.c — profile-time.js for the report's generation pages, with a
 * sysprof profile: the samples charged to each trace (by stop order in
 * its generation) and bush (by label), as DA_TIME.  The pages are written
 * at each generation's end, before the profile is matched to the whole
 * dump, so they load this at view time (as they load source-links.js). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "outdir/outdir.h"
#include "profile/sysprof.h"
#include "views/html/html.h"

int html_time_write(struct view_ctx *c)
{
	const struct sysprof_join *j = c->join;
	struct outfile *f = outfile_create(c->out, HTML_TIME_FILE);
	FILE *fp = f ? outfile_fp(f) : NULL;
	if (!fp)
		return -1;
	fputs("/* dumpanalyze: samples per trace and bush of the sysprof profile */\n"
	      "var DA_TIME = {\"profile\":", fp);
	html_put_json(fp, c->sysprof->path, strlen(c->sysprof->path));
	fprintf(fp, ",\"samples\":%" PRIu64 ",\"gens\":{", c->sysprof->samples);
	/* "G": {"t": [samples of the generation's traces in stop order],
	 *       "b": {"LABEL": samples}} */
	size_t t = 0, b = 0;
	int first_gen = 1;
	while (t < j->ntraces || b < j->nbushes) {
		uint32_t gen = t < j->ntraces ? j->traces[t].gen : j->bushes[b].gen;
		if (b < j->nbushes && j->bushes[b].gen < gen)
			gen = j->bushes[b].gen;
		fprintf(fp, "%s\n\"%u\":{\"t\":[", first_gen ? "" : ",", gen);
		first_gen = 0;
		for (int k = 0; t < j->ntraces && j->traces[t].gen == gen; t++, k++)
			fprintf(fp, "%s%" PRIu64, k ? "," : "", j->traces[t].samples);
		fputs("],\"b\":{", fp);
		for (int k = 0; b < j->nbushes && j->bushes[b].gen == gen; b++) {
			const struct sj_bush *x = &j->bushes[b];
			if (!x->samples)
				continue;
			if (x->dup > 1)
				fprintf(fp, "%s\"%u.%u\":%" PRIu64, k++ ? "," : "", x->root, x->dup, x->samples);
			else
				fprintf(fp, "%s\"%u\":%" PRIu64, k++ ? "," : "", x->root, x->samples);
		}
		fputs("}}", fp);
	}
	fputs("}};\n", fp);
	return outfile_commit(f);
}
