/* runset_sum.c — after a run set's runs: their findings read back and
 * matched by identity, the profiles charged, the set checked (runs that
 * failed or are of another program stop it: never averaged in), then the
 * set's files at the top of OUT. */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "compare/runfile.h"
#include "cli/runset.h"
#include "cli/runset_impl.h"
#include "output/message.h"
#include "util/alloc.h"

/* What stops the set: 0, or -1 after a message. */
static int refuse(const struct rs_set *s)
{
	for (size_t k = 0; k < s->ndumps; k++) {
		const struct rs_dump *d = &s->dumps[k];
		if (d->status != EXIT_OK && d->status != EXIT_REJECTED) {
			msg_error("run %zu (%s) could not be analysed: the run set is not analysed "
			          "without it (fix or drop that run)", k + 1, d->path);
			return -1;
		}
		if (d->foreign) {
			msg_error("run %zu (%s) shares fewer than half of its source files with run 1: "
			          "not a run of the same workload (a run set is N runs of one program)", k + 1, d->path);
			return -1;
		}
	}
	for (size_t k = 0; k < s->nprofiles; k++)
		if (s->profiles[k].foreign) {
			msg_error("profile %zu (%s) has most of its samples outside the dumps' source "
			          "files: a profile of another program?", k + 1, s->profiles[k].path);
			return -1;
		}
	if (rs_usable_runs(s) == 0) {
		msg_error("no run of the set can be used (every dump cut short)");
		return -1;
	}
	return 0;
}

int runset_aggregate(struct run *run, struct outdir *out, const char *top,
                     const char *top_shown, const char *const *names, const int *status,
                     int *rc)
{
	struct rs_set s;
	memset(&s, 0, sizeof(s));
	s.ndumps = run->ndumps;
	s.dumps = xrealloc(NULL, s.ndumps * sizeof(*s.dumps));
	memset(s.dumps, 0, s.ndumps * sizeof(*s.dumps));
	for (size_t k = 0; k < s.ndumps; k++) {
		s.dumps[k].path = rs_strdup(run->dumps[k]);
		s.dumps[k].dir = rs_strdup(names[k]);
		s.dumps[k].status = status[k];
	}
	s.nprofiles = run->nprofiles;
	s.profiles = xrealloc(NULL, (s.nprofiles + 1) * sizeof(*s.profiles));
	memset(s.profiles, 0, (s.nprofiles + 1) * sizeof(*s.profiles));
	for (size_t k = 0; k < s.nprofiles; k++)
		s.profiles[k].path = rs_strdup(run->profiles[k]);
	struct runfile_dir topd;
	int r = runfile_dir_open_as(&topd, top, top_shown);
	if (r == 0) {
		r = rs_read_runs(&s, &topd);
		runfile_dir_free(&topd);
	}
	if (r == 0)
		r = refuse(&s);
	if (r == 0)
		r = rs_charge_profiles(&s);
	if (r == 0)
		r = refuse(&s);
	if (r == 0) {
		rs_rank(&s);
		r = rs_write(&s, out);
	}
	if (r == 0)
		rs_warnings(&s, stderr, "dumpanalyze: warning: ");
	if (r != 0 && *rc == EXIT_OK)
		*rc = EXIT_IO;
	rs_free(&s);
	return r == 0 ? 0 : -1;
}
