-- Routing by string matching, as small apps do without a router library.
local pages = require "pages"
local api = require "api"

local find, sub, match = string.find, string.sub, string.match

local _M = {}

local function query(args)
  local q = {}
  if not args then return q end
  for k, v in args:gmatch("([^&=]+)=([^&]*)") do
    q[k] = ngx.unescape_uri(v)
  end
  return q
end

local prefix_routes = {
  { "/page/", function(rest, q) return pages.page(tonumber(rest) or 1, q) end },
  { "/api/users/", function(rest, q) return api.user(rest, q) end },
  { "/api/orders/", function(rest, q) return api.order(rest, q) end },
  { "/search", function(_, q) return pages.search(q.q or "", q) end },
  { "/report/", function(rest, q) return api.report(rest, q) end },
  { "/feed/", function(rest, q) return api.feed(tonumber(rest) or 1, q) end },
}

function _M.dispatch(method, uri, args)
  local q = query(args)
  if method == "POST" and uri == "/api/echo" then
    ngx.req.read_body()
    return api.echo(ngx.req.get_body_data() or "{}", q)
  end
  for i = 1, #prefix_routes do
    local r = prefix_routes[i]
    local p = r[1]
    if sub(uri, 1, #p) == p then
      return r[2](sub(uri, #p + 1), q)
    end
  end
  local id = match(uri, "^/item/(%d+)$")
  if id then return pages.item(tonumber(id), q) end
  if find(uri, "/static/", 1, true) == 1 then
    return 200, "static " .. uri, "text/plain"
  end
  return 404, "not found: " .. uri, "text/plain"
end

return _M
