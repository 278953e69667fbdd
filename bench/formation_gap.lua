-- SPDX-License-Identifier: MIT
-- formation_gap.lua — issue 35's narrow-place figure, before narrowing is
-- built: 40 members in a wedge (spacing 2 m, max_speed 3, radius 0.4,
-- reciprocal over formation_slot + avoid_walls, collide on) cross a wall
-- through a 4 m gap to a target 170 m past it. Prints, for the wedge as it
-- is (the anchor's motion moderator holds it when the members jam), how
-- many get through in 150 s; then for the script narrowing it by hand
-- (f.pattern = "column" 10 m before the wall, "wedge" once all are
-- through): when all are through, and how long the wedge takes to form up
-- again (every member within 0.5 m of its slot).
--   LUA_CPATH='build/?.so' lua5.4 bench/formation_gap.lua
local steer = require "steer"

local function len(v) return math.sqrt(v.x * v.x + v.y * v.y) end

local function run(narrow)
  local w = steer.world{ seed = 1, dt = 1 / 30, size = { 600, 400 }, collide = true }
  w:add_wall{ from = { 30, -60 }, to = { 30, -2 } }
  w:add_wall{ from = { 30, 2 }, to = { 30, 60 } }
  local f = steer.formation{ pattern = "wedge", spacing = 2, position = steer.vec(0, 0), target = steer.vec(200, 0) }
  local brain = steer.reciprocal{ steer.blend{ { steer.formation_slot{ formation = f }, 1 }, { steer.avoid_walls{}, 1 } } }
  local ms = {}
  for i = 1, 40 do
    ms[i] = w:spawn{ position = { -40 + (i % 8) * 2, -20 + 2 * math.floor(i / 8) }, max_speed = 3, max_force = 10,
                     radius = 0.4, brain = brain }
    f:add(ms[i])
  end
  local through, all_through, back, narrowed = 0, nil, nil, false
  for t = 1, 30 * 150 do
    w:step(1)
    local worst = 0
    through = 0
    for _, a in ipairs(ms) do
      if a.position.x > 30.5 then through = through + 1 end
      worst = math.max(worst, len(a:slot() - a.position))
    end
    if all_through and t > all_through and not back and worst < 0.5 then back = t end
    if narrow and not narrowed and f.position.x > 20 then
      f.pattern = "column"
      narrowed = true
    end
    if through == #ms and not all_through then
      all_through = t
      if narrow then f.pattern = "wedge" end
    end
  end
  return through, all_through, back
end

local through = run(false)
print(string.format("wedge as it is: %d of 40 through the 4 m gap in 150 s", through))
local _, all, back = run(true)
print(string.format("narrowed by the script: all 40 through at %.1f s, back in the wedge %.1f s later", all / 30,
  (back - all) / 30))
