-- A pasture for demos/embed's horde mod under `steer run` (the embedding
-- demo's own scenario needs its game's C behaviour): a pond in the middle
-- and a dozen sheep wandering around it, which the horde hunts.
local steer = require "steer"
return {
  world = { size = { 120, 80 }, seed = 11 },
  setup = function(w)
    w:add_obstacle{ position = { 60, 40 }, radius = 8 }
    local brain = steer.blend{
      { steer.wander{ radius = 2, distance = 4, jitter = 1 }, 1 },
      { steer.avoid_obstacles{}, 4 },
    }
    for i = 1, 12 do
      w:spawn{ position = { 10 * i - 2, 30 }, max_speed = 1, max_force = 4, brain = brain, tag = "sheep" }
    end
  end,
}
