-- JSON endpoints: cjson encode/decode, validation with error/pcall, pairs
-- over decoded objects, a coroutine that yields report rows, table.sort.
local cjson = require "cjson.safe"
local data = require "data"

local format, gsub, concat = string.format, string.gsub, table.concat

local _M = {}

local JSON = "application/json"

function _M.user(rest, q)
  local id = tonumber(rest)
  if not id then return 400, cjson.encode({ error = "bad id", id = rest }), JSON end
  local u = data.user(id)
  u.profile = { bio = data.sentence(id), since = 2000 + id % 25, score = id * 1.5 }
  if q.fields then
    local keep = {}
    for f in q.fields:gmatch("[^,]+") do keep[f] = u[f] end
    u = keep
  end
  return 200, cjson.encode(u), JSON
end

local function validate(order)
  if type(order.lines) ~= "table" then error({ code = "no-lines" }) end
  for i = 1, #order.lines do
    local l = order.lines[i]
    if l.qty <= 0 then error({ code = "bad-qty", line = i }) end
  end
  return true
end

function _M.order(rest, q)
  local id = tonumber(rest) or 0
  local order = { id = id, lines = {} }
  for i = 1, 1 + id % 8 do
    local it = data.item(id + i)
    order.lines[i] = { sku = it.sku, qty = (id + i) % 4, price = it.price }
  end
  local ok, err = pcall(validate, order)
  if not ok then
    return 422, cjson.encode({ error = err.code, line = err.line, order = id }), JSON
  end
  local totals = {}
  for _, l in ipairs(order.lines) do
    totals[l.sku] = (totals[l.sku] or 0) + l.qty * l.price
  end
  local sum = 0
  for _, v in pairs(totals) do sum = sum + v end
  order.total = format("%.2f", sum)
  return 200, cjson.encode(order), JSON
end

-- Echo a JSON body back, keys normalised: decode, walk with pairs, encode.
local function normalise(v, depth)
  if type(v) ~= "table" or depth > 8 then return v end
  local out = {}
  for k, x in pairs(v) do
    if type(k) == "string" then k = gsub(k, "%u", function(c) return "_" .. c:lower() end) end
    out[k] = normalise(x, depth + 1)
  end
  return out
end

function _M.echo(body, q)
  local v, err = cjson.decode(body)
  if v == nil then return 400, cjson.encode({ error = err }), JSON end
  return 200, cjson.encode(normalise(v, 1)), JSON
end

-- Rows from a coroutine (a generator), formatted line by line.
function _M.report(rest, q)
  local n = tonumber(rest) or 10
  local rows = coroutine.wrap(function()
    for i = 1, n % 50 + 5 do
      local it = data.item(n + i)
      coroutine.yield(i, it)
    end
  end)
  local out = {}
  for i, it in rows do
    out[#out + 1] = format("%3d %-12s %8.2f %s", i, it.name, it.price, it.sku)
  end
  return 200, concat(out, "\n"), "text/plain"
end

function _M.feed(n, q)
  local entries = {}
  for i = 1, 10 + n % 15 do
    local it = data.item(n * 3 + i)
    entries[i] = { id = it.id, title = it.name, score = (it.id * 7919) % 1000, summary = data.sentence(it.id) }
  end
  table.sort(entries, function(a, b) return a.score > b.score end)
  local xml = { '<?xml version="1.0"?><feed>' }
  for i = 1, #entries do
    local e = entries[i]
    xml[#xml + 1] = format('<entry id="%d" score="%d"><title>%s</title><summary>%s</summary></entry>',
      e.id, e.score, e.title, (gsub(e.summary, "[<>&]", "")))
  end
  xml[#xml + 1] = "</feed>"
  return 200, concat(xml), "application/atom+xml"
end

return _M
