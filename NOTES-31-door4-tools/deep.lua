package.path = "tests/lua/?.lua;lua/?.lua;lua/?/init.lua;" .. package.path
local narrow = require "narrow"
local s = narrow.with(narrow.bottleneck(0.25, 1.2, tonumber(arg[1] or 10), tonumber(arg[2] or 10)), { max_overlap = 0.35 })
s.limit = 400
if arg[3] then narrow.jitter(s, tonumber(arg[3])) end
local w = s.w
local step = w.step
local worst = 0
s.w = setmetatable({}, { __index = function(_, k)
  if k == "step" then
    return function()
      step(w)
      local P = s.people
      for i = 1, #P do
        local xi, yi = P[i].a:xy()
        for j = i + 1, #P do
          local xj, yj = P[j].a:xy()
          local d = math.sqrt((xi - xj) ^ 2 + (yi - yj) ^ 2)
          local ov = (0.6 - d) / 0.3
          if ov > 0.36 and ov > worst - 0.05 then
            worst = math.max(worst, ov)
            local ti, tj = P[i].a.target, P[j].a.target
            print(("t=%.2f ov %.3f  i (%.2f,%.2f) past %s tgt (%.1f,%.1f)  j (%.2f,%.2f) past %s tgt (%.1f,%.1f)"):format(w.time, ov, xi, yi, tostring(P[i].past), ti.x, ti.y, xj, yj, tostring(P[j].past), tj.x, tj.y))
          end
        end
      end
    end
  end
  return w[k]
end })
print(narrow.show(narrow.run(s)))
