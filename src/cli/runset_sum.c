/* runset_sum.c — the files at the top of a run set's directory: the
 * findings matched across runs, their presence and cost over the runs. */
#include "cli/cli.h"
#include "cli/merge.h"
#include "cli/runset.h"

int runset_aggregate(struct run *run, struct outdir *out, const char *top,
                     const char *top_shown, const char *const *names, const int *status,
                     int *rc)
{
	(void)rc;
	return merge_summaries(out, top, top_shown, (const char *const *)run->dumps, names, status,
	                       run->ndumps);
}
