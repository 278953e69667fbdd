-- SPDX-License-Identifier: MIT
-- boid.lua — Reynolds' boid: separation, alignment and cohesion among its
-- own kind, a little wander so a still flock comes alive, and obstacles
-- avoided before anything else.
--
-- Walls: a boid sees only obstacles (circles), as a flock in open air
-- does. It flies through walls (w:add_wall, the walls of w:add_grid)
-- unless the world keeps agents out of them: give a walled world
-- `collide = true` (steer.world{ collide = true }) and boids slide along
-- its walls and never cross one. Whiskers (steer.avoid_walls, as the
-- guard's) leak at corners at a boid's speed and turning force.
--
--   local boid = require "steer.archetypes.boid"
--   for i = 1, 200 do w:spawn(boid.archetype, { position = {...} }) end
local steer = require "steer"

local M = {}

M.params = {
  neighbour_radius = 5,  -- metres: alignment and cohesion
  personal_space = 2,    -- metres: separation
  weights = { separation = 1.5, alignment = 1, cohesion = 1, wander = 0.2 },
}

M.vehicle = { max_speed = 2, max_force = 1.5, radius = 0.3, mass = 1 }

local p, wt = M.params, M.params.weights
M.brain = steer.priority{
  steer.avoid_obstacles{ lookahead = 2.5, name = "obstacles" },
  steer.blend{
    { steer.separation{ radius = p.personal_space, tag = "boid", name = "separation" }, wt.separation },
    { steer.alignment{ radius = p.neighbour_radius, tag = "boid", name = "alignment" }, wt.alignment },
    { steer.cohesion{ radius = p.neighbour_radius, tag = "boid", name = "cohesion" }, wt.cohesion },
    { steer.wander{ name = "wander" }, wt.wander },
    name = "flock",
  },
  name = "boid",
}

M.archetype = steer.archetype{ name = "boid", vehicle = M.vehicle, brain = M.brain }

return M
