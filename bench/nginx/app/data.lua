-- Made-up records, deterministic in their arguments.
local format = string.format

local _M = {}

local words = { "alpha", "nginx", "worker", "trace", "lua", "table", "string", "cache", "page",
  "order", "user", "search", "json", "value", "quick", "brown", "fox", "lazy", "dog" }

function _M.sentence(n)
  local out = {}
  for i = 1, 6 + n % 9 do
    out[i] = words[(n * i + i * i) % #words + 1]
  end
  out[1] = out[1]:sub(1, 1):upper() .. out[1]:sub(2)
  return table.concat(out, " ") .. "."
end

function _M.item(id)
  return { id = id, name = format("Item %05d", id), price = (id * 37 % 10000) / 100,
           stock = id % 13, sku = format("SKU-%X", id * 2654435761 % 4294967296) }
end

function _M.user(id)
  return { id = id, name = "user" .. id, email = format("user%d@example.org", id),
           roles = { "reader", id % 5 == 0 and "admin" or "member" }, active = id % 7 ~= 0 }
end

function _M.links(n)
  local l = {}
  for i = 1, 3 + n % 5 do l[i] = { href = "/page/" .. (n + i), text = "next " .. i } end
  return l
end

function _M.tags(n)
  local t = {}
  for i = 1, 1 + n % 6 do t[i] = words[(n + i * 3) % #words + 1] end
  return t
end

return _M
