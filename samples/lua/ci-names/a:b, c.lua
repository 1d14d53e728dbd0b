-- A real file whose name holds ':', ',' and a blank.
return function(n)
  local s = 0
  for i = 1, n do
    local twice = function(x) return x * 2 end
    s = s + twice(i)
  end
  return s
end
