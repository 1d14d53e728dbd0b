/* findings_out.c — a run's findings on standard output, for the tools
 * that read a compiler's output: --format=gcc (the lines of problems.txt,
 * instead of the summary) and --annotate github (GitHub Actions' workflow
 * commands).  The views render them; this picks which, for the run. */
#include <stdio.h>
#include "cli/cli.h"
#include "dumpanalyze.h"
#include "output/message.h"
#include "views/findings_views.h"
#include "lib/api.h"
#include "views/where.h"

int run_print_findings(const struct run *run, const da_dump *d)
{
	if (!run->format_gcc && !run->annotate_github)
		return 0;
	struct where_map m;
	where_init(&m, api_source_finder(d), run->source_roots, run->nsource_roots);
	int r = 0;
	if (run->format_gcc)
		r = problems_write(stdout, d, &m);
	if (r == 0 && run->annotate_github)
		r = annotate_run(stdout, d, &m);
	where_free(&m);
	if (fflush(stdout) != 0 || r < 0) {
		msg_error("cannot write the findings to standard output");
		return -1;
	}
	return 0;
}
