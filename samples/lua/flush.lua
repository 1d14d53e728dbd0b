-- Trace generations separated by jit.flush(): one flush mid-run, then two
-- back to back (the second one flushes an empty trace cache).
local stringx = require("pl.stringx")
local tablex = require("pl.tablex")

local function work(n)
  local acc = 0
  for i = 1, n do
    local parts = stringx.split("a,b,c," .. (i % 10), ",")
    acc = acc + #parts[4]
  end
  local t = tablex.range(1, n)
  return acc + tablex.reduce("+", t)
end

local total = work(300)   -- generation 1
jit.flush()
total = total + work(300) -- generation 2
jit.flush()
jit.flush()               -- generation 3: empty
total = total + work(300) -- generation 4
io.write(("flush workload total=%d\n"):format(total))
