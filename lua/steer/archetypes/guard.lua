-- SPDX-License-Identifier: MIT
-- guard.lua — a guard that patrols a route and chases intruders.
--
--   patrol      walk the route, point after point, pausing at each
--   pursue      an intruder is in the view cone and in line of sight
--   investigate sight lost: go to where the intruder was last seen
--   search      wander around there for `search_time` seconds
--   (then back to patrol: the route goes on from where it was left)
--
-- The think runs at `think_hz` and only chooses: which brain, which target.
-- Every brain keeps away from walls and obstacles first (a priority).
--
--   local guard = require "steer.archetypes.guard"
--   guard.spawn(w, { route = { {10, 10}, {40, 10}, {40, 40} }, position = {10, 10} })
--   -- intruders are the agents tagged guard.params.intruder_tag ("intruder")
local steer = require "steer"

local M = {}

-- Tunables: edit and save, and every guard picks them up (hot reload).
M.params = {
  view_range = 18,             -- metres
  view_angle = math.rad(110),  -- full width of the view cone
  search_time = 5,             -- seconds spent searching after losing sight
  catch_distance = 1.2,        -- metres: closer than this counts as caught
  intruder_tag = "intruder",
  pause = 1,                   -- seconds at each route point
}

M.vehicle = { max_speed = 3.2, max_force = 10, radius = 0.5, mass = 1 }

local function safely(b)
  -- keeping clear of walls and obstacles comes first; the root keeps its
  -- kind's name, "priority", for the inspector (the mode is its third child)
  return steer.priority{
    steer.avoid_walls{ whiskers = 3, length = 3, name = "walls" },
    steer.avoid_obstacles{ lookahead = 1, name = "obstacles" },
    b,
  }
end

M.brains = {
  pursue = safely(steer.pursue{ max_prediction = 1, name = "pursue" }),
  investigate = safely(steer.arrive{ slow_radius = 3, stop_radius = 0.6, name = "to last seen" }),
  search = safely(steer.wander{ distance = 3, radius = 1.5, jitter = 8, speed = 1.6, name = "search" }),
}

-- The route's patrol brain, made once per route.
local function patrol_brain(route)
  return safely(steer.patrol{ points = route, pause = M.params.pause, mode = "loop", stop_radius = 0.5, name = "patrol" })
end

-- Is `other` inside a's view cone, in range and not behind a wall?
function M.sees(w, a, other)
  local ax, ay = a:xy()
  local bx, by = other:xy()
  local dx, dy = bx - ax, by - ay
  local d = math.sqrt(dx * dx + dy * dy)
  if d > M.params.view_range then return false end
  if d > 1e-6 then
    local h = a.heading
    if (dx * h.x + dy * h.y) / d < math.cos(M.params.view_angle / 2) then return false end
  end
  return w:raycast({ ax, ay }, { dx, dy }, d, { agents = false }) == nil
end

-- The nearest intruder the guard sees, or nil.
local function spot(w, a)
  local p = a.position
  for _, other in ipairs(w:neighbors(p, M.params.view_range, M.params.intruder_tag)) do
    if M.sees(w, a, other) then return other end
  end
end

local function set_mode(a, mode)
  local s = a.data
  if s.mode == mode then return end
  s.mode = mode
  a.brain = mode == "patrol" and s.patrol or M.brains[mode]
end

function M.think(a, dt)
  local w, s = a.world, a.data
  local seen = spot(w, a)
  if seen then
    s.last_seen = seen.position
    a.target = seen
    set_mode(a, "pursue")
    if a.position:dist(seen.position) < M.params.catch_distance then s.caught = (s.caught or 0) + 1 end
    return
  end
  if s.mode == "pursue" then
    -- sight lost: go and look where it was
    a.target = s.last_seen
    set_mode(a, "investigate")
  elseif s.mode == "investigate" then
    if a.position:dist(s.last_seen) < 1.5 then
      s.search_left = M.params.search_time
      set_mode(a, "search")
    end
  elseif s.mode == "search" then
    s.search_left = s.search_left - dt
    if s.search_left <= 0 then
      a.target = nil
      set_mode(a, "patrol")
    end
  end
end

-- No brain of its own: the think chooses between the brains above.
M.archetype = steer.archetype{ name = "guard", vehicle = M.vehicle, think = M.think, think_hz = 5 }

-- Spawn a guard on `route` (at least 2 points); the other fields are
-- w:spawn's (position defaults to the route's first point).
function M.spawn(w, fields)
  local f = {}
  for k, v in pairs(fields) do f[k] = v end
  local route = assert(f.route, "guard.spawn: field 'route' expects a list of at least 2 points")
  f.route = nil
  f.position = f.position or route[1]
  local data = f.data or {}
  data.patrol, data.mode, data.route = patrol_brain(route), "patrol", route
  f.data = data
  f.brain = data.patrol
  return w:spawn(M.archetype, f)
end

return M
