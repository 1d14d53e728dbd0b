-- Time in several trace generations, for sysprof's time per trace: three
-- phases separated by jit.flush() (trace numbers start again at 1 in each),
-- and in each phase chunks load()ed, run and dropped, whose traces the GC
-- frees so that the next chunk's trace takes the same number in the same
-- generation.  Each phase runs long enough to be sampled; ROUNDS (the
-- first argument) scales them.
local ROUNDS = tonumber(arg and arg[1]) or 4

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

local function closures(n)           -- a closure per iteration: NYI, interpreted
  local s = 0
  for i = 1, n do
    local f = function() return i end
    s = s + f()
  end
  return s
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
