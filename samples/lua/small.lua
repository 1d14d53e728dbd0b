-- Small penlight workload for the option-variant dumps (rsx, snapshots):
-- a few root traces, side traces and taken exits, mixed int/float/string.
local stringx = require("pl.stringx")
local tablex = require("pl.tablex")
local List = require("pl.List")

local total = 0
for i = 1, 400 do
  local s = stringx.rjust(tostring(i), 6, "0")
  if i % 7 == 0 then
    total = total + #stringx.split(s .. ",x,y", ",")
  elseif i % 5 == 0 then
    total = total + i / 3
  else
    total = total + tonumber(s)
  end
end
local ls = List.range(1, 200):map(function(x) return x % 11 == 0 and x * 0.5 or x end)
total = total + tablex.reduce("+", ls)
io.write(("small workload total=%g\n"):format(total))
