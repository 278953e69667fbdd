-- lua5.4 probe.lua DT COLS ROWS T : the agents not there at time T
package.path = "tests/lua/?.lua;lua/?.lua;lua/?/init.lua;" .. package.path
local narrow = require "narrow"
local dt = load("return " .. arg[1])()
local s = narrow.doorway(dt, tonumber(arg[2]), tonumber(arg[3]))
s.limit = tonumber(arg[4])
local r = narrow.run(s)
print(narrow.show(r))
for i, p in ipairs(s.people) do
  if not p.there then
    local x, y = p.a:xy()
    print(("%d pos %.2f %.2f goal %.1f %.1f past %s v %.3f %.3f tgt %.2f %.2f"):format(i, x, y, p.goal.x, p.goal.y, tostring(p.past), p.a.velocity.x, p.a.velocity.y, p.a.target.x, p.a.target.y))
  end
end
