-- Traces that start inside LuaJIT's bytecode built-ins: table.remove (and
-- table.foreach) are implemented in Lua bytecode in 2.1, so their inner
-- loops get hot and a root trace starts at "builtin:remove".
local List = require("pl.List")

local total = 0
for _ = 1, 20 do
  local q = List.range(1, 400)
  while q:len() > 0 do
    total = total + q:pop(1)   -- pl.List:pop -> table.remove(t, 1) shifts the rest
  end
end
local t = {}
for i = 1, 300 do t[i] = i end
for _ = 1, 3 do
  table.foreach(t, function(_, v) total = total + v end)
end
io.write(("builtin workload total=%d\n"):format(total))
