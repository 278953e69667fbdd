-- The game's own scenario: a pasture with a pond in the middle. The game
-- (embed.c) owns the loop; mods add the animals.
local steer = require "steer"

return {
  world = { size = { 120, 80 }, seed = 11 },
  setup = function(w)
    w:add_obstacle{ position = { 60, 40 }, radius = 8 }
    -- the game's own wanderers, fenced in by the game's C behaviour
    local brain = steer.blend{
      { steer.wander{ radius = 2, distance = 4, jitter = 1 }, 1 },
      { steer.fence{ margin = 6 }, 3 }, -- written in C by the game (embed.c)
      { steer.avoid_obstacles{}, 4 },
    }
    for i = 1, 12 do
      w:spawn{ position = { 10 * i - 2, 8 }, max_speed = 2, max_force = 4, brain = brain, tag = "deer" }
    end
  end,
}
