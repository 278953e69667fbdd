-- SPDX-License-Identifier: MIT
-- wander.lua — 200 agents wandering, flocking loosely and keeping to the
-- world: every tick changes the state, so a rewind that misses anything
-- shows in the hash (the viewer's rewind tests).
local steer = require "steer"

return {
  world = { dim = 2, size = { 120, 80 }, seed = 7 },
  setup = function(w)
    for i = 1, 200 do
      w:spawn{ position = { 5 + (i * 37) % 110, 5 + (i * 53) % 70 }, tag = i % 3 == 0 and "one" or "two",
               radius = 0.6, max_speed = 6, max_force = 12,
               brain = steer.blend{ { steer.wander{}, 1 }, { steer.separation{ radius = 3 }, 2 },
                                    { steer.contain{}, 4 } } }
    end
  end,
  draw = function() end,
}
