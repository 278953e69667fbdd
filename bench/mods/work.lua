-- A mod's update doing WORK units of plain Lua per tick (the same code the
-- bench runs unsandboxed for the baseline).
local WORK = WORK or 2000
local t = {}
for i = 1, 256 do t[i] = i * 0.5 end
local function work()
  local s = 0
  for k = 1, WORK do
    local i = k % 256 + 1
    s = s + math.sin(t[i]) * t[(i * 7) % 256 + 1]
    if k % 97 == 0 then s = s + #string.format("%d", k) end
  end
  return s
end
return { update = function(w, dt) SINK = work() end }
