/* compare_fresh.c — what is new on NEW for a --fail-on rule (struct
 * fresh): counted or usually harmless, with the names a FAIL line gives;
 * and a reason's severity from the catalogue, which decides which. */
#include <stdlib.h>
#include <string.h>
#include "compare/compare_impl.h"
#include "findings/findings.h"
#include "util/alloc.h"

int cmp_reason_level(const char *reason)
{
	return (int)findings_reason_rule(reason)->severity;
}

static void append(char **s, size_t *len, const char *name)
{
	size_t n = strlen(name);
	/* one name from the next: a byte no name holds */
	*s = xrealloc(*s, *len + n + 2);
	if (*len)
		(*s)[(*len)++] = '\x1f';
	memcpy(*s + *len, name, n + 1);
	*len += n;
}

void fresh_add(struct fresh *f, int harmless, const char *name)
{
	if (harmless) {
		f->harmless++;
		append(&f->harmless_names, &f->harmless_len, name);
	} else {
		f->counted++;
		append(&f->names, &f->names_len, name);
	}
}

void fresh_free(struct fresh *f)
{
	free(f->names);
	free(f->harmless_names);
	memset(f, 0, sizeof(*f));
}
