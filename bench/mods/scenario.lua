-- The bench's scenario: 200 wanderers, so a tick has some work of its own.
local steer = require "steer"
return {
  world = { size = { 200, 200 }, seed = 5 },
  setup = function(w)
    local brain = steer.wander{ radius = 2, distance = 4, jitter = 1 }
    for i = 1, 200 do w:spawn{ position = { i, (i * 37) % 200 }, max_speed = 2, max_force = 4, brain = brain } end
  end,
}
