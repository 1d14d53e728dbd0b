-- blocks-oracle.lua FILE — LuaJIT's own parser's view of FILE's blocks,
-- for test_blocks.c: "function FIRST LAST" for every function (the
-- prototype's linedefined and lastlinedefined) and "loop LINE" for every
-- loop instruction (FORL and ITERL carry their for's line, LOOP the line
-- of while's "do" or of "repeat").  The file is compiled, never run.
local util = require("jit.util")
local vmdef = require("jit.vmdef")
local f = assert(loadfile(arg[1]))
local out = {}
local function walk(fn)
  local fi = util.funcinfo(fn)
  if fi.linedefined > 0 then
    out[#out + 1] = ("function %d %d"):format(fi.linedefined, fi.lastlinedefined)
  end
  for pc = 1, 1e9 do
    local ins = util.funcbc(fn, pc)
    if not ins then break end
    local op = vmdef.bcnames:sub((ins % 256) * 6 + 1, (ins % 256) * 6 + 6)
    if op == "FORL  " or op == "ITERL " or op == "LOOP  " then
      out[#out + 1] = ("loop %d"):format(util.funcinfo(fn, pc).currentline)
    end
  end
  for n = -1, -1e9, -1 do
    local k = util.funck(fn, n)
    if not k then break end
    if type(k) == "proto" then walk(k) end
  end
end
walk(f)
table.sort(out)
for _, l in ipairs(out) do print(l) end
