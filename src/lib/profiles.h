/* profiles.h — the profiles of a dump handle (da_use_profile): a -jp one
 * and a sysprof one at most.  Of the two, the -jp profile charges the
 * findings (it knows lines; sysprof knows functions), the sysprof one
 * when alone (basis "function"). */
#ifndef DUMPANALYZE_LIB_PROFILES_H
#define DUMPANALYZE_LIB_PROFILES_H

#include "profile/profile.h"
#include "profile/sysprof.h"
#include "util/diag.h"

struct api_profiles {
	struct profile *jp;         /* or NULL */
	struct sysprof *sp;         /* or NULL */
};

/* Whether the file is a sysprof stream (by its first bytes, after
 * decompression): 1, 0 (and for "-"), or -errno. */
int api_profiles_is_sysprof(const char *path);
/* Read path as what its bytes say it is: 0, or DA_EINVAL (a second
 * profile of its kind), DA_EOPEN (errno), DA_EIO (unreadable, or a
 * sysprof stream malformed or cut short), DA_EFORMAT (not a format read),
 * DA_ENOMEM; every error but DA_EINVAL after diag said it.
 * Call under oom_call. */
int api_profiles_load(struct api_profiles *ps, const char *path, struct diag *diag);
void api_profiles_free(struct api_profiles *ps);

#endif
