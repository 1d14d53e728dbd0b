-- json.lua — a small JSON encoder in the manner of rxi/json.lua (written
-- for these samples, not copied): encode dispatches on the type and
-- encode_string escapes through gsub with a callback made on every call,
-- so the closure is created in a helper the encoder's loop calls.
local json = {}

local escape_char_map = {
  ["\\"] = "\\\\", ["\""] = "\\\"", ["\b"] = "\\b", ["\f"] = "\\f",
  ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t",
}

local function encode_string(val)
  return '"' .. val:gsub('[%c"\\]', function(c)
    return escape_char_map[c] or string.format("\\u%04x", c:byte())
  end) .. '"'
end

local encode

local function encode_table(val, stack)
  local res = {}
  stack = stack or {}
  if stack[val] then error("circular reference") end
  stack[val] = true
  if rawget(val, 1) ~= nil or next(val) == nil then
    for i, v in ipairs(val) do
      res[#res + 1] = encode(v, stack)
    end
    stack[val] = nil
    return "[" .. table.concat(res, ",") .. "]"
  end
  for k, v in pairs(val) do
    res[#res + 1] = encode_string(k) .. ":" .. encode(v, stack)
  end
  stack[val] = nil
  return "{" .. table.concat(res, ",") .. "}"
end

encode = function(val, stack)
  local t = type(val)
  if t == "table" then
    return encode_table(val, stack)
  elseif t == "string" then
    return encode_string(val)
  elseif t == "number" then
    return string.format("%.14g", val)
  elseif t == "boolean" or t == "nil" then
    return tostring(val)
  end
  error("unexpected type '" .. t .. "'")
end

json.encode = encode
return json
