/* compare_runset.c — `--compare BASE NEW` when a side is a run set: both
 * sides read (a plain one-run directory as a set of one, with a warning),
 * diffed, rendered; the exit code from the rules crossed. */
#include <stdio.h>
#include "compare/compare_runset.h"
#include "output/message.h"

int compare_runsets(const char *old_dir, const char *new_dir, const char *fail_on,
                    const char *refused, FILE *out)
{
	int rules;
	if (crs_rules_parse(fail_on, &rules) < 0)
		return -1;
	if (refused) {
		msg_error("%s is not made for run sets yet: compare run-K directories for it", refused);
		return -1;
	}
	struct rs_set a, b;
	int ap = 0, bp = 0;
	int r = crs_read_side(&a, old_dir, &ap);
	if (r == 0 && (r = crs_read_side(&b, new_dir, &bp)) < 0)
		rs_free(&a);
	if (r < 0)
		return 2;
	struct crs_diff d;
	crs_diff(&d, &a, &b, rules);
	d.a_plain = ap;
	d.b_plain = bp;
	crs_render_text(&d, old_dir, new_dir, out);
	crs_warnings(&d, stderr, "dumpanalyze: warning: ");
	int status = d.fails ? 1 : 0;
	crs_diff_free(&d);
	rs_free(&a);
	rs_free(&b);
	return status;
}
