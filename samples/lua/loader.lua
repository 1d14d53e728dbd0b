-- A loader that names the chunks it loads itself, as template engines and
-- module loaders do (load(src, "=views/cart.lua")): LuaJIT writes such a
-- name as given in -jdump, where a file's "@path" shows only its base
-- name, so these chunk names hold a '/'.  The main loop calls into both
-- chunks; each makes a closure per iteration (NYI: bytecode 51, FNEW) and
-- aborts, and so does the loop itself.  For fuzz_combined's seeds.
local sources = {
  ["views/cart.lua"] = [[
local M = {}
function M.total(items)
  local s = 0
  for i = 1, #items do
    local price = function() return items[i] * 2 end
    s = s + price()
  end
  return s
end
return M
]],
  ["lib/fmt.lua"] = [[
return function(n)
  local parts = {}
  for i = 1, 3 do
    parts[i] = (function() return n + i end)()
  end
  return parts[1] + parts[2] + parts[3]
end
]],
}

local function load_named(name)
  return assert(load(sources[name], "=" .. name))()
end

local cart = load_named("views/cart.lua")
local fmt = load_named("lib/fmt.lua")
local items = {}
for i = 1, 40 do items[i] = i end
local sum = 0
for round = 1, 300 do
  sum = sum + cart.total(items)
  sum = sum + fmt(round)
  local tag = function() return round end
  sum = sum + tag()
end
print(sum)
