-- The source view's sample: a small program whose own lines carry the
-- JIT's story (annotated.dump, annotated-luajit2.dump, annotated-Gvl.prof):
-- a loop that compiles, a function whose loop makes a closure per
-- iteration (NYI: bytecode FNEW in 2.1, blacklisted after 11 tries), a
-- caller whose time is spent in it, and markup in comments and strings
-- that a page showing this file must escape:
-- </td></tr></table><script>document.title='pwned by a comment'</script>
local ROUNDS = tonumber(arg and arg[1]) or 20000

local markup = "<img src=x onerror=alert('annotated')> & </script>"

local function sum(n)
  local s = 0
  for i = 1, n do s = s + i % 7 end
  return s
end

local function closures(n)
  local fs, t = {}, 0
  for i = 1, n do
    fs[i % 5 + 1] = function() return i end
    t = t + fs[i % 5 + 1]()
  end
  return t
end

local function caller(n)
  return closures(n) + #markup
end

local total = 0
for _ = 1, ROUNDS do
  total = total + sum(1000) + caller(300)
end
io.write(("annotated: %d\n"):format(total))
