-- SPDX-License-Identifier: MIT
-- pedestrian.lua — a person in a crowd: walks to a goal (a.target) or along
-- a path, giving way to others by unaligned collision avoidance (each does
-- half the yielding), keeping a little personal space, and off walls.
--
--   local ped = require "steer.archetypes.pedestrian"
--   w:spawn(ped.archetype, { position = {...}, target = {...} })   -- to a goal
--   ped.spawn(w, { position = {...}, path = { {...}, {...} } })    -- along a path
local steer = require "steer"

local M = {}

M.params = {
  responsibility = 0.5,  -- share of the yielding (0 never yields, 1 does it all)
  horizon = 3,           -- seconds of look-ahead for collisions
  personal_space = 0.9,  -- metres between centres
}

M.vehicle = { max_speed = 1.4, max_force = 3, radius = 0.3, mass = 1 }

local function walk(goal)
  local p = M.params
  return steer.priority{
    steer.avoid_walls{ whiskers = 3, length = 1.5, name = "walls" },
    steer.blend{
      { steer.avoid_agents{ horizon = p.horizon, responsibility = p.responsibility, name = "give way" }, 2 },
      { steer.separation{ radius = p.personal_space, name = "space" }, 1 },
      { goal, 1 },
      name = "walk",
    },
    name = "pedestrian",
  }
end

-- To a.target, braking on arrival.
M.brain = walk(steer.arrive{ slow_radius = 2, stop_radius = 0.3, name = "to goal" })

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
