-- abort_files.lua — abort_files.c from LuaJIT through its FFI: aborts
-- counted per source file, printed as "COUNT FILE", most first.
--   luajit abort_files.lua app.dump
-- The library is found as "dumpanalyze" (libdumpanalyze.so on the loader's
-- path) or at $DUMPANALYZE_LIB.
--
-- It asks for the whole-run answers (DA_ANSWERS, then da_abort_site) and
-- passes no callbacks: the library never calls into Lua, so nothing here
-- depends on LuaJIT's callback rules (no call from compiled code, a
-- limited number of callback slots, records valid only during the call).
local ffi = require("ffi")

-- The declarations are dumpanalyze.h's, comments left out (tests/api/
-- api.sh checks that each is the header's own).  struct da_options begins
-- with its size: a newer library takes the fields this one lacks as zero.
ffi.cdef[[
typedef struct da_dump da_dump;
struct da_sink;
enum da_error {
	DA_OK = 0,
	DA_EIO = -1,
	DA_ENOMEM = -2,
	DA_ESTRICT = -3,
	DA_ESTOPPED = -4,
	DA_EINVAL = -5,
	DA_EOPEN = -6,
	DA_EINTR = -7,
	DA_EFORMAT = -8
};
enum da_severity {
	DA_WARNING,
	DA_ERROR,
	DA_NOTE
};
typedef void (*da_diag_fn)(void *data, enum da_severity sev, const char *file,
                           uint64_t line, const char *msg);
enum da_flags {
	DA_KEEP_TEXT = 1 << 0,
	DA_STRICT = 1 << 1,
	DA_ANSWERS = 1 << 2,
	DA_NO_THREAD = 1 << 3,
	DA_NOTES = 1 << 4,
	DA_FINDINGS = 1 << 5,
	DA_CALLBACK_ONLY = 1 << 6
};
struct da_options {
	size_t size;
	unsigned flags;
	const char *name;
	const struct da_sink *sink;
	void *sink_data;
	da_diag_fn diag;
	void *diag_data;
	const char *vmdef_path;
};
struct da_site_count {
	const char *reason, *file;
	int32_t line;
	uint64_t count;
	const char *reason_normal;
	const char *error;
	uint32_t nbytecode;
	const char *const *bytecode;
	uint64_t first_line, last_line;
};
da_dump *da_open_path(const char *path, const struct da_options *opts, int *err);
int da_read(da_dump *d);
size_t da_abort_sites(const da_dump *d);
const struct da_site_count *da_abort_site(const da_dump *d, size_t i);
const char *da_strerror(int err);
const char *da_dump_error(const da_dump *d);
void da_close(da_dump *d);
char *strerror(int errnum);
]]

local path = arg[1]
if not path or arg[2] then
	io.stderr:write("usage: luajit abort_files.lua DUMP\n")
	os.exit(2)
end
local da = ffi.load(os.getenv("DUMPANALYZE_LIB") or "dumpanalyze")

local opts = ffi.new("struct da_options",
	{ size = ffi.sizeof("struct da_options"), flags = ffi.C.DA_ANSWERS })
local err = ffi.new("int[1]")
local d = da.da_open_path(path, opts, err)
if d == nil then
	local why = err[0] == ffi.C.DA_EOPEN and ffi.C.strerror(ffi.errno()) or da.da_strerror(err[0])
	io.stderr:write(path, ": ", ffi.string(why), "\n")
	os.exit(1)
end
d = ffi.gc(d, da.da_close)  -- closed however this ends

if da.da_read(d) ~= 0 then
	io.stderr:write(path, ": ", ffi.string(da.da_dump_error(d)), "\n")
	os.exit(1)
end

-- Sites are (reason, file, line): add them up by file.  A site is read
-- through its pointer, da_abort_site(d, i), never as an array (the struct
-- may grow); its strings belong to the handle, so they are copied out.
local count, files = {}, {}
for i = 0, tonumber(da.da_abort_sites(d)) - 1 do
	local s = da.da_abort_site(d, i)
	local file = ffi.string(s.file)
	if not count[file] then
		count[file] = 0
		files[#files + 1] = file
	end
	count[file] = count[file] + tonumber(s.count)
end

table.sort(files, function(a, b)
	if count[a] ~= count[b] then return count[a] > count[b] end
	return a < b
end)
for _, file in ipairs(files) do
	io.write(string.format("%d %s\n", count[file], file))
end
