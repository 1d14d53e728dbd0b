-- A loop LuaJIT cannot compile (closure creation, FNEW, is NYI in 2.1
-- beta3): each time it gets hot the recorder aborts, the start bytecode's
-- penalty doubles, and after about a dozen aborts the loop is
-- blacklisted; no further attempts appear in the dump.  A penlight call in
-- the loop keeps the work real.
local stringx = require("pl.stringx")

local function work(words)
  local n = 0
  for i = 1, #words do
    local f = function() return #words[i] end
    n = n + f() + #stringx.strip(words[i])
  end
  return n
end

local words = {}
for i = 1, 300 do words[i] = ("  w%d  "):format(i) end
local total = 0
for _ = 1, 2000 do total = total + work(words) end
io.write(("blacklist workload total=%d\n"):format(total))
