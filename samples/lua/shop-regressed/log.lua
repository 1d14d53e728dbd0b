-- log.lua — an access and debug log kept in memory, as an OpenResty app
-- buffers it for a log_by_lua phase: each entry is its fields joined
-- with spaces, any number of them.
local M = {}

local concat, tostring, select = table.concat, tostring, select

local entries, n = {}, 0

function M.write(level, ...)
  local parts = { level }
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    parts[#parts + 1] = tostring(v)
  end
  n = n + 1
  entries[(n - 1) % 256 + 1] = concat(parts, " ")
end

function M.count()
  return n
end

function M.last()
  return entries[(n - 1) % 256 + 1]
end

return M
