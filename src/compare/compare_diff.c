/* compare_diff.c — one dump's comparison diffed before a word of it is
 * said: abort reasons and sites (compare_counts.c), findings
 * (compare_findings.c), bushes, the profile and sysprof's time
 * (compare_parts.c) into one struct dump_diff, with what the rules count
 * as new; compare.c renders it (text, JSON, FAIL lines, annotations). */
#include <string.h>
#include "compare/compare_impl.h"

void dump_diff(struct dump_diff *dd, struct side *a, struct side *b)
{
	memset(dd, 0, sizeof(*dd));
	dd->reasons = a->has_reasons && b->has_reasons;
	dd->sites = a->has_sites && b->has_sites;
	dd->findings = a->has_findings && b->has_findings;
	if (dd->reasons)
		reasons_diff(&dd->reason_list, a, b, &dd->fd.reasons);
	if (dd->sites)
		sites_diff(&dd->site_list, a, b);
	if (dd->findings)
		findings_diff(&dd->finding_list, a, b, &dd->fd.sites);
	dd->bushes = a->has_bushes && b->has_bushes;
	dd->profiles = a->has_profile && b->has_profile;
	dd->times = a->has_time && b->has_time;
	if (dd->bushes)
		bushes_diff(&dd->bush_list, a, b);
	if (dd->profiles)
		profile_diff(&dd->profile, a, b, dd->findings);
	if (dd->times)
		time_diff(&dd->time, a, b);
}

void dump_diff_free(struct dump_diff *dd)
{
	counts_diff_free(&dd->reason_list);
	counts_diff_free(&dd->site_list);
	findings_diff_free(&dd->finding_list);
	bushes_diff_free(&dd->bush_list);
	profile_diff_free(&dd->profile);
	time_diff_free(&dd->time);
	fresh_free(&dd->fd.reasons);
	fresh_free(&dd->fd.sites);
}
