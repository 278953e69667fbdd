-- SPDX-License-Identifier: MIT
-- formation_gap.lua — issue 35's narrow-place figure: 40 members in a
-- shape (spacing 2 m, max_speed 3, radius 0.4, reciprocal over
-- formation_slot + avoid_walls, collide on) cross a wall through a 4 m gap
-- to a target 170 m past it, with no help from the script. Prints, for
-- narrow = false (the wedge as it is: the anchor's motion moderator holds
-- the jammed shape), how many get through in 150 s; then for each shape
-- (wedge, line, box, vee), narrowing (to a column, the default, and to files:
-- as many as the gap's width allows, 2 through 4 m) and tick (1/30, 1/60
-- and 0.25 s): when all are through (the last member's centre past the
-- wall), how long after that the shape is back (not narrowed, every
-- member within BACK = 0.5 m of its slot), and whether a member crossed
-- the wall's line outside the gap. The same for 12 members in a wedge and
-- a 3 m gap (the spec's case).
--   LUA_CPATH='build/?.so' lua5.4 bench/formation_gap.lua [pattern [dt]]
local steer = require "steer"

local BACK = 0.5 -- metres: every member this near its slot is "back in shape"

local function len(v) return math.sqrt(v.x * v.x + v.y * v.y) end

local function run(n, gap, pattern, narrow, dt)
  local w = steer.world{ seed = 1, dt = dt, size = { 600, 400 }, collide = true }
  w:add_wall{ from = { 30, -60 }, to = { 30, -gap / 2 } }
  w:add_wall{ from = { 30, gap / 2 }, to = { 30, 60 } }
  local f = steer.formation{ pattern = pattern, spacing = 2, position = steer.vec(0, 0), target = steer.vec(200, 0),
                             narrow = narrow }
  local brain = steer.reciprocal{ steer.blend{ { steer.formation_slot{ formation = f }, 1 }, { steer.avoid_walls{ escape = false }, 1 } } }
  local ms, last = {}, {}
  for i = 1, n do
    ms[i] = w:spawn{ position = { -40 + (i % 8) * 2, -20 + 2 * math.floor(i / 8) }, max_speed = 3, max_force = 10,
                     radius = 0.4, brain = brain }
    f:add(ms[i])
    last[i] = ms[i].position
  end
  local through, all_through, back, breach = 0, nil, nil, false
  for t = 1, math.floor(150 / dt + 0.5) do
    w:step(1)
    local worst = 0
    through = 0
    for i, a in ipairs(ms) do
      local p, q = last[i], a.position
      if (p.x < 30) ~= (q.x < 30) and math.abs(p.y + (q.y - p.y) * (30 - p.x) / (q.x - p.x)) > gap / 2 then
        breach = true
      end
      last[i] = q
      if q.x > 30 then through = through + 1 end
      worst = math.max(worst, len(a:slot() - q))
    end
    if through == n and not all_through then all_through = t end
    if all_through and not back and not f.narrowed and worst < BACK then back = t end
  end
  return through, all_through and all_through * dt, back and (back - all_through) * dt, breach
end

local function tick(s) -- "0.25", "1/30"
  local a, b = tostring(s):match("^(%d+)/(%d+)$")
  return a and tonumber(a) / tonumber(b) or tonumber(s)
end
local only_pattern, only_dt = arg and arg[1], arg and arg[2] and tick(arg[2])
if not only_pattern then
  local through = run(40, 4, "wedge", false, 1 / 30)
  print(string.format("narrow = false: %d of 40 wedge through the 4 m gap in 150 s", through))
end
local cases = {}
for _, p in ipairs{ "wedge", "line", "box", "vee" } do cases[#cases + 1] = { 40, 4, p } end
cases[#cases + 1] = { 12, 3, "wedge" }
for _, c in ipairs(cases) do
  for _, narrow in ipairs{ "column", "files" } do
    for _, dt in ipairs{ 1 / 30, 1 / 60, 0.25 } do
      if (not only_pattern or only_pattern == c[3]) and (not only_dt or math.abs(only_dt - dt) < 1e-9) then
        local _, all, back, breach = run(c[1], c[2], c[3], narrow, dt)
        print(string.format("%2d %-5s %g m gap, narrow %-6s dt %-6s: all through at %s, back in shape (all within %g m of their slots) %s later%s",
          c[1], c[3], c[2], narrow, dt == 0.25 and "0.25" or string.format("1/%d", math.floor(1 / dt + 0.5)),
          all and string.format("%5.1f s", all) or "never", BACK,
          back and string.format("%5.1f s", back) or "not", breach and "; A MEMBER CROSSED THE WALL" or ""))
      end
    end
  end
end
