/* record_env.c — how record reaches a LuaJIT it does not start itself:
 * LUA_INIT, which luajit.c runs before the script, names a small Lua file
 * that switches on the recipe's dump or profiler into a file named after
 * the process (DUMPANALYZE_RECORD_DUMP or _PROF, plus ".PID": a wrapper
 * may start several LuaJITs), then runs the LUA_INIT the user had
 * (DUMPANALYZE_RECORD_LUA_INIT), so both work. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/record.h"
#include "luajit/recipe.h"
#include "util/alloc.h"

/* Only in a LuaJIT (PUC Lua reads LUA_INIT too, and has no jit).  The
 * PID through the FFI (getpid is POSIX), else /proc/self/stat.  The
 * profiler writes its file when stopped, which os.exit skips (no GC at
 * exit): os.exit stops it first. */
static const char init_chunk[] =
	"-- dumpanalyze record: " RECIPE_JDUMP " or " RECIPE_JP " in every LuaJIT of the run\n"
	"local getenv = os.getenv\n"
	"local dump, prof = getenv(\"DUMPANALYZE_RECORD_DUMP\"), getenv(\"DUMPANALYZE_RECORD_PROF\")\n"
	"if type(jit) == \"table\" and (dump or prof) then\n"
	"  local pid\n"
	"  local okffi, ffi = pcall(require, \"ffi\")\n"
	"  if okffi then\n"
	"    pcall(ffi.cdef, \"int getpid(void);\")\n"
	"    local ok, p = pcall(function() return ffi.C.getpid() end)\n"
	"    if ok then pid = tonumber(p) end\n"
	"  end\n"
	"  if not pid then\n"
	"    local f = io.open(\"/proc/self/stat\")\n"
	"    if f then pid = f:read(\"*n\"); f:close() end\n"
	"  end\n"
	"  pid = pid or 0\n"
	"  if dump then\n"
	"    require(\"jit.dump\").on(\"" RECIPE_DUMP_FLAGS "\", dump .. \".\" .. pid)\n"
	"  else\n"
	"    local p = require(\"jit.p\")\n"
	"    p.start(\"" RECIPE_PROF_MODE "\", prof .. \".\" .. pid)\n"
	"    local exit = os.exit\n"
	"    os.exit = function(...) p.stop(); return exit(...) end\n"
	"  end\n"
	"end\n"
	"local init = getenv(\"DUMPANALYZE_RECORD_LUA_INIT\")\n"
	"if init and init ~= \"\" then\n"
	"  if init:sub(1, 1) == \"@\" then dofile(init:sub(2))\n"
	"  else assert(loadstring(init, \"=LUA_INIT\"))() end\n"
	"end\n";

int record_write_init(const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	size_t n = sizeof(init_chunk) - 1;
	int ok = fwrite(init_chunk, 1, n, f) == n;
	return fclose(f) == 0 && ok ? 0 : -1;
}

static int drops(const char *entry)
{
	static const char *const ours[] = { "LUA_INIT=", "DUMPANALYZE_RECORD_DUMP=",
	                                    "DUMPANALYZE_RECORD_PROF=",
	                                    "DUMPANALYZE_RECORD_LUA_INIT=",
	                                    "DUMPANALYZE_RECORD_KIND=" };
	for (size_t i = 0; i < sizeof(ours) / sizeof(ours[0]); i++)
		if (strncmp(entry, ours[i], strlen(ours[i])) == 0)
			return 1;
	return 0;
}

static char *joined(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 1;
	char *s = xrealloc(NULL, n);
	snprintf(s, n, "%s%s", a, b);
	return s;
}

char **record_environment(char *const *base, const char *init_path, int profile,
                          const char *prefix)
{
	size_t n = 0;
	while (base[n])
		n++;
	char **env = xrealloc(NULL, (n + 6) * sizeof(*env));
	size_t k = 0;
	const char *user_init = getenv("LUA_INIT");
	for (size_t i = 0; i < n; i++)
		if (!drops(base[i]))
			env[k++] = joined(base[i], "");
	char *at = joined("@", init_path);
	env[k++] = joined("LUA_INIT=", at);
	free(at);
	env[k++] = joined(profile ? "DUMPANALYZE_RECORD_PROF=" : "DUMPANALYZE_RECORD_DUMP=", prefix);
	/* for the workload: which kind of run this is (a profile wants a
	 * longer run than a dump, whose exits grow with every round) */
	env[k++] = joined("DUMPANALYZE_RECORD_KIND=", profile ? "profile" : "dump");
	if (user_init)
		env[k++] = joined("DUMPANALYZE_RECORD_LUA_INIT=", user_init);
	env[k] = NULL;
	return env;
}

void record_environment_free(char **env)
{
	for (size_t i = 0; env && env[i]; i++)
		free(env[i]);
	free(env);
}
