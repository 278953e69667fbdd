-- Mod "herder": a flock of sheep and a dog that keeps them together. It
-- builds brains from the steer API the game lets mods use, and tells the
-- scoreboard mod how the flock is doing (messages are copied, never shared).
local steer = require "steer"
local tuning = require "tuning" -- the mod's own file

local sheep, dog = {}, nil

local function centre()
  local x, y = 0, 0
  for _, s in ipairs(sheep) do
    local p = s.position
    x, y = x + p.x, y + p.y
  end
  return x / #sheep, y / #sheep
end

return {
  setup = function(w)
    local flock = steer.blend{
      { steer.separation{ radius = 2 }, 3 },
      { steer.cohesion{ radius = 8 }, 1 },
      { steer.alignment{ radius = 6 }, 1 },
      { steer.wander{ radius = 1, distance = 3, jitter = 0.5 }, 0.5 },
      { steer.flee{ panic_radius = 5 }, 4 },       -- from the dog (their target)
      { steer.fence{ margin = 5 }, 3 },             -- the game's C behaviour
      { steer.avoid_obstacles{}, 5 },
    }
    for i = 1, tuning.sheep do
      local a = w:spawn{ position = { 20 + (i % 6) * 2, 60 + (i // 6) * 2 }, max_speed = tuning.sheep_speed,
                         max_force = 5, brain = flock, tag = "sheep" }
      sheep[#sheep + 1] = a
    end
    dog = w:spawn{ position = { 5, 70 }, max_speed = 6, max_force = 12, tag = "dog",
                   brain = steer.blend{ { steer.arrive{ slow_radius = 4 }, 1 }, { steer.avoid_obstacles{}, 3 } } }
    for _, s in ipairs(sheep) do s.target = dog end
  end,

  update = function(w)
    -- the dog circles behind the flock, on the side away from the pen
    local cx, cy = centre()
    local t = w.time * 0.3
    dog.target = { cx + 10 * math.cos(t), cy + 10 * math.sin(t) }
    if w.tick % 60 == 0 then
      local spread = 0
      for _, s in ipairs(sheep) do
        local p = s.position
        spread = math.max(spread, math.sqrt((p.x - cx) ^ 2 + (p.y - cy) ^ 2))
      end
      steer.send("scoreboard", { sheep = #sheep, spread = spread, centre = { cx, cy } })
    end
  end,
}
