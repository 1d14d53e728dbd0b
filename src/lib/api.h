/* api.h — what the public API's files share inside the library. */
#ifndef DUMPANALYZE_API_H
#define DUMPANALYZE_API_H

#include "dumpanalyze.h"
#include "analysis/answers.h"

/* The handle's answers, NULL without DA_ANSWERS (or DA_FINDINGS). */
const struct answers *api_answers(const da_dump *d);
/* The profile da_use_profile read, or NULL: the tool's views use it. */
struct profile;
const struct profile *api_profile(const da_dump *d);

#endif
