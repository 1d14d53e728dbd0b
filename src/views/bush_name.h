/* bush_name.h — "bush-ROOT" or "bush-ROOT.K" (K-th bush of the generation
 * whose root has that number), the stem every bush view shares. */
#ifndef DUMPANALYZE_BUSH_NAME_H
#define DUMPANALYZE_BUSH_NAME_H

#include <stdio.h>
#include "dumpanalyze/model.h"

static inline void bush_file_suffix(char *buf, size_t n, const struct bush *b,
                                    const char *ext)
{
	if (b->dup > 1)
		snprintf(buf, n, "bush-%u.%u.%s", b->root->id, b->dup, ext);
	else
		snprintf(buf, n, "bush-%u.%s", b->root->id, ext);
}

#endif
