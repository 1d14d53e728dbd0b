-- Penlight workload: string/table/List/pretty/utils over generated data.
-- Drives real pl.* modules (lua-penlight) hard enough that LuaJIT compiles
-- root traces, side traces, stitched traces and hits NYI aborts.
local stringx = require("pl.stringx")
local tablex = require("pl.tablex")
local List = require("pl.List")
local utils = require("pl.utils")

local words = { "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta",
  "theta", "iota", "kappa", "lambda", "mu" }

-- Build a corpus of CSV-ish lines.
local lines = {}
for i = 1, 400 do
  local a = words[i % #words + 1]
  local b = words[(i * 7) % #words + 1]
  lines[i] = ("  %s , %d , %s , %0.2f  "):format(a, i, b, i / 3)
end

local total, counts = 0, {}
for _ = 1, 6 do
  for i = 1, #lines do
    local l = stringx.strip(lines[i])
    local parts = stringx.split(l, ",")
    for j = 1, #parts do parts[j] = stringx.strip(parts[j]) end
    local key = parts[1]
    counts[key] = (counts[key] or 0) + 1
    total = total + tonumber(parts[2])
    if stringx.startswith(parts[3], "e") then
      total = total + #stringx.replace(parts[3], "a", "A")
    end
    if i % 3 == 0 then
      -- gsub with a function argument: not compiled, trace stitches here
      local up = parts[3]:gsub("%a", function(c) return c:upper() end)
      total = total + #up
    end
  end
end

-- tablex over numeric arrays
local nums = {}
for i = 1, 2000 do nums[i] = (i * 37) % 101 end
for _ = 1, 8 do
  local sq = tablex.map(function(x) return x * x end, nums)
  local s = tablex.reduce(function(a, b) return a + b end, sq)
  local f = tablex.filter(nums, function(x) return x % 2 == 0 end)
  total = total + s + #f
end

-- pl.List methods
for round = 1, 20 do
  local ls = List.range(1, 300)
  ls = ls:map(function(x) return x + round end)
  ls:filter(function(x) return x % 3 ~= 0 end)
  ls:reverse()
  local s = 0
  for x in ls:iter() do s = s + x end
  total = total + s + ls:len()
  local str = ls:slice(1, 20):join(",")
  total = total + #str
end

-- utils.memoize / varargs (NYI: VARG in 2.1 beta3)
local memo = utils.memoize(function(x) return x * 3 end)
for i = 1, 3000 do total = total + memo(i % 50) end
local function count(...) return select("#", ...) end
for i = 1, 500 do total = total + count(utils.unpack({ i, i + 1, i + 2 })) end

for k, v in tablex.sort(counts) do total = total + v + #k end
io.write(("penlight workload total=%d\n"):format(total))
