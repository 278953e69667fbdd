-- SPDX-License-Identifier: MIT
-- pedestrian.lua — a person in a crowd: walks to a goal (a.target) or along
-- a path, giving way to others by velocity obstacles (steer.reciprocal,
-- ORCA: each does half the yielding, passing on the right), keeping
-- personal space, and off walls (whiskers steer round them, the
-- solve keeps the person out of them). People sent to one spot stand round
-- it (arrive's free_spot) instead of pressing in.
--
--   local ped = require "steer.archetypes.pedestrian"
--   w:spawn(ped.archetype, { position = {...}, target = {...} })   -- to a goal
--   ped.spawn(w, { position = {...}, path = { {...}, {...} } })    -- along a path
local steer = require "steer"

local M = {}

M.params = {
  responsibility = 0.5,  -- share of the yielding (0 never yields, 1 does it all)
  horizon = 3,           -- seconds of look-ahead for collisions
  personal_space = 0.6,  -- metres kept between centres (0.6: shoulder to shoulder; more slows a dense crowd)
}

M.vehicle = { max_speed = 1.4, max_force = 3, radius = 0.3, mass = 1 }

local function walk(goal)
  local p = M.params
  return steer.reciprocal{
    steer.priority{ steer.avoid_walls{ whiskers = 3, length = 1.5, name = "walls" }, goal, name = "walk" },
    horizon = p.horizon,
    responsibility = p.responsibility,
    margin = math.max(0, p.personal_space - 2 * M.vehicle.radius),
    name = "pedestrian",
  }
end

-- To a.target, braking on arrival; where others already stand on it, at
-- the nearest free spot.
M.brain = walk(steer.arrive{ slow_radius = 2, stop_radius = 0.3, free_spot = true, name = "to goal" })

M.archetype = steer.archetype{ name = "pedestrian", vehicle = M.vehicle, brain = M.brain }

-- Spawn a pedestrian that walks along `path` (a list of points) instead of
-- to a.target; the other fields are w:spawn's.
function M.spawn(w, fields)
  local f = {}
  for k, v in pairs(fields) do f[k] = v end
  local path = assert(f.path, "pedestrian.spawn: field 'path' expects a list of at least 2 points")
  f.path = nil
  f.position = f.position or path[1]
  f.brain = walk(steer.follow_path{ path = path, radius = 0.5, name = "along path" })
  return w:spawn(M.archetype, f)
end

return M
