-- A program that never gets hot: ten iterations, under LuaJIT's hotloop
-- threshold (56), so -jdump has nothing to say and its output is only the
-- program's own line ("55").  For tests/cli/emptyrun.sh: a run that saw
-- no JIT event.
local s = 0
for i = 1, 10 do
  s = s + i
end
print(s)
