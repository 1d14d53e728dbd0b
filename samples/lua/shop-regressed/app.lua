-- app.lua — a small shop service in the style of an OpenResty app: a
-- router, middleware run around every handler, handlers that answer in
-- JSON (json.lua) or HTML (template.lua), a streamed answer made by a
-- coroutine, and a log (log.lua).  handle(method, uri, headers, body)
-- is what content_by_lua would call; main.lua drives it without nginx.
local router = require("router")
local json = require("json")
local template = require("template")
local log = require("log")

local M = {}

local format, concat, floor = string.format, table.concat, math.floor

-- ---- data ---------------------------------------------------------------

local items = {}
for i = 1, 200 do
  items[i] = {
    id = i,
    name = format("item \"%d\"\tof the shop", i),
    price = 100 + (i * 37) % 900,
    tags = { "tag" .. i % 7, "tag" .. i % 11, "line\n" .. i % 3 },
  }
end

local carts = {}

-- ---- middleware ---------------------------------------------------------

-- Each is function(req, res, next): it may answer itself or call next.
local function request_id(req, res, nxt)
  req.id = format("%08x", req.seq)
  res.headers["X-Request-Id"] = req.id
  return nxt(req, res)
end

local function auth(req, res, nxt)
  if req.method ~= "GET" and req.headers["Authorization"] ~= "Bearer shop" then
    res.status = 401
    res.body[#res.body + 1] = "unauthorized"
    return res
  end
  return nxt(req, res)
end

local function timing(req, res, nxt)
  local started = req.seq
  local r = nxt(req, res)
  res.headers["X-Cost"] = tostring(req.seq - started + #res.body)
  return r
end

local function access_log(req, res, nxt)
  local r = nxt(req, res)
  log.write("info", req.method, req.path, res.status, #res.body, req.id)
  return r
end

local middleware = { request_id, access_log, timing, auth }

-- ---- handlers -----------------------------------------------------------

local PAGE = [[
<html><head><title>{{ ctx.item.name }}</title></head><body>
<h1>{{ ctx.item.name }}</h1><p>price: {* ctx.price *}</p>
<ul>{% for i = 1, #ctx.item.tags do %}<li>{{ ctx.item.tags[i] }}</li>{% end %}</ul>
</body></html>]]

local function list_items(req, res)
  local page = tonumber(req.args.page) or 1
  local first = ((page - 1) * 20) % #items + 1
  local names = {}
  for i = first, first + 19 do
    local it = items[(i - 1) % #items + 1]
    names[#names + 1] = it.name
  end
  res.headers["Content-Type"] = "application/json"
  res.body[#res.body + 1] = json.encode(names)
  return res
end

local function show_item(req, res)
  local it = items[tonumber(req.params.id)]
  if not it then
    res.status = 404
    return res
  end
  res.headers["Content-Type"] = "text/html"
  res.body[#res.body + 1] = template.render("item", PAGE,
    { item = it, price = format("%d.%02d", floor(it.price / 100), it.price % 100) })
  return res
end

local function item_json(req, res)
  local it = items[tonumber(req.params.id)]
  res.headers["Content-Type"] = "application/json"
  res.body[#res.body + 1] = json.encode({ id = it.id, name = it.name, price = it.price, tags = it.tags })
  return res
end

local function add_to_cart(req, res)
  local cart = carts[req.params.user]
  if not cart then
    cart = {}
    carts[req.params.user] = cart
  end
  local id = tonumber(req.params.id)
  cart[id] = (cart[id] or 0) + 1
  log.write("debug", "cart", req.params.user, id, cart[id])
  res.status = 201
  res.body[#res.body + 1] = json.encode({ user = req.params.user, count = cart[id] })
  return res
end

-- A streamed answer: a coroutine yields the chunks, as ngx.print and
-- ngx.flush would send them.
-- fixed: the coroutine's function is made once and gets n when first
-- resumed, no closure per request
local function produce(n)
  for i = 1, n do
    coroutine.yield(format("chunk %d of %d\n", i, n))
  end
end

local function stream(req, res)
  local producer = coroutine.wrap(produce)
  local chunk = producer(tonumber(req.params.n) or 10)
  while chunk do
    res.body[#res.body + 1] = chunk
    chunk = producer()
  end
  return res
end

local routes = router.new()
router.add(routes, "GET", "/items", list_items)
router.add(routes, "GET", "/items/:id", show_item)
router.add(routes, "GET", "/items/:id/json", item_json)
router.add(routes, "POST", "/cart/:user/:id", add_to_cart)
router.add(routes, "GET", "/stream/:n", stream)

-- ---- the request --------------------------------------------------------

local seq = 0

local function dispatch(req, res)
  local route, params = router.match(routes, req.method, req.path)
  if not route then
    res.status = 404
    return res
  end
  req.params = params
  return route.handler(req, res)
end

-- fixed: the chain is made once, innermost first: each middleware wraps
-- what follows it
local chain = dispatch
for i = #middleware, 1, -1 do
  local mw, inner = middleware[i], chain
  chain = function(rq, rs) return mw(rq, rs, inner) end
end

function M.handle(method, uri, headers, body)
  seq = seq + 1
  local path, args = router.split_query(uri)
  local req = { method = method, path = path, args = args, headers = headers, body = body, seq = seq }
  local res = { status = 200, headers = {}, body = {} }
  chain(req, res)
  return res.status, res.headers, concat(res.body)
end

return M
