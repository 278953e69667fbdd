-- The scenario the engine and mod tests run: a few wanderers in a box.
local steer = require "steer"
return {
  world = { size = { 100, 100 }, seed = 3 },
  setup = function(w)
    local brain = steer.wander{ radius = 2, distance = 4, jitter = 1 }
    for i = 1, 10 do
      w:spawn{ position = { 10 * i - 5, 50 }, max_speed = 2, max_force = 4, brain = brain, tag = "wanderer" }
    end
  end,
}
