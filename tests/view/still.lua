-- SPDX-License-Identifier: MIT
-- still.lua — agents that stand where setup puts them (no brain, no
-- velocity), two tags, a wall and an obstacle, and some debug drawing:
-- the viewer tests know from this file where every agent must be drawn.
local steer = require "steer"

local AGENTS = {
  { 15, 15, "one" }, { 30, 45, "one" }, { 50, 30, "two" }, { 70, 12, "two" }, { 85, 48, "one" },
}

return {
  world = { dim = 2, size = { 100, 60 }, seed = 3 },
  setup = function(w)
    for _, a in ipairs(AGENTS) do
      w:spawn{ position = { a[1], a[2] }, tag = a[3], radius = 1 }
    end
    w:add_obstacle{ position = { 60, 45 }, radius = 4 }
    w:add_wall{ from = { 10, 55 }, to = { 40, 55 } }
    -- one agent that steers, for the inspector
    w:spawn{ position = { 40, 10 }, tag = "two", radius = 1, max_speed = 0.001, max_force = 5,
             target = { 90, 10 },
             brain = steer.priority{ steer.flee{ panic_radius = 0.1 }, steer.blend{ { steer.seek{}, 2 },
                                                                                    { steer.wander{}, 1 } } } }
  end,
  draw = function(d)
    d:text(2, 58, "still life", { 255, 255, 0 })
    d:circle(50, 30, 6, { 0, 255, 0 })
    d:arrow({ 5, 5 }, { 12, 5 })
    d:point(95, 5)
    d:line(90, 2, 98, 2)
  end,
}
