-- Penlight calls that make LuaJIT 2.1 abort trace recording for several
-- reasons (NYI bytecodes FNEW/UCLO/VARG, inner loop, leaving loop, ...).
local tablex = require("pl.tablex")
local stringx = require("pl.stringx")
local utils = require("pl.utils")

local total = 0
-- closures created inside a hot loop (FNEW, UCLO)
for i = 1, 200 do
  local sq = tablex.map(function(x) return x * i end, { 1, 2, 3, 4 })
  total = total + sq[4]
end
-- varargs (VARG) through pl.utils.pack / select
local function count(...) return select("#", ...) + utils.pack(...).n end
for i = 1, 200 do total = total + count(i, i + 1, i + 2) end
-- inner loops inside a hot outer loop
for i = 1, 200 do
  total = total + #stringx.split(("x"):rep(i % 9 + 1, ","), ",")
end
io.write(("aborts workload total=%d\n"):format(total))
