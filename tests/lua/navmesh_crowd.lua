-- SPDX-License-Identifier: MIT
-- navmesh_crowd.lua — issue 32 item 5's scene: people of three sizes (radii
-- 0.2, 0.3 and 0.45 m) crossing an office floor of rooms, a corridor and
-- 1 m doors, steer.reciprocal wrapping steer.navigate, the mesh's walls the
-- world's. run(dt) gives { arrived, n, time, worst }: how many arrived of
-- n within 200 s, when the last did, and the deepest overlap of a pair
-- in radii of the smaller (sampled every 4th tick). navmesh_crowd_spec.lua
-- checks the goal (check) at 1/60 s; navmesh_crowd_goals.lua at 0.25 s.
local steer = require "steer"

local M = {}

local function box(x0, y0, x1, y1) return { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } } end

-- Three 10 x 10 rooms (x 0 .. 30, y 13 .. 23) on a 3 m corridor (y 10 .. 13)
-- through 1 m doors, and a hall (x 30 .. 40) at the corridor's end.
local function office()
  local T, walls = 0.2, {}
  local function wall(...) walls[#walls + 1] = box(...) end
  local x = 0
  for _, dx in ipairs { 5, 15, 25 } do
    wall(x, 13 - T / 2, dx - 0.5, 13 + T / 2)
    x = dx + 0.5
  end
  wall(x, 13 - T / 2, 30, 13 + T / 2)
  wall(10 - T / 2, 13, 10 + T / 2, 23)
  wall(20 - T / 2, 13, 20 + T / 2, 23)
  wall(0, 0, 30, 10)
  wall(30 - T / 2, 13, 30 + T / 2, 23)
  return steer.navmesh{ outline = box(0, 0, 40, 23), obstacles = walls }
end

-- 24 leave the rooms for the hall, 12 go from the hall into the rooms.
function M.run(dt)
  local nm = office()
  local w = steer.world{ dt = dt }
  w:add_navmesh(nm)
  local brain = steer.reciprocal{ steer.navigate{ navmesh = nm, slow_radius = 1, stop_radius = 0.3 } }
  local sizes, agents, k = { 0.2, 0.3, 0.45 }, {}, 0
  local function spawn(p, target)
    k = k + 1
    agents[#agents + 1] = w:spawn{ position = p, radius = sizes[k % 3 + 1], max_speed = 1.3, max_force = 5,
                                   brain = brain, target = target }
  end
  for r = 0, 2 do
    for i = 1, 8 do
      spawn({ r * 10 + 1.5 + (i - 1) % 4 * 2, 15 + math.floor((i - 1) / 4) * 4 }, { 33 + (k % 5) * 1.5, 2 + math.floor(k / 5) * 1.5 })
    end
  end
  for i = 1, 12 do
    spawn({ 32 + (i - 1) % 4 * 2, 15 + math.floor((i - 1) / 4) * 2.5 }, { (i - 1) % 3 * 10 + 2 + (i % 4) * 1.8, 20 })
  end
  local arrived, worst, t = 0, 0, 0
  w:on("arrive", function() arrived = arrived + 1 end)
  while t < 200 and arrived < #agents do
    w:step(1)
    t = t + dt
    for i = 1, #agents, w.tick % 4 == 0 and 1 or #agents + 1 do -- every 4th tick: 2 cm apart at 1/60 s
      local a = agents[i]
      for j = i + 1, #agents do
        local b = agents[j]
        local o = (a.radius + b.radius - a.position:dist(b.position)) / math.min(a.radius, b.radius)
        if o > worst then worst = o end
      end
    end
  end
  return { arrived = arrived, n = #agents, time = t, worst = worst }
end

-- The goal at dt, with a spec's expect: all arrive, no pair deeper than 0.1 r.
function M.check(expect, dt)
  local r = M.run(dt)
  local what = ("%d of %d in %.1f s, deepest %.3f r"):format(r.arrived, r.n, r.time, r.worst)
  expect(r.arrived, what):eq(r.n)
  expect(r.worst, what):le(0.1)
end

return M
