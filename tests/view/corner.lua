-- SPDX-License-Identifier: MIT
-- corner.lua — an agent in the world's top right corner, where the
-- inspector's panel opens, and its target in the bottom right: the panel
-- must go to a left corner to keep both in sight.
local steer = require "steer"

return {
  world = { dim = 2, size = { 100, 60 }, seed = 4 },
  setup = function(w)
    w:spawn{ position = { 96, 56 }, tag = "one", radius = 1, max_speed = 0.001, target = { 96, 4 },
             brain = steer.priority{ steer.flee{ panic_radius = 0.1 }, steer.blend{ { steer.seek{}, 2 },
                                                                                  { steer.wander{}, 1 } } } }
    w:spawn{ position = { 4, 4 }, tag = "one", radius = 1 } -- so that the world is framed
  end,
  draw = function() end,
}
