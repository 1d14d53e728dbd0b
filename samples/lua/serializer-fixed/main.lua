-- main.lua — drives serialize.lua: ROUNDS rounds of serializing a fixed
-- set of nested records, and a checksum of the text, so that a fixed
-- version can be checked to write the same.
--   luajit main.lua [ROUNDS]      (run from this directory, or with
--                                  LUA_PATH pointing here)
local serialize = require("serialize")

local ROUNDS = tonumber(arg and arg[1]) or (os.getenv("DUMPANALYZE_RECORD_KIND") == "profile" and 4000 or 300)

local point = setmetatable({ x = 1, y = 2 }, {
  __serialize = function(p) return ("point(%d,%d)"):format(p.x, p.y) end })

local function record(i)
  return {
    id = i, name = "user" .. i, ["e-mail"] = "u" .. i .. "@example.org",
    score = i * 1.5, active = i % 2 == 0, tags = { "a", "b", i % 5 },
    origin = point, nested = { level = { deeper = { i, i + 1, "x\ty" } } },
    [i % 3] = "by number", ["end"] = "keyword",
  }
end

local data = {}
for i = 1, 40 do data[i] = record(i) end

local sum, bytes = 0, 0
for round = 1, ROUNDS do
  local s = serialize.dump(data[(round % #data) + 1])
  local t = serialize.dump(data)
  bytes = bytes + #s + #t
  sum = (sum * 31 + #s + #t + s:byte(3)) % 2147483647
end
io.write(("serializer: %d rounds, %d bytes, checksum %d\n"):format(ROUNDS, bytes, sum))
