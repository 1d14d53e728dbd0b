-- templates.lua [N]: a template engine's life, as lua-resty-template runs
-- under OpenResty: N small templates compiled with loadstring (chunk names
-- tpl-1 ... tpl-N), each rendered a few times.  Each template's loop gets
-- hot and compiles a root trace; rows that take the rarer branch grow side
-- traces; every 40th template makes a closure in its loop, which LuaJIT 2.1
-- cannot compile (NYI: FNEW), and aborts.
local n = tonumber(arg[1]) or 8000
local items = {}
for i = 1, 64 do
  items[i] = { name = "item" .. i, price = i * 3, sale = (i % 5 == 0) }
end

local function source(k)
  local body = {
    "local items, out = ...",
    "local total = 0",
    "for i = 1, #items do",
    "  local it = items[i]",
    "  if it.sale then",
    "    total = total + it.price * " .. (k % 7 + 1) .. " / 2",
    "  else",
    "    total = total + #it.name + it.price",
    "  end",
  }
  if k % 40 == 0 then
    body[#body + 1] = "  out[#out + 1] = function() return it end"
  end
  body[#body + 1] = "end"
  body[#body + 1] = "return total"
  return table.concat(body, "\n")
end

local out, sum = {}, 0
for k = 1, n do
  local render = assert(loadstring(source(k), "=tpl-" .. k))
  for _ = 1, 3 do
    sum = sum + render(items, out)
  end
  if #out > 1000 then out = {} end
end
print(n, sum)
