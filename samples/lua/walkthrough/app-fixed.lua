-- app-fixed.lua — app.lua after the walk-through's edits (README): the
-- tax and the discount are plain functions made once, and the receipt
-- is built with string.format instead of gsub with a function.
local N = tonumber(arg and arg[1]) or 5000000

local function discount(price, rate)
  return price - price * rate
end

local function tax(p) return p * 1.2 end

local function render(id, price)
  return string.format("order %d: %d", id, price)
end

local total, length = 0, 0
for i = 1, N do
  local price = i % 100 + 1
  total = total + tax(discount(price, (i % 4) / 10))
  if i % 50 == 0 then
    length = length + #render(i, price)
  end
end
print(string.format("%d orders, total %.2f, %d bytes of receipts", N, total, length))
