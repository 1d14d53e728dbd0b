-- A small template engine in the style of lua-resty-template: a template's
-- text becomes Lua code, compiled with loadstring(code, "=tpl-N") and
-- cached, so a busy worker holds thousands of chunks named tpl-N.
--   {{expr}}  escaped value     {*expr*}  raw value     {% code %}  Lua code
local concat, format, gsub, find, sub = table.concat, string.format, string.gsub, string.find, string.sub

local _M = {}

local escapes = { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;", ["'"] = "&#39;" }

function _M.escape(s)
  if s == nil then return "" end
  return (gsub(tostring(s), "[&<>\"']", escapes))
end

-- The template's text to Lua source.
function _M.parse(text)
  local out = { "local context, escape, include = ...\nlocal ___ = {}\n" }
  local pos = 1
  while true do
    local s, e, kind = find(text, "{([{*%%])", pos)
    if not s then break end
    if s > pos then
      out[#out + 1] = format("___[#___+1] = %q\n", sub(text, pos, s - 1))
    end
    local close = kind == "{" and "}}" or kind == "*" and "*}" or "%}"
    local cs, ce = find(text, close, e + 1, true)
    if not cs then error("unclosed " .. kind .. " at " .. s) end
    local body = sub(text, e + 1, cs - 1)
    if kind == "{" then
      out[#out + 1] = "___[#___+1] = escape(" .. body .. ")\n"
    elseif kind == "*" then
      out[#out + 1] = "___[#___+1] = tostring(" .. body .. ")\n"
    else
      out[#out + 1] = body .. "\n"
    end
    pos = ce + 1
  end
  if pos <= #text then
    out[#out + 1] = format("___[#___+1] = %q\n", sub(text, pos))
  end
  out[#out + 1] = "return concat(___)\n"
  return concat(out)
end

local cache = {}
local env = setmetatable({ concat = concat }, { __index = _G })
local compiled = 0

-- compile(name, text) -> function(context) returning the page.
function _M.compile(name, text)
  local f = cache[name]
  if f then return f end
  compiled = compiled + 1
  local code = _M.parse(text)
  local chunk, err = loadstring(code, "=tpl-" .. compiled)
  if not chunk then error(err) end
  setfenv(chunk, env)
  f = function(context, include) return chunk(context, _M.escape, include) end
  cache[name] = f
  return f
end

function _M.render(name, text, context, include)
  return _M.compile(name, text)(context, include)
end

return _M
