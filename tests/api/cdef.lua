-- cdef.lua HEADER LUAFILE — the LuaJIT FFI declarations of LUAFILE's
-- ffi.cdef[[...]] against the header: each declaration of a da_/DA_ name
-- must be one of the header's, token for token (comments, DA_API and
-- layout aside); a bare "struct da_x;" must name a struct the header
-- declares.  Prints "N declarations as in the header" or what differs;
-- exit status 1 when something differs or nothing was checked.
local header_path, lua_path = arg[1], arg[2]

local function slurp(path)
	local f = assert(io.open(path, "rb"))
	local s = f:read("*a")
	f:close()
	return s
end

-- Declarations at brace depth 0, each up to its ";", normalised: no
-- comments or preprocessor lines, DA_API dropped, one space only
-- between two word characters.
local function declarations(text)
	text = text:gsub("/%*.-%*/", " "):gsub("//[^\n]*", " ")
	text = text:gsub("#ifdef __cplusplus.-#endif", "")     -- extern "C" { }
	text = text:gsub("\n#[^\n]*", "\n"):gsub("^#[^\n]*", "")
	text = text:gsub("\\\n", " ")
	text = text:gsub("%f[%w_]DA_API%f[^%w_]", " ")
	local out, depth, cur = {}, 0, {}
	for c in text:gmatch(".") do
		cur[#cur + 1] = c
		if c == "{" then depth = depth + 1
		elseif c == "}" then depth = depth - 1
		elseif c == ";" and depth == 0 then
			local d = table.concat(cur):gsub("%s+", " ")
			d = d:gsub(" ?([^%w_ ]) ?", "%1"):gsub("^ ", ""):gsub(" $", "")
			out[#out + 1] = d
			cur = {}
		end
	end
	return out
end

local header = {}
local structs = {}
for _, d in ipairs(declarations(slurp(header_path))) do
	header[d] = true
	local name = d:match("^struct (da_[%w_]+)")
	if name then structs[name] = true end
end

local cdef = slurp(lua_path):match("ffi%.cdef%[%[(.-)%]%]")
if not cdef then
	io.stderr:write(lua_path, ": no ffi.cdef[[...]]\n")
	os.exit(1)
end
local checked, bad = 0, 0
for _, d in ipairs(declarations(cdef)) do
	if d:find("%f[%w_][dD][aA]_") then
		local fwd = d:match("^struct (da_[%w_]+);$")
		if header[d] or (fwd and structs[fwd]) then
			checked = checked + 1
		else
			bad = bad + 1
			print("not in the header: " .. d)
		end
	end
end
print(checked .. " declarations as in the header")
os.exit((bad == 0 and checked > 0) and 0 or 1)
