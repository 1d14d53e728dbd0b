-- Run luacheck (lua-check package) over the Lua files given on the command
-- line via its library API (no config file lookup), print a summary.
local luacheck = require("luacheck")
local files = { ... }
local reports = luacheck.check_files(files, { std = "lua51" })
local warnings, errors = 0, 0
for i, file_report in ipairs(reports) do
  for _, event in ipairs(file_report) do
    if event.code:sub(1, 1) == "0" then errors = errors + 1 else warnings = warnings + 1 end
  end
  io.write(("%s: %d issues\n"):format(files[i], #file_report))
end
io.write(("luacheck: %d files, %d warnings, %d errors\n"):format(#files, warnings, errors))
