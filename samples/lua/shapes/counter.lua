-- counter.lua — a closure factory called in a hot loop: make_counter
-- returns a new closure each time, so the loop that calls it creates one
-- per iteration; the fix is the call, not the factory.
local M = {}

local function make_counter(start)
  local n = start
  return function(step)
    n = n + step
    return n
  end
end

function M.run(rounds)
  local total = 0
  for i = 1, rounds do
    local c = make_counter(i)
    total = total + c(1) + c(2)
  end
  return total
end

return M
