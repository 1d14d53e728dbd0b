-- Hot loops in many chunks (chunk01.lua ... chunkNN.lua, loaded with
-- load(string, "@name")) that call a function of another chunk
-- (helper.lua) which creates a closure: every attempt starts in its own
-- chunk and aborts in helper.lua (NYI: FNEW).  A dump whose aborts start
-- in more than 16 files and abort in another one.
local n = tonumber(arg and arg[1]) or 24
local helper = assert(load([[
return function(i)
  local f = function() return i end
  return f()
end]], "@helper.lua"))()
local loop = [[
local h = ...
local s = 0
for i = 1, 300 do s = s + h(i) end
return s]]
local total = 0
for k = 1, n do
  total = total + assert(load(loop, ("@chunk%02d.lua"):format(k)))(helper)
end
io.write(("manyfiles: %d chunks, total %d\n"):format(n, total))
