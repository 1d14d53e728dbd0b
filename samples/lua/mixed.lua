-- Dump to stdout (-jdump without a file) while the program itself writes to
-- stdout: print() (a C function: the trace stitches or ends around it, so its
-- lines fall between trace events) and io.write() (recorded by the JIT in 2.1,
-- so its output lands inside a trace being recorded, between bytecode lines).
local stringx = require("pl.stringx")

print("mixed: start")
local total = 0
for i = 1, 120 do
  local s = stringx.rjust(tostring(i), 4, ".")
  if i % 20 == 0 then print("print: " .. s) end
  total = total + #s
  if i >= 55 and i <= 60 then io.write("io.write: ", s, "\n") end
end
print("mixed: total=" .. total)
