-- HTML pages: each page renders one of config.templates templates plus a
-- shared layout; the search page rewrites text with gsub callbacks.
local config = require "config"
local template = require "template"
local views = require "views"
local data = require "data"

local format, gsub, lower = string.format, string.gsub, string.lower

local _M = {}

local layout = [[<!doctype html>
<html><head><title>{{context.title}}</title></head>
<body>{*context.body*}
<!-- rendered for {{context.client}} -->
</body></html>
]]

local function context_for(n, q)
  local items = {}
  for i = 1, 5 + n % 20 do
    items[i] = data.item(n * 31 + i)
  end
  local rows = {}
  for r = 1, 3 + n % 4 do
    local row = {}
    for c = 1, 4 do row[c] = format("%d.%d", r, c * n % 17) end
    rows[r] = row
  end
  return {
    title = "Page " .. n, lead = data.sentence(n),
    items = items, rows = rows,
    user = (n % 3 ~= 0) and data.user(n) or nil,
    links = data.links(n), tags = data.tags(n),
    count = 10 + n % 500, page = 1 + (tonumber(q.p) or 0) % 9,
    client = q.client or "anonymous",
  }
end

function _M.page(n, q)
  n = 1 + (n - 1) % config.templates
  local ctx = context_for(n, q)
  local body = template.render("page-" .. n, views.text(n), ctx)
  return 200, template.render("layout", layout, { title = ctx.title, body = body, client = ctx.client })
end

function _M.item(id, q)
  local item = data.item(id)
  local n = 1 + id % config.templates
  local ctx = context_for(n, q)
  ctx.title = item.name
  local body = template.render("page-" .. n, views.text(n), ctx)
  return 200, template.render("layout", layout, { title = item.name, body = body, client = ctx.client })
end

-- Highlight the query words: gsub with a function (a callback per match).
local function highlight(text, words)
  return (gsub(text, "%a+", function(w)
    if words[lower(w)] then return "<b>" .. w .. "</b>" end
  end))
end

function _M.search(text, q)
  local words = {}
  for w in text:gmatch("%a+") do words[lower(w)] = true end
  local hits = {}
  for i = 1, 20 do
    local s = data.sentence(i * 13 + #text)
    local h = highlight(s, words)
    if h ~= s then hits[#hits + 1] = format('<li data-score="%.3f">%s</li>', #h / #s, h) end
  end
  local body = "<ul>" .. table.concat(hits, "\n") .. "</ul>"
  return 200, template.render("layout", layout, { title = "search " .. text, body = body, client = q.client or "anonymous" })
end

return _M
