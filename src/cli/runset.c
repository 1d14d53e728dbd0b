/* runset.c — a run set's analysis: its runs checked, each dump into
 * OUT/run-K (many.c's workers), then the set's files (runset_sum.c). */
#include "cli/cli.h"
#include "cli/runset.h"

int run_runset(struct run *run)
{
	return run_many(run);
}
