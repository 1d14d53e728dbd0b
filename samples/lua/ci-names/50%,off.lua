-- A real file whose name holds '%' and ','.
return function(n)
  local s = 0
  for i = 1, n do
    local add = function(x) return x + i end
    s = add(s)
  end
  return s
end
