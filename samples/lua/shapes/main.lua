-- main.lua — drives the shapes of issue 36: a JSON encoder whose string
-- escaping makes a gsub callback in a helper (json.lua), and a closure
-- factory called in a loop (counter.lua).
--   luajit main.lua [ROUNDS]   (run from this directory)
local json = require("json")
local counter = require("counter")

local ROUNDS = tonumber(arg and arg[1]) or 200

local rows = {}
for i = 1, 30 do
  rows[i] = { id = i, name = "item\t" .. i, tags = { "a\n", "b" }, price = i * 0.25, ok = i % 2 == 0 }
end

local bytes = 0
for round = 1, ROUNDS do
  local names = {}
  for i = 1, #rows do
    names[i] = json.encode(rows[i].name)
  end
  bytes = bytes + #table.concat(names) + #json.encode(rows)
  bytes = bytes + counter.run(50)
end
io.write(("shapes: %d rounds, %d\n"):format(ROUNDS, bytes))
