-- Closures created in hot loops (each aborts with NYI: bytecode FNEW) in
-- chunks whose names hold the characters CI annotations and editors'
-- parsers treat specially: '%' and ',' (GitHub's workflow commands), ':'
-- (every FILE:LINE parser), a newline (a line of its own).  Two are real
-- files (lua/ci-names/), found and placed on their lines; two are loaded
-- strings, which are no file.
local function closures(n)
  local c = 0
  for i = 1, n do
    local f = function() return i end
    c = c + f()
  end
  return c
end

local out = {}
for _, path in ipairs({ "lua/ci-names/50%,off.lua", "lua/ci-names/a:b, c.lua" }) do
  out[#out + 1] = assert(loadfile(path))()(200)
end
-- "=" names are printed as they are: '%', ',' and ':' in one
local f = assert(load("local n=0\nfor i=1,200 do local g=function() end n=n+1 end return n",
                      "=50% off, then: more"))
out[#out + 1] = f()
-- other names are printed quoted, a newline and all
local g = assert(load("local n=0\nfor i=1,200 do local g=function() end n=n+1 end return n",
                      "100%,\na:b"))
out[#out + 1] = g()
out[#out + 1] = closures(200)
io.write(table.concat(out, " "), "\n")
