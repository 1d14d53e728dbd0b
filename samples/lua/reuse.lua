-- Trace numbers reused within one generation (no jit.flush()): each round
-- load()s a fresh chunk with a hot loop (it gets a trace), then drops it and
-- runs a full GC. Collecting the prototype frees its trace, so the next
-- round's trace gets the same number again.
local stringx = require("pl.stringx")

local total = 0
-- a long-lived trace first (its prototype stays reachable, number kept)
local function pad(n) return #stringx.rjust(tostring(n), 8, "0") end
for i = 1, 100 do total = total + pad(i) end

for round = 1, 6 do
  local src = stringx.join("\n", {
    "local s = 0",
    "for i = 1, 200 do s = s + i * " .. round .. " end",
    "return s",
  })
  local f = assert(load(src, "=round" .. round))
  total = total + f() + pad(round)
  f = nil -- luacheck: ignore (drop the only reference before the GC)
  collectgarbage("collect")
  collectgarbage("collect")
end
io.write(("reuse workload total=%d\n"):format(total))
