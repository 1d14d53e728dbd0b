-- The profiled workload: luacheck (lua-check) over the Lua files given
-- after the number of rounds, that many times, via its library API.  Run
-- once under -jp (the profile) and once under -jdump (the dump): two runs
-- of the same work, as -jp next to -jdump would skew the profile.
local luacheck = require("luacheck")
local rounds = tonumber(arg[1])
local files = { select(2, ...) }
local issues = 0
for _ = 1, rounds do
  for _, report in ipairs(luacheck.check_files(files, { std = "lua51" })) do
    issues = issues + #report
  end
end
io.write(("profiled: %d rounds over %d files, %d issues\n"):format(rounds, #files, issues))
