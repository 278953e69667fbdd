-- SPDX-License-Identifier: MIT
-- formation_gap.lua — issue 35's narrow-place figure: 40 members in a
-- wedge (spacing 2 m, max_speed 3, radius 0.4, reciprocal over
-- formation_slot + avoid_walls, collide on) cross a wall through a 4 m gap
-- to a target 170 m past it, with no help from the script. Prints, for
-- narrow = false (the wedge as it was: the anchor's motion moderator holds
-- the jammed shape), how many get through in 150 s; then for the default
-- (the formation narrows to a column before the gap and forms up past
-- it): when all are through, how long the wedge takes to form up again
-- after that (not narrowed, every member within 0.5 m of its slot), and
-- whether a member crossed the wall's line outside the gap. The same for
-- 12 members and a 3 m gap (the spec's case); then both with narrow =
-- "files" (as many files as the gap's width allows: 2 through 4 m).
--   LUA_CPATH='build/?.so' lua5.4 bench/formation_gap.lua
local steer = require "steer"

local function len(v) return math.sqrt(v.x * v.x + v.y * v.y) end

local function run(n, gap, narrow)
  local w = steer.world{ seed = 1, dt = 1 / 30, size = { 600, 400 }, collide = true }
  w:add_wall{ from = { 30, -60 }, to = { 30, -gap / 2 } }
  w:add_wall{ from = { 30, gap / 2 }, to = { 30, 60 } }
  local f = steer.formation{ pattern = "wedge", spacing = 2, position = steer.vec(0, 0), target = steer.vec(200, 0),
                             narrow = narrow }
  local brain = steer.reciprocal{ steer.blend{ { steer.formation_slot{ formation = f }, 1 }, { steer.avoid_walls{}, 1 } } }
  local ms, last = {}, {}
  for i = 1, n do
    ms[i] = w:spawn{ position = { -40 + (i % 8) * 2, -20 + 2 * math.floor(i / 8) }, max_speed = 3, max_force = 10,
                     radius = 0.4, brain = brain }
    f:add(ms[i])
    last[i] = ms[i].position
  end
  local through, all_through, back, breach = 0, nil, nil, false
  for t = 1, 30 * 150 do
    w:step(1)
    local worst = 0
    through = 0
    for i, a in ipairs(ms) do
      local p, q = last[i], a.position
      if (p.x < 30) ~= (q.x < 30) and math.abs(p.y + (q.y - p.y) * (30 - p.x) / (q.x - p.x)) > gap / 2 then
        breach = true
      end
      last[i] = q
      if q.x > 30.5 then through = through + 1 end
      worst = math.max(worst, len(a:slot() - q))
    end
    if all_through and not back and not f.narrowed and worst < 0.5 then back = t end
    if through == n and not all_through then all_through = t end
  end
  return through, all_through, back, breach
end

local through = run(40, 4, false)
print(string.format("narrow = false: %d of 40 through the 4 m gap in 150 s", through))
for _, narrow in ipairs{ "column", "files" } do
  for _, c in ipairs{ { 40, 4 }, { 12, 3 } } do
    local _, all, back, breach = run(c[1], c[2], narrow)
    print(string.format("narrowing (%s): all %d through the %g m gap at %s, back in the wedge %s later%s",
      narrow, c[1], c[2], all and string.format("%.1f s", all / 30) or "not in 150 s",
      all and back and string.format("%.1f s", (back - all) / 30) or "not",
      breach and "; a member crossed the wall outside the gap" or "; none crossed the wall outside the gap"))
  end
end
