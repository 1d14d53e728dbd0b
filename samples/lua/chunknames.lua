-- Hot loops in chunks loaded with load(string, chunkname) so trace LOCs carry
-- unusual chunk names. LuaJIT formats a location as:
--   "@path"  -> basename:line        "=name" -> name:line (verbatim)
--   other    -> "name":line (quoted)  longer than 40 chars -> 0xADDR:line
-- and load(src) without a name uses the source text itself as the name,
-- so multi-line sources give LOCs spanning several physical lines.
local pretty = require("pl.pretty")

local function run(src, name)
  local f = assert(load(src, name))
  return f()
end

local loop = "local s=0\nfor i=1,99 do s=s+i end\nreturn s"
local results = {
  run(loop, "t:1:2 x"),                     -- "t:1:2 x":2
  run(loop, "=bare name"),                  -- bare name:2
  run(loop, 'say "hi": ok'),                -- "say "hi": ok":2
  run(loop, "@/tmp/some dir/file:with:colons.lua"), -- file:with:colons.lua:2
  run(loop, ("x"):rep(41)),                 -- too long: 0x...:2
  run(loop, "=bytes \255\254 nul\0 end"),    -- invalid UTF-8 and a NUL, raw
  run("s=0\nfor i=1,99 do s=s+i end\nreturn s"),   -- unnamed, 3 physical lines
  -- abort (NYI: FNEW) inside unnamed multi-line chunks
  run("for i=1,99 do\nlocal f=function()end end"),
}
-- an abort inside a chunk whose "=" name itself contains " -- "
results[#results + 1] = run("local n=0\nfor i=1,99 do local f=function()end n=n+1 end\nreturn n",
  "=evil -- name")
io.write(pretty.write(results, ""), "\n")
