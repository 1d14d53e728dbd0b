-- The profiled workload: penlight (lua-penlight) doing table and string
-- work for ROUNDS rounds (the first argument), with loops LuaJIT 2.1
-- cannot compile (pairs() in tablex, a closure per iteration here) next to
-- loops it compiles.  Run once under -jp for the profile and once under
-- -jdump for the dump: the same work twice, as -jp next to -jdump skews
-- the profile toward the JIT and C code.
local tablex = require("pl.tablex")
local stringx = require("pl.stringx")
local List = require("pl.List")

local rounds = tonumber(arg and arg[1]) or 20
local words = { "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta",
  "theta", "iota", "kappa", "lambda", "mu" }
local bag = {}
for i = 1, 300 do bag[words[i % #words + 1] .. i] = i end
local lines = {}
for i = 1, 200 do
  lines[i] = ("  %s , %d , %s  "):format(words[i % #words + 1], i, words[(i * 7) % #words + 1])
end

local total = 0
for _ = 1, rounds do
  -- pairs() over a hash table inside penlight: NYI in 2.1, so interpreted
  for _ = 1, 20 do
    total = total + #tablex.keys(bag) + tablex.size(bag)
  end
  -- a closure created in a hot loop: NYI (FNEW), blacklisted, interpreted
  local fs = {}
  for i = 1, 3000 do
    fs[i % 7 + 1] = function() return i end
    total = total + i % 3
  end
  -- string work that compiles
  for i = 1, #lines do
    local parts = stringx.split(stringx.strip(lines[i]), ",")
    total = total + #parts + #stringx.strip(parts[1])
  end
  -- a numeric loop that compiles
  local s = 0
  for i = 1, 200000 do s = s + i % 13 end
  total = total + s
  -- List methods
  local ls = List.range(1, 500):map(function(x) return x * 2 end)
  total = total + ls:len()
end
io.write(("costly: %d rounds, total %d\n"):format(rounds, total))
