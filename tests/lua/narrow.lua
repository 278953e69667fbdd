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
--   local narrow = require "narrow"
--   local r = narrow.run(narrow.doorway(1 / 60))
--   narrow.run(narrow.with(narrow.doorway(0.25), { max_overlap = 0.35 }))
--   r.time (s, nil: not all through by the limit), r.through, r.n,
--   r.deepest_r (deepest overlap of two agents, in radii),
--   r.wall_depth (m: the deepest a disc went into a wall, its radius less
--   its centre's distance to the wall; <= 0 when none touched one),
--   r.crossed (agents whose centre went through a wall between two ticks)
local steer = require "steer"
local deepest_overlap = require "scene".deepest_overlap

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

local function brain(fields)
  return reciprocal(steer.arrive{ slow_radius = 3, stop_radius = 0.2 }, fields)
end

-- The brain on the way to a waypoint: full speed towards it.
local function en_route(fields)
  return reciprocal(steer.seek{}, fields)
end

-- A scene: a world of step dt, its walls, its people (agent, goal and
-- optional waypoint with normal) and its time limit.
local function scene(dt, walls, limit)
  local w = steer.world{ seed = 1, dt = dt }
  for _, s in ipairs(walls) do w:add_wall{ from = { s[1], s[2] }, to = { s[3], s[4] } } end
  return { w = w, walls = walls, people = {}, limit = limit, brain = brain(), en_route = en_route() }
end

-- A person from (x, y) to goal (gx, gy), by way of via {x, y, nx, ny} if
-- given; brainless (standing, avoiding nobody) when `still`.
local function person(s, x, y, gx, gy, via, still)
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

-- Two groups of `cols` x `rows` (1 m apart) at x = -(6 ..) and 6 .. swap
-- sides through a 2 m gap, each keeping right: its waypoint is the middle
-- of the gap's half on its right (the benchmark's doorway, 2 x 50 there).
function M.doorway(dt, cols, rows)
  cols, rows = cols or 2, rows or 5
  local s = scene(dt, door_wall(2), 120)
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
-- the same grid 10 m on: a queue forms at the gap.
function M.bottleneck(dt, gap, cols, rows)
  cols, rows = cols or 4, rows or 5
  local s = scene(dt, door_wall(gap), 120)
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

-- The scene s with `fields` set on every walker's reciprocal, e.g.
-- narrow.with(narrow.bottleneck(0.25, 1.2), { max_overlap = 0.35 }).
function M.with(s, fields)
  s.brain, s.en_route = brain(fields), en_route(fields)
  for _, p in ipairs(s.people) do
    if not p.still then p.a.brain = p.past and s.brain or s.en_route end
  end
  return s
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
  local r = { n = walkers, through = 0, deepest_r = 0, wall_depth = -math.huge, crossed = 0 }
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
    r.deepest_r = math.max(r.deepest_r, deepest_overlap(agents, M.radius) / M.radius)
    if r.through == walkers then
      r.time = s.w.time
      break
    end
  end
  return r
end

-- Layout k of the scene s (k >= 1; 0 leaves it as it is): every start
-- moved by an offset uniform in [-5, 5] cm in x and in y, drawn person by
-- person from a Park-Miller stream seeded by k (exact in doubles, so the
-- same layout under every Lua the specs run on; the benchmark's
-- crowd_scene_jitter draws the same kind of offsets from splitmix64). An
-- exactly symmetric scene can hold a symmetric standoff that any jitter
-- breaks; medians over layouts say how a rule does.
function M.jitter(s, k)
  local state = k % 2147483646 + 1
  local function uniform(lo, hi)
    state = state * 16807 % 2147483647
    return lo + (hi - lo) * (state / 2147483647)
  end
  for _, p in ipairs(s.people) do
    local x, y = p.a:xy()
    x = x + uniform(-0.05, 0.05)
    p.a.position = { x, y + uniform(-0.05, 0.05) }
  end
  return s
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
  return ("through %d/%d time %s deepest_r %.3f wall_depth %.3f crossed %d"):format(
    r.through, r.n, r.time and ("%.2f s"):format(r.time) or "never", r.deepest_r, r.wall_depth, r.crossed)
end

return M
