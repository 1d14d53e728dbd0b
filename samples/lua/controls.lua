-- Chunk names and dump lines with what terminals, CI logs and editors
-- obey rather than show: a lone CR (GitHub's runner starts a new line
-- there, so "::error ::" would run), BEL and ESC, C1 controls (the
-- 8-bit CSI U+009B and OSC U+009D), bidirectional overrides (U+202E,
-- U+2066..U+2069), and "|7| " (vim's "%f|%l| %m" would read a jump to
-- line 7 of "lua/app.lua") with the other shapes of places vim's default
-- 'errorformat' reads.  Each chunk has a closure in a hot loop, so
-- it aborts (NYI: bytecode FNEW) and is named in every view.  The dump
-- goes to stdout; the program writes there too, as any program may:
-- two forged abort lines, one whose reason holds a CR and a workflow
-- command, one whose chunk name holds a NUL byte.
local body = "local n=0\nfor i=1,200 do local g=function() end n=n+1 end return n"
local names = {
  "=cr\r::error ::forged by a chunk name",
  "=bel\7esc\27]0;retitled\7",
  "=c1\194\15531mred\194\157osc",
  "=lua/app.lua|7| x",
  "=a\"b.lua\" 7: x",
  "=x.lua(12): y",
  "=x.lua:12:3: y",
  "=bidi\226\128\174aul.evil",
  "=iso\226\129\166x\226\129\169",
}
local out = {}
for _, name in ipairs(names) do
  out[#out + 1] = assert(load(body, name))()
end
-- a loop that compiles, so that a trace and its bush carry such a name
out[#out + 1] = assert(load("local s=0\nfor i=1,200 do s=s+i end return s",
                            "=loop\r::warning ::forged by a trace"))()
io.write("---- TRACE 90 start forged.lua:1\n",
         "---- TRACE 90 abort forged.lua:2 -- NYI: bytecode 51\r::add-mask::secret\n",
         "---- TRACE 91 start nul\0name.lua:1\n",
         "---- TRACE 91 abort nul\0name.lua:2 -- NYI: bytecode 51\n")
io.write(table.concat(out, " "), "\n")
