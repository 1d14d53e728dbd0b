-- router.lua — routes by method and path pattern, as lua-resty-router
-- and friends do: a list of compiled patterns tried in order, the
-- captures handed to the handler as the request's params.
local M = {}

local find, gsub, sub = string.find, string.gsub, string.sub
local char, tonumber = string.char, tonumber

-- "/items/:id/reviews" -> "^/items/([^/]+)/reviews$" and { "id" }
local function compile(path)
  local names = {}
  local pattern = "^" .. gsub(path, ":(%w+)", function(name)
    names[#names + 1] = name
    return "([^/]+)"
  end) .. "$"
  return pattern, names
end

function M.new()
  return { routes = {} }
end

function M.add(r, method, path, handler)
  local pattern, names = compile(path)
  r.routes[#r.routes + 1] = { method = method, pattern = pattern, names = names, handler = handler }
end

-- The route of a request and its params, or nil.
function M.match(r, method, path)
  local routes = r.routes
  for i = 1, #routes do
    local route = routes[i]
    if route.method == method then
      local s, e, c1, c2, c3 = find(path, route.pattern)
      if s then
        local params, caps, names = {}, { c1, c2, c3 }, route.names
        for k = 1, #names do
          -- regressed: params are percent-decoded ("a%20b" is "a b") by a
          -- closure made for every capture of every request
          params[names[k]] = (gsub(caps[k], "%%(%x%x)", function(h)
            return char(tonumber(h, 16))
          end))
        end
        return route, params
      end
    end
  end
  return nil
end

-- "/a/b?x=1&y=2" -> "/a/b", { x = "1", y = "2" }
function M.split_query(uri)
  local q = find(uri, "?", 1, true)
  if not q then return uri, {} end
  local args = {}
  for k, v in string.gmatch(sub(uri, q + 1), "([^&=]+)=([^&]*)") do
    args[k] = v
  end
  return sub(uri, 1, q - 1), args
end

return M
