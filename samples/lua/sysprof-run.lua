-- Runs one of the sample programs under the platform profiler of
-- Tarantool's LuaJIT fork (misc.sysprof), in the same process as -jdump:
--
--   luajit -jdump=+x,P.dump lua/sysprof-run.lua MODE INTERVAL OUT COUNTERS PROGRAM [ARG...]
--
-- MODE is sysprof's 'L' (Lua stacks) or 'C' (also host stacks; the
-- garbage collector is stopped first, as mode C aborts when a sample lands
-- in the GC called from compiled code: Tarantool issue #11669).  INTERVAL
-- is in milliseconds.  The profile goes to OUT; the fork's own counters
-- (misc.sysprof.report(), read after the stop) to COUNTERS, one
-- "NAME COUNT" line each in the order of the fork's VM states.
local mode, interval, out, counters, program = ...
assert(program, "usage: sysprof-run.lua MODE INTERVAL OUT COUNTERS PROGRAM [ARG...]")
assert(misc and misc.sysprof, "this luajit has no misc.sysprof: build Tarantool's fork")

-- The program sees its own arguments, as when run by luajit itself.
local args = { [0] = program }
for i = 6, select("#", ...) do args[i - 5] = select(i, ...) end
arg = args -- luacheck: ignore (the global the program reads)

if mode == "C" then collectgarbage("stop") end
assert(misc.sysprof.start({ mode = mode, interval = tonumber(interval), path = out }))
local ok, err = pcall(dofile, program)
assert(misc.sysprof.stop())
if not ok then error(err, 0) end

local report = assert(misc.sysprof.report())
local f = assert(io.open(counters, "w"))
for _, name in ipairs({ "INTERP", "LFUNC", "FFUNC", "CFUNC", "GC", "EXIT", "RECORD",
                        "OPT", "ASM", "TRACE" }) do
  f:write(("%s %d\n"):format(name, report.vmstate[name]))
end
f:write(("samples %d\n"):format(report.samples))
f:close()
