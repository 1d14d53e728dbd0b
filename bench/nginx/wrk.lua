-- wrk script for gen-nginx-dump.sh: a mix of the app's routes, with the
-- page numbers spread over all templates.  WRK_TEMPLATES is substituted.
local templates = WRK_TEMPLATES
local n = 0
local words = { "nginx", "lua", "trace", "quick fox", "json value", "page cache", "Lazy Dog" }
request = function()
  n = n + 1
  local k = n % 20
  local path
  if k < 9 then
    path = "/page/" .. ((n * 7919) % templates + 1) .. "?p=" .. (n % 11)
  elseif k < 11 then
    path = "/item/" .. (n % 5000)
  elseif k < 13 then
    path = "/api/users/" .. (n % 1000) .. ((n % 4 == 0) and "?fields=id,name,email" or "")
  elseif k < 15 then
    path = "/api/orders/" .. (n % 777)
  elseif k == 15 then
    path = "/search?q=" .. words[n % #words + 1]:gsub(" ", "+")
  elseif k == 16 then
    path = "/report/" .. (n % 90)
  elseif k == 17 then
    path = "/feed/" .. (n % 300)
  elseif k == 18 then
    local body = string.format('{"userName":"u%d","orderLines":[{"skuCode":"A%d","qtyCount":%d}],"metaData":{"sourceApp":"wrk","reqNo":%d}}', n, n % 97, n % 5, n)
    return wrk.format("POST", "/api/echo", { ["Content-Type"] = "application/json" }, body)
  else
    path = "/static/app.css"
  end
  return wrk.format("GET", path)
end
