-- SPDX-License-Identifier: MIT
-- narrow.lua — small crowds in narrow places (issue 31), built and scored
-- the way `steer-bench crowd` builds and scores its doorway and bottleneck
-- (bench/crowd_scen.c), at a size a spec can run: pedestrians of radius
-- 0.3 m, 1.4 m/s, mass 1 and max_force 8 x max_speed, walking with
-- reciprocal{ arrive{ slow_radius = 3, stop_radius = 0.2 } }; walls as
-- w:add_wall segments; where a scene gives a waypoint, an agent heads for
-- it at full speed (seek in arrive's place, no braking in the gap) until it
-- is past it along its normal (beyond the wall), then for its goal
-- (and for the waypoint again when pushed back), as crowd_scene_target and
-- steer-bench crowd do. crowd_narrow_spec.lua checks what holds today;
-- crowd_narrow_goals.lua what issue 31 asks for.
--
-- On a navigation mesh (issue 32; doorway and bottleneck take `mesh`): the
-- ground (a box round the wall) less the walls, each thickened by
-- WALL_HALF either side, is a steer.navmesh whose walls are the world's
-- (w:add_navmesh; the segments themselves are not added), and every walker
-- has reciprocal{ navigate{ navmesh, slow_radius = 3, stop_radius = 0.2 } }
-- with its goal as target, no waypoint: the mesh gives the way, as
-- `steer-bench crowd --nav mesh` does. navmesh_narrow_spec.lua checks it.
--
--   local narrow = require "narrow"
--   local r = narrow.run(narrow.doorway(1 / 60))
--   narrow.run(narrow.with(narrow.doorway(0.25), { max_overlap = 0.35 }))
--   r.time (s, nil: not all through by the limit), r.through, r.n,
--   r.deepest_r (deepest overlap of two agents, in radii), r.pairs (the
--   distinct pairs that at some tick overlapped by more than 10% of a
--   radius, the benchmark's overlap_pairs),
--   r.wall_depth (m: the deepest a disc went into a wall, its radius less
--   its centre's distance to the wall; <= 0 when none touched one),
--   r.crossed (agents whose centre went through a wall between two ticks)
local steer = require "steer"

local M = {}

M.radius = 0.3
M.speed = 1.4
local ARRIVE_M = 1 -- as the benchmark: within 1 m of the goal counts as there

-- reciprocal{ goal } with `fields` (nil: none) set on the reciprocal.
local function reciprocal(goal, fields)
  local desc = { goal }
  for k, v in pairs(fields or {}) do desc[k] = v end
  return steer.reciprocal(desc)
end

-- The brain to the goal: arrive at it, or find the way on the mesh nm.
local function brain(fields, nm)
  local goal = nm and steer.navigate{ navmesh = nm, slow_radius = 3, stop_radius = 0.2 }
    or steer.arrive{ slow_radius = 3, stop_radius = 0.2 }
  return reciprocal(goal, fields)
end

-- The brain on the way to a waypoint: full speed towards it.
local function en_route(fields)
  return reciprocal(steer.seek{}, fields)
end

M.WALL_HALF = 0.01 -- m: half a wall's thickness on a mesh, as bench/crowd_scen.h's CROWD_WALL_HALF

-- The segment s as a quad WALL_HALF thick either side (not past its ends).
local function thick(s)
  local ex, ey = s[3] - s[1], s[4] - s[2]
  local len = math.sqrt(ex * ex + ey * ey)
  local nx, ny = -ey / len * M.WALL_HALF, ex / len * M.WALL_HALF
  return { { s[1] - nx, s[2] - ny }, { s[3] - nx, s[4] - ny }, { s[3] + nx, s[4] + ny }, { s[1] + nx, s[2] + ny } }
end

-- A scene: a world of step dt, its walls, its people (agent, goal and
-- optional waypoint with normal) and its time limit; with `ground` (a
-- ring), on the navigation mesh of the ground less the walls.
local function scene(dt, walls, limit, ground)
  local w = steer.world{ seed = 1, dt = dt }
  local nm
  if ground then
    local obstacles = {}
    for k, s in ipairs(walls) do obstacles[k] = thick(s) end
    nm = steer.navmesh{ outline = ground, obstacles = obstacles }
    w:add_navmesh(nm)
  else
    for _, s in ipairs(walls) do w:add_wall{ from = { s[1], s[2] }, to = { s[3], s[4] } } end
  end
  return { w = w, walls = walls, people = {}, limit = limit, nm = nm, brain = brain(nil, nm), en_route = en_route() }
end

-- A person from (x, y) to goal (gx, gy), by way of via {x, y, nx, ny} if
-- given; brainless (standing, avoiding nobody) when `still`.
local function person(s, x, y, gx, gy, via, still)
  if s.nm then via = nil end -- on a mesh the way is the mesh's
  local p = { goal = steer.vec(gx, gy), via = via, past = not via }
  p.a = s.w:spawn{ position = { x, y }, max_speed = M.speed, max_force = 8 * M.speed, radius = M.radius,
                   brain = not still and (via and s.en_route or s.brain) or nil, target = via and steer.vec(via[1], via[2]) or p.goal }
  p.still = still
  s.people[#s.people + 1] = p
  return p
end

-- The wall on x = 0 from y = -20 to 20 with a gap of `gap` m at its middle.
local function door_wall(gap)
  return { { 0, -20, 0, -gap / 2 }, { 0, gap / 2, 0, 20 } }
end

-- The ground round the door wall, for a scene on a mesh (nil: none).
local function door_ground(mesh)
  return mesh and { { -20, -20 }, { 20, -20 }, { 20, 20 }, { -20, 20 } } or nil
end

-- Two groups of `cols` x `rows` (1 m apart) at x = -(6 ..) and 6 .. swap
-- sides through a 2 m gap, each keeping right: its waypoint is the middle
-- of the gap's half on its right (the benchmark's doorway, 2 x 50 there).
-- `mesh`: on a mesh, no waypoints.
function M.doorway(dt, cols, rows, mesh)
  cols, rows = cols or 2, rows or 5
  local s = scene(dt, door_wall(2), 120, door_ground(mesh))
  for side = -1, 1, 2 do
    for col = 0, cols - 1 do
      for row = 0, rows - 1 do
        local x, y = side * (6 + col), row - (rows - 1) / 2
        person(s, x, y, -x, y, { 0, side * 0.5, -side, 0 })
      end
    end
  end
  return s
end

-- The walls of a corridor `width` m wide along y = 0 from x = -15 to 15.
local function corridor(width)
  return { { -15, -width / 2, 15, -width / 2 }, { -15, width / 2, 15, width / 2 } }
end

-- `cols` x `rows` people (1 m apart, the front column at x = -5) all
-- through a gap of `gap` m in the wall on x = 0, by way of its middle, to
-- the same grid 10 m on: a queue forms at the gap. `mesh`: on a mesh, no
-- waypoints.
function M.bottleneck(dt, gap, cols, rows, mesh)
  cols, rows = cols or 4, rows or 5
  local s = scene(dt, door_wall(gap), 120, door_ground(mesh))
  for col = 0, cols - 1 do
    for row = 0, rows - 1 do
      local x, y = -5 - col, row - (rows - 1) / 2
      person(s, x, y, x + 10 + cols, y, { 0, 0, 1, 0 })
    end
  end
  return s
end

-- A corridor `width` m wide (default 2: 0.7 m either side of the one
-- standing, room for a 0.6 m walker) from x = -15 to 15, with a person
-- standing still in its middle (no brain: it yields to nobody), and `n`
-- walkers in single file on its centre line behind it (1 m apart, the
-- first 5 m before it), each to 20 m on: they must all get round it.
function M.still(dt, n, width)
  n, width = n or 10, width or 2
  local s = scene(dt, corridor(width), 120)
  person(s, 0, 0, 0, 0, nil, true)
  for k = 0, n - 1 do person(s, -5 - k, 0, 15 - k, 0) end
  return s
end

-- A person standing on his goal at the origin beside a wall on x = 0.9
-- (a walker's width from him), and one walking from 4 m behind him to the
-- spot 2 m past him: the walker slides along him into the gap by the wall,
-- where only the one standing can make room.
function M.holder(dt)
  local s = scene(dt, { { 0.9, -20, 0.9, 20 } }, 60)
  person(s, 0, 0, 0, 0)
  person(s, 0, -4, 0, 2)
  return s
end

-- A corridor `width` m wide (default 2.4) used both ways: at each end
-- `cols` x `rows` people (1 m apart along it from 2 m off its middle,
-- spread evenly across it) walk head-on to the same formation 20 m on; no
-- waypoints: the two flows must make lanes, and nobody may wait for good
-- on someone waiting on him.
function M.counter(dt, cols, rows, width)
  cols, rows, width = cols or 3, rows or 2, width or 2.4
  local s = scene(dt, corridor(width), 120)
  for side = -1, 1, 2 do
    for col = 0, cols - 1 do
      for row = 0, rows - 1 do
        local x = side * (2 + col)
        local y = rows > 1 and (row / (rows - 1) - 0.5) * (width - 2 * M.radius - 0.2) or 0
        person(s, x, y, x - side * 20, y)
      end
    end
  end
  return s
end

-- Distance from (x, y) to the segment s.
local function to_segment(s, x, y)
  local ex, ey = s[3] - s[1], s[4] - s[2]
  local t = ((x - s[1]) * ex + (y - s[2]) * ey) / (ex * ex + ey * ey)
  t = math.max(0, math.min(1, t))
  local dx, dy = x - s[1] - t * ex, y - s[2] - t * ey
  return math.sqrt(dx * dx + dy * dy)
end

-- Which side of the line a -> b the point p is on (the cross product's sign).
local function side_of(ax, ay, bx, by, px, py) return (bx - ax) * (py - ay) - (by - ay) * (px - ax) end

-- Whether the step (x0, y0) -> (x1, y1) goes through the segment s.
local function crosses(s, x0, y0, x1, y1)
  local s0, s1 = side_of(s[1], s[2], s[3], s[4], x0, y0), side_of(s[1], s[2], s[3], s[4], x1, y1)
  local sa, sb = side_of(x0, y0, x1, y1, s[1], s[2]), side_of(x0, y0, x1, y1, s[3], s[4])
  return s0 * s1 < 0 and sa * sb < 0
end

-- Layout k of the scene s (as the benchmark's --jitter k): every person's
-- start moved by up to 5 cm in x and in y, from a Park-Miller stream seeded
-- by k (exact in a double on every Lua); layout 0 is the scene itself. The
-- doorway is symmetric under the half turn, and without waypoints to keep
-- each flow right, so is its jam: layouts compare it fairly.
function M.jitter(s, k)
  if k == 0 then return s end
  local seed = k
  local function offset()
    seed = (seed * 16807) % 2147483647
    return (seed / 2147483647 - 0.5) * 0.1
  end
  for _, p in ipairs(s.people) do
    local x, y = p.a:xy()
    p.a.position = steer.vec(x + offset(), y + offset())
  end
  return s
end

-- The scene s with `fields` set on every walker's reciprocal, e.g.
-- narrow.with(narrow.bottleneck(0.25, 1.2), { max_overlap = 0.35 }).
function M.with(s, fields)
  s.brain, s.en_route = brain(fields, s.nm), en_route(fields)
  for _, p in ipairs(s.people) do
    if not p.still then p.a.brain = p.past and s.brain or s.en_route end
  end
  return s
end

-- The deepest overlap of two of the agents this tick, in radii; every pair
-- deeper than 10% of a radius goes into the set `seen` (key i * n + j).
local function overlaps(agents, seen)
  local xs, ys, n, worst = {}, {}, #agents, 0
  for i, a in ipairs(agents) do xs[i], ys[i] = a:xy() end
  for i = 1, n - 1 do
    for j = i + 1, n do
      local dx, dy = xs[j] - xs[i], ys[j] - ys[i]
      local o = (2 * M.radius - math.sqrt(dx * dx + dy * dy)) / M.radius
      if o > worst then worst = o end
      if o > 0.1 then seen[i * n + j] = true end
    end
  end
  return worst
end

-- Steps the scene until every walker (the still person aside) has been
-- within 1 m of its goal, or its time limit; scores it (see the header).
function M.run(s)
  local agents, walkers = {}, 0
  for i, p in ipairs(s.people) do
    agents[i] = p.a
    p.x, p.y = p.a:xy()
    if not p.still then walkers = walkers + 1 end
  end
  local r = { n = walkers, through = 0, deepest_r = 0, wall_depth = -math.huge, crossed = 0, pairs = 0 }
  local seen = {}
  while s.w.time < s.limit - 1e-9 do
    s.w:step()
    for _, p in ipairs(s.people) do
      local x, y = p.a:xy()
      if p.via then
        local v = p.via
        local dx, dy = x - v[1], y - v[2]
        local past = dx * v[3] + dy * v[4] > 0
        if past ~= p.past then
          p.past = past
          p.a.target = past and p.goal or steer.vec(v[1], v[2])
          p.a.brain = past and s.brain or s.en_route
        end
      end
      for _, wall in ipairs(s.walls) do
        r.wall_depth = math.max(r.wall_depth, M.radius - to_segment(wall, x, y))
        if not p.crossed and crosses(wall, p.x, p.y, x, y) then p.crossed, r.crossed = true, r.crossed + 1 end
      end
      if not p.still and not p.there and p.a.position:dist(p.goal) <= ARRIVE_M then
        p.there, r.through = true, r.through + 1
      end
      p.x, p.y = x, y
    end
    r.deepest_r = math.max(r.deepest_r, overlaps(agents, seen))
    if r.through == walkers then
      r.time = s.w.time
      break
    end
  end
  for _ in pairs(seen) do r.pairs = r.pairs + 1 end
  return r
end

M.WALL_EPS = 1e-3 -- m: a disc this far into a wall counts as touching it

-- A spec's check that the run r kept everyone out of the walls and on its side of them.
function M.walls_kept(expect, r, what)
  expect(r.wall_depth, what .. ": deepest into a wall (m); " .. M.show(r)):le(M.WALL_EPS)
  expect(r.crossed, what .. ": agents through a wall; " .. M.show(r)):eq(0)
end

-- The median of the times of layouts 1..n of scene make() (a layout not
-- all through by its limit counts as the longest), and the runs' results.
function M.median_time(make, n)
  local times, runs = {}, {}
  for k = 1, n do
    local r = M.run(M.jitter(make(), k))
    runs[k], times[k] = r, r.time or math.huge
  end
  table.sort(times)
  local h = math.floor(#times / 2)
  local m = #times % 2 == 1 and times[h + 1] or 0.5 * (times[h] + times[h + 1])
  return m, runs
end

-- One line of a run's figures, for a failure message or a measurement.
function M.show(r)
  return ("through %d/%d time %s pairs %d deepest_r %.3f wall_depth %.3f crossed %d"):format(
    r.through, r.n, r.time and ("%.2f s"):format(r.time) or "never", r.pairs, r.deepest_r, r.wall_depth, r.crossed)
end

return M
