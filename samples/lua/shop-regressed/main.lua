-- main.lua — drives app.lua as nginx would, without nginx: ROUNDS rounds
-- of a fixed mix of requests, and a checksum of the answers, so that a
-- fixed version can be checked to answer the same.
--   luajit main.lua [ROUNDS]      (run from this directory, or with
--                                  LUA_PATH pointing here)
local app = require("app")

local ROUNDS = tonumber(arg and arg[1]) or (os.getenv("DUMPANALYZE_RECORD_KIND") == "profile" and 40000 or 2000)
local AUTH = { Authorization = "Bearer shop" }
local NONE = {}

local requests = {
  { "GET", "/items?page=1", NONE },
  { "GET", "/items?page=2", NONE },
  { "GET", "/items/17", NONE },
  { "GET", "/items/42/json", NONE },
  { "POST", "/cart/ann/17", AUTH },
  { "POST", "/cart/bob/42", NONE },
  { "GET", "/stream/8", NONE },
  { "GET", "/items?page=7", NONE },
  { "GET", "/nowhere", NONE },
}

local sum, bytes = 0, 0
for round = 1, ROUNDS do
  for i = 1, #requests do
    local r = requests[i]
    local status, headers, body = app.handle(r[1], r[2], r[3], nil)
    sum = (sum * 31 + status + #body + round % 7) % 2147483647
    bytes = bytes + #body
  end
end
io.write(("shop: %d requests, %d bytes, checksum %d\n"):format(ROUNDS * #requests, bytes, sum))
