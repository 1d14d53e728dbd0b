-- app.lua — the walk-through's program (README): prices a list of
-- orders the way people write it, with the three habits that keep
-- LuaJIT's JIT from compiling a loop: a closure made on every
-- iteration, a closure factory called in the loop, and gsub with a
-- function.  app-fixed.lua is the same program without them.
local N = tonumber(arg and arg[1]) or 5000000

-- A closure factory: each call makes a new function.
local function make_discount(rate)
  return function(price) return price - price * rate end
end

-- gsub with a function: the callback runs from C, outside any trace.
local function render(template, vars)
  return (template:gsub("%$(%w+)", function(key) return tostring(vars[key]) end))
end

local total, length = 0, 0
for i = 1, N do
  local price = i % 100 + 1
  -- a closure made on every iteration
  local tax = function(p) return p * 1.2 end
  local discount = make_discount((i % 4) / 10)
  total = total + tax(discount(price))
  if i % 50 == 0 then
    length = length + #render("order $id: $price", { id = i, price = price })
  end
end
print(string.format("%d orders, total %.2f, %d bytes of receipts", N, total, length))
