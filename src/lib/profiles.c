/* profiles.c — the profiles da_use_profile reads for a dump handle: at
 * most one LuaJIT -jp profile and one Tarantool sysprof profile, each
 * recognised by its bytes (standard input, "-", is read as -jp text: its
 * first bytes cannot be looked at and given back).  Their errors go to
 * the caller's diag, with the profile's line (-jp) or byte (sysprof). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/profiles.h"
#include "util/alloc.h"

static char *copy(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}

static void say(struct diag *diag, const char *path, uint64_t line, const char *msg)
{
	if (diag->fn)
		diag->fn(diag->fn_data, DA_ERROR, path, line, msg);
}

static int load_jp(struct api_profiles *ps, const char *given, struct diag *diag)
{
	struct profile *p = xrealloc(NULL, sizeof(*p));
	char *path = copy(given);
	profile_init(p, path);
	struct profile_error e;
	int r = profile_load(p, path, &e);
	if (r < 0) {
		int err = errno;
		say(diag, path, e.line, e.msg);
		profile_free(p);
		free(p);
		free(path);
		errno = err;
		return r == -1 ? DA_EFORMAT : err == EIO ? DA_EIO : DA_EOPEN;
	}
	ps->jp = p;
	return 0;
}

static int load_sysprof(struct api_profiles *ps, const char *given, struct diag *diag)
{
	struct sysprof *p = xrealloc(NULL, sizeof(*p));
	char *path = copy(given);
	sysprof_init(p, path);
	struct sysprof_error e;
	int r = sysprof_load(p, path, &e);
	if (r < 0) {
		int err = errno;
		char msg[sizeof(e.msg) + 64];
		snprintf(msg, sizeof(msg), "%s%s", r == SYSPROF_EBAD ? "not a sysprof profile "
		         "dumpanalyze can trust: " : "", e.msg);
		say(diag, path, 0, msg);
		sysprof_free(p);
		free(p);
		free(path);
		errno = err;
		/* an unknown version: not a format read; malformed or cut short:
		 * it cannot be read, as a damaged file cannot */
		return r == SYSPROF_EFORMAT ? DA_EFORMAT : r == SYSPROF_ENOMEM ? DA_ENOMEM
		       : r == SYSPROF_EBAD ? DA_EIO : err == ENOENT || err == EACCES ? DA_EOPEN : DA_EIO;
	}
	ps->sp = p;
	return 0;
}

int api_profiles_is_sysprof(const char *path)
{
	return strcmp(path, "-") == 0 ? 0 : sysprof_file_is(path);
}

int api_profiles_load(struct api_profiles *ps, const char *path, struct diag *diag)
{
	int is = api_profiles_is_sysprof(path);
	if (is < 0) {
		say(diag, path, 0, strerror(-is));
		errno = -is;
		return DA_EOPEN;
	}
	if (is ? ps->sp != NULL : ps->jp != NULL)
		return DA_EINVAL;
	return is ? load_sysprof(ps, path, diag) : load_jp(ps, path, diag);
}

void api_profiles_free(struct api_profiles *ps)
{
	if (ps->jp) {
		free((char *)ps->jp->path);
		profile_free(ps->jp);
		free(ps->jp);
	}
	if (ps->sp) {
		free((char *)ps->sp->path);
		sysprof_free(ps->sp);
		free(ps->sp);
	}
	memset(ps, 0, sizeof(*ps));
}
