-- template.lua — a template engine in the style of lua-resty-template:
-- "{{ expr }}" is escaped, "{* expr *}" raw, "{% code %}" Lua; each
-- template is compiled once into a Lua function with load() (its chunk
-- named "=tpl-NAME") and cached.
local M = {}

local concat, find, gsub, sub, format = table.concat, string.find, string.gsub, string.sub, string.format
local tostring = tostring

local HTML = { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;", ["'"] = "&#39;" }

function M.escape(s)
  return (gsub(tostring(s), "[&<>\"']", HTML))
end

local cache = {}

-- The Lua source of a template: a function of (ctx, escape) that fills
-- a buffer.
local function translate(text)
  local code, pos = { "local ctx, escape = ...\nlocal _b, _n = {}, 0\n" }, 1
  while true do
    local s, e, kind = find(text, "{([{*%%])", pos)
    if not s then break end
    if s > pos then
      code[#code + 1] = format("_n = _n + 1; _b[_n] = %q\n", sub(text, pos, s - 1))
    end
    local close = kind == "{" and "}}" or kind == "*" and "*}" or "%}"
    local cs, ce = find(text, close, e + 1, true)
    local body = sub(text, e + 1, cs - 1)
    if kind == "{" then
      code[#code + 1] = "_n = _n + 1; _b[_n] = escape(" .. body .. ")\n"
    elseif kind == "*" then
      code[#code + 1] = "_n = _n + 1; _b[_n] = tostring(" .. body .. ")\n"
    else
      code[#code + 1] = body .. "\n"
    end
    pos = ce + 1
  end
  if pos <= #text then
    code[#code + 1] = format("_n = _n + 1; _b[_n] = %q\n", sub(text, pos))
  end
  code[#code + 1] = "return table.concat(_b, '', 1, _n)\n"
  return concat(code)
end

function M.compile(name, text)
  local fn = cache[name]
  if not fn then
    fn = assert(load(translate(text), "=tpl-" .. name))
    cache[name] = fn
  end
  return fn
end

function M.render(name, text, ctx)
  return M.compile(name, text)(ctx, M.escape)
end

return M
