-- json.lua — the service's JSON encoder, in the style of the small
-- pure-Lua encoders OpenResty apps carry: strings escaped with gsub,
-- arrays and objects walked recursively, keys sorted for stable output.
--
-- (shop-regressed: these three comment lines were added above the code,
-- which moves every line below them; its findings must not become new)
local M = {}

local byte, format, gsub, concat = string.byte, string.format, string.gsub, table.concat
local sort, type, tostring, pairs = table.sort, type, tostring, pairs

local ESC = { ['"'] = '\\"', ['\\'] = '\\\\', ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t' }
for i = 0, 31 do
  local c = string.char(i)
  ESC[c] = ESC[c] or format("\\u%04x", i)
end

local encode

local function encode_list(t, n, out)
  out[#out + 1] = "["
  for i = 1, n do
    local v = t[i]
    if i > 1 then out[#out + 1] = "," end
    if type(v) == "string" then
      -- fixed: a table as gsub's replacement, no closure per string
      out[#out + 1] = '"' .. gsub(v, '[%c"\\]', ESC) .. '"'
    else
      encode(v, out)
    end
  end
  out[#out + 1] = "]"
end

local function encode_object(t, out)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = tostring(k) end
  sort(keys)
  out[#out + 1] = "{"
  for i = 1, #keys do
    local k = keys[i]
    if i > 1 then out[#out + 1] = "," end
    out[#out + 1] = '"' .. k .. '":'
    encode(t[k], out)
  end
  out[#out + 1] = "}"
end

function encode(v, out)
  local tv = type(v)
  if tv == "table" then
    local n = #v
    if n > 0 or next(v) == nil then
      encode_list(v, n, out)
    else
      encode_object(v, out)
    end
  elseif tv == "string" then
    out[#out + 1] = '"' .. gsub(v, '[%c"\\]', ESC) .. '"'
  elseif tv == "number" then
    out[#out + 1] = v % 1 == 0 and format("%d", v) or format("%.14g", v)
  elseif tv == "boolean" then
    out[#out + 1] = tostring(v)
  else
    out[#out + 1] = "null"
  end
end

function M.encode(v)
  local out = {}
  encode(v, out)
  return concat(out)
end

return M
