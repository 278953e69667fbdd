-- SPDX-License-Identifier: MIT
-- predator.lua — roams until prey comes within `hunt_range`, then pursues
-- the nearest; a prey it reaches is caught (removed, and counted in
-- a.data.caught). It tires: after `chase_time` seconds of a fruitless
-- chase it rests (roams slowly) for `rest_time`.
--
--   local predator = require "steer.archetypes.predator"
--   w:spawn(predator.archetype, { position = {...} })
local steer = require "steer"

local M = {}

M.params = {
  hunt_range = 25,       -- metres
  catch_distance = 0.9,  -- metres between centres
  chase_time = 12,       -- seconds before it gives up a chase
  rest_time = 4,
  prey_tag = "prey",
}

M.vehicle = { max_speed = 3.6, max_force = 7, radius = 0.6, mass = 1.5 }

local function safe(b, name)
  return steer.priority{ steer.avoid_obstacles{ lookahead = 1, name = "obstacles" },
                         steer.contain{ margin = 2, name = "bounds" }, b, name = name }
end

M.brains = {
  roam = safe(steer.wander{ speed = 1.5, name = "roam" }, "roam"),
  hunt = safe(steer.pursue{ max_prediction = 1.5, name = "pursue" }, "hunt"),
}

function M.think(a, dt)
  local w, s = a.world, a.data
  if s.rest and s.rest > 0 then
    s.rest = s.rest - dt
    return
  end
  local prey = w:neighbors(a.position, M.params.hunt_range, M.params.prey_tag)[1]
  if not prey then
    a.target, a.brain, s.chase = nil, M.brains.roam, nil
    return
  end
  if a.position:dist(prey.position) < a.radius + prey.radius + M.params.catch_distance then
    prey:remove()
    s.caught = (s.caught or 0) + 1
    s.chase = nil
    return
  end
  s.chase = (s.chase or 0) + dt
  if s.chase > M.params.chase_time then -- exhausted
    a.target, a.brain, s.chase, s.rest = nil, M.brains.roam, nil, M.params.rest_time
    return
  end
  a.target, a.brain = prey, M.brains.hunt
end

M.archetype = steer.archetype{ name = "predator", vehicle = M.vehicle, brain = M.brains.roam, think = M.think,
                               think_hz = 8 }

return M
