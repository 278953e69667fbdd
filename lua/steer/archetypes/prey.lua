-- SPDX-License-Identifier: MIT
-- prey.lua — flocks with its kind and, when a predator comes within
-- `flee_range`, evades the nearest one (still keeping its flock together
-- a little, so the herd scatters and regroups rather than freezing).
--
--   local prey = require "steer.archetypes.prey"
--   w:spawn(prey.archetype, { position = {...} })
local steer = require "steer"

local M = {}

M.params = {
  flee_range = 12,          -- metres: a predator closer than this is a threat
  predator_tag = "predator",
  neighbour_radius = 5,
}

M.vehicle = { max_speed = 3, max_force = 6, radius = 0.4, mass = 1 }

local function flock(extra)
  local r = M.params.neighbour_radius
  local b = {
    { steer.separation{ radius = 1.5, tag = "prey", name = "separation" }, 1.5 },
    { steer.alignment{ radius = r, tag = "prey", name = "alignment" }, 0.6 },
    { steer.cohesion{ radius = r, tag = "prey", name = "cohesion" }, 0.6 },
    { steer.wander{ speed = 1, name = "graze" }, 0.3 },
    name = extra and "flee" or "herd",
  }
  if extra then table.insert(b, 1, extra) end
  return steer.priority{ steer.avoid_obstacles{ lookahead = 1, name = "obstacles" },
                         steer.contain{ margin = 2, name = "bounds" }, steer.blend(b), name = b.name }
end

M.brains = {
  herd = flock(),
  -- a.target is the predator: evade predicts where it will be
  flee = flock({ steer.evade{ max_prediction = 1, name = "evade" }, 4 }),
}

function M.think(a)
  local threat = a.world:neighbors(a.position, M.params.flee_range, M.params.predator_tag)[1]
  if threat then
    a.target = threat
    a.brain = M.brains.flee
  else
    a.target = nil
    a.brain = M.brains.herd
  end
end

M.archetype = steer.archetype{ name = "prey", vehicle = M.vehicle, brain = M.brains.herd, think = M.think,
                               think_hz = 6 }

return M
