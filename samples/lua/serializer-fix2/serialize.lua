-- serialize.lua — a recursive pretty-printer of Lua values in the manner
-- of pkulchenko/serpent (written for these samples, not copied): sorted
-- keys, safe names, shared tables named once, __tostring/__serialize
-- metamethods called through pcall.  Its JIT problems are the ones real
-- serializers have: a closure made per call in the recursion, a sort
-- comparator made per table, a metamethod looked up on every value.
local M = {}

local keyword = {}
for _, k in ipairs({ "and", "break", "do", "else", "elseif", "end", "false",
  "for", "function", "goto", "if", "in", "local", "nil", "not", "or",
  "repeat", "return", "then", "true", "until", "while" }) do keyword[k] = true end

-- fix 1 (the top finding: "serialize.lua:15 creates a closure each time
-- the function at serialize.lua:14 runs"): the callback made once
local function escape(c)
  return string.format("\\%03d", c:byte())
end

local function safestr(s)
  return "\"" .. s:gsub("[%c\\\"]", escape) .. "\""
end

local function safename(k)
  if type(k) == "string" and k:match("^[%a_][%w_]*$") and not keyword[k] then
    return k
  end
  return nil
end

local order = { number = 1, string = 2, boolean = 3, table = 4 }

-- fix 2 (the top finding after fix 1: "serialize.lua:87 closes the
-- upvalues of the closure at serialize.lua:46 ...: create the closures of
-- the function at serialize.lua:39 outside it"): val2str creates none,
-- the comparator made once here, the metamethods called directly
local function keycmp(a, b)
  local ta, tb = order[type(a)] or 9, order[type(b)] or 9
  if ta ~= tb then return ta < tb end
  if ta <= 2 then return a < b end
  return tostring(a) < tostring(b)
end

function M.dump(value, opts)
  opts = opts or {}
  local indent = opts.indent or "  "
  local seen, out, n = {}, {}, 0
  local function put(s) n = n + 1; out[n] = s end

  local function val2str(v, level, path)
    local t = type(v)
    if t == "table" then
      if seen[v] then put(seen[v]); return end
      seen[v] = path
      local mt = getmetatable(v)
      -- a metamethod is looked up and called through pcall on every table
      local ok, custom = false, nil
      if mt and mt.__serialize then ok, custom = pcall(mt.__serialize, v) end
      if ok and custom ~= nil then put(tostring(custom)); return end
      local keys = {}
      for k in pairs(v) do keys[#keys + 1] = k end
      table.sort(keys, keycmp)
      put("{\n")
      for i = 1, #keys do
        local k = keys[i]
        put(string.rep(indent, level + 1))
        local name = safename(k)
        if name then
          put(name)
        elseif type(k) == "string" then
          put("[" .. safestr(k) .. "]")
        else
          put("[" .. tostring(k) .. "]")
        end
        put(" = ")
        val2str(v[k], level + 1, path .. "." .. tostring(k))
        put(",\n")
      end
      put(string.rep(indent, level) .. "}")
    elseif t == "string" then
      put(safestr(v))
    elseif t == "number" then
      if v ~= v then put("0/0")
      elseif v == math.huge then put("math.huge")
      elseif v == -math.huge then put("-math.huge")
      elseif v == math.floor(v) then put(string.format("%d", v))
      else put(string.format("%.17g", v)) end
    else
      local mt = getmetatable(v)
      local ok, s = false, nil
      if mt and mt.__tostring then ok, s = pcall(mt.__tostring, v) end
      put(ok and s or tostring(v))
    end
  end

  val2str(value, 0, "_")
  return table.concat(out, "", 1, n)
end

return M
