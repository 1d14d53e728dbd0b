/* baseline_api.c — the public baseline calls (dumpanalyze.h): a file of
 * accepted findings read before the first step (findings/baseline.c),
 * matched when the findings are built, and its stale entries after. */
#include <errno.h>
#include <stdlib.h>
#include "dumpanalyze.h"
#include "findings/baseline.h"
#include "findings/findings.h"
#include "lib/api.h"
#include "util/alloc.h"

struct loading {
	da_dump *d;
	const char *path;
	int r;
};

static void load(void *arg)
{
	struct loading *ld = arg;
	struct baseline *b = xrealloc(NULL, sizeof(*b));
	struct baseline_error e;
	int r = baseline_read(b, ld->path, &e);
	if (r < 0) {
		int err = errno;
		api_error(ld->d, ld->path, e.line, e.msg);
		baseline_free(b);
		free(b);
		errno = err;
		ld->r = r == -1 ? DA_EFORMAT : err == EIO ? DA_EIO : DA_EOPEN;
		return;
	}
	api_findings(ld->d)->baseline = b;
	ld->r = 0;
}

int da_use_baseline(da_dump *d, const char *path)
{
	struct findings *f = api_findings(d);
	if (!f || !path || !api_may_add(d) || f->baseline)
		return DA_EINVAL;
	struct loading ld = { d, path, 0 };
	if (oom_call(load, &ld) < 0)
		return api_out_of_memory(d);
	return ld.r;
}

size_t da_baseline_stale(const da_dump *d)
{
	const struct findings *f = api_findings(d);
	return f && api_read_done(d) ? f->nstale : 0;
}

const struct da_baseline_entry *da_baseline_stale_entry(const da_dump *d, size_t i)
{
	return i < da_baseline_stale(d) ? api_findings(d)->stale[i] : NULL;
}
