-- Chunks named as the files a checkout keeps its secrets in: the job
-- token's header in .git/config (actions/checkout), .env, an SSH key,
-- a hidden directory below the source, a link that leads into .git, and
-- an absolute path; and one ordinary file.  Each has a closure in a hot
-- loop on its line 2, so it aborts there (NYI: bytecode FNEW) and a
-- reader that opened the file would quote that line.  "=" names are
-- written in the dump as they are (LuaJIT shows an "@" name's base name
-- only), as a program's own loader may name its chunks.
local body = "local n=0\nfor i=1,200 do local g=function() end n=n+1 end return n"
local names = {
  "=.git/config", "=.env", "=.ssh/id_rsa", "=src/.hidden/app.lua", "=cfg/config",
  "=/etc/passwd", "=src/app.lua",
}
local out = {}
for _, name in ipairs(names) do
  out[#out + 1] = assert(load(body, name))()
end
io.write(table.concat(out, " "), "\n")
