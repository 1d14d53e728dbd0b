-- Hot loops and aborts in chunks whose names are markup, so a report that
-- shows file names must escape them: "=" names are printed verbatim in
-- trace LOCs, quoted names with their quotes.
local function run(src, name)
  local f = assert(load(src, name))
  return f()
end

local loop = "local s=0\nfor i=1,99 do s=s+i end\nreturn s"
-- aborts with NYI: bytecode FNEW, in a root trace
local nyi = "local n=0\nfor i=1,99 do local f=function()end n=n+1 end\nreturn n"
local out = {
  run(loop, "=<script>document.title='pwned'</script>"),
  run(nyi, "=<img src=x onerror=alert(1)>"),
  run(loop, "=</script><b>&amp;\"'"),
  run(nyi, "<svg onload=alert(1)>"),
}
io.write(table.concat(out, " "), "\n")
