-- phases.lua with its code moved: closures() comes first, then numeric()
-- and strings(), as an edit that reorders functions leaves a file
-- (samples/generate-sysprof.sh runs it for the `moved` sample; its chunk
-- name is phases.lua, as LuaJIT writes the base name).  --compare matches
-- the bushes of the two runs by the text of their start lines: the
-- closures loop went up, the other two loops down.
local ROUNDS = tonumber(arg and arg[1]) or 4

local function closures(n)           -- a closure per iteration: NYI, interpreted
  local s = 0
  for i = 1, n do
    local f = function() return i end
    s = s + f()
  end
  return s
end

local function numeric(n)            -- a loop that compiles
  local s = 0
  for i = 1, n do s = s + i % 11 end
  return s
end

local function strings(n)            -- C and fast functions in a loop
  local t = {}
  for i = 1, n do t[#t + 1] = ("%d:%s"):format(i, tostring(i * 3)) end
  return #table.concat(t, ",")
end

local function loaded(tag, n)        -- a chunk of its own, dropped after one call
  local f = assert(load("local n = ... local s = 0 for i = 1, n do s = s + i % " .. tag ..
                        " end return s", "=chunk-" .. tag))
  return f(n)
end

local total = 0
for phase = 1, 3 do
  for round = 1, ROUNDS do
    total = total + numeric(20000000) + strings(200000) + closures(1000000) +
            loaded(phase * 100 + round, 20000000)
    collectgarbage("collect")          -- the dropped chunk and its trace go
  end
  jit.flush()
end
io.write(("phases: %d\n"):format(total))
