-- A dump switched on late, as an nginx worker does with jit.dump.on
-- after the master compiled its traces: the loop's trace is compiled
-- before the dump starts, and its exits are taken after.
local out = assert(arg[1], "usage: late.lua DUMPFILE")

local function work(n, odd)
  local s = 0
  for i = 1, n do
    if i % odd == 0 then s = s + i * 0.5 else s = s + i end
  end
  return s
end

-- Hot and compiled (the branch is never taken: i % 1e9 ~= 0).
local total = work(2000, 1e9)
require("jit.dump").on("+x", out)
-- The same trace again, now leaving through the branch's exit.
for _ = 1, 3 do total = total + work(300, 3) end
io.write(("late total=%g\n"):format(total))
