-- Mod "horde": a zombie horde, written as a mod, that hunts the herder's
-- sheep across the game's pasture. It builds a navigation grid of the
-- pasture (the pond blocked), one flow field toward the flock that its
-- zombies follow, and a think for each zombie: twice a second it looks for
-- a sheep nearby and gives chase, or goes back to the field. Every call of
-- it, the thinks too, runs in this mod's sandbox under its limits
-- (docs/mods.md, "Per-agent Lua").
local steer = require "steer"

local CELL, NX, NY = 2, 60, 40 -- the pasture, 120 by 80 m
local POND, POND_R = { 60, 40 }, 10 -- the game's pond (8 m) and a margin
local ZOMBIES, SIGHT = 40, 10

-- Row 1 of a map is the top (the largest y).
local rows = {}
for j = 1, NY do
  local y, row = (NY - j + 0.5) * CELL, {}
  for i = 1, NX do
    local x = (i - 0.5) * CELL
    row[i] = (x - POND[1]) ^ 2 + (y - POND[2]) ^ 2 < POND_R ^ 2 and "#" or "."
  end
  rows[j] = table.concat(row)
end
local grid = steer.grid{ cell = CELL, map = rows }
local field = grid:flow_field{ goal = { 100, 20 } }

local function crowd(goal)
  return steer.blend{
    { goal, 1 },
    { steer.separation{ radius = 1.5, tag = "zombie" }, 2 },
    { steer.avoid_obstacles{}, 4 },
  }
end
local follow = crowd(steer.follow_flow{ field = field, stop_radius = 2 })
local chase = crowd(steer.pursue{ max_prediction = 1 })

-- A sheep within sight: chase it; else follow the field to the flock.
local function think(a)
  local sheep = a.world:neighbors(a.position, SIGHT, "sheep")[1]
  if sheep then
    a.target = sheep
    if a.brain ~= chase then a.brain = chase end
  elseif a.brain ~= follow then
    a.brain = follow
  end
end

return {
  setup = function(w)
    for i = 1, ZOMBIES do
      w:spawn{ position = { 104 + i % 5 * 2, 8 + i // 5 * 2 }, max_speed = 1.6, max_force = 5,
                            radius = 0.4, tag = "zombie", brain = follow, think = think, think_hz = 2 }
    end
  end,

  update = function(w)
    -- the field's goal follows the flock's centre (a small move is a repair)
    if w.tick % 30 ~= 0 then return end
    local x, y, n = 0, 0, 0
    for s in w:agents("sheep") do
      local sx, sy = s:xy()
      x, y, n = x + sx, y + sy, n + 1
    end
    if n == 0 then return end
    local goal = { math.min(math.max(x / n, 1), 119), math.min(math.max(y / n, 1), 79) }
    if not grid:blocked(goal) then field:set_goal(goal) end
  end,

  -- the horde's own state is the world's: nothing of its own to keep
}
