-- SPDX-License-Identifier: MIT
-- zombie_horde.lua — two thousand zombies hunt one player through a town.
--
-- The town is a tile grid (steer.grid) of streets and houses; its walls go
-- into the world (w:add_grid) for avoid_walls and for the zombies' line of
-- sight. Every zombie (lua/steer/archetypes/zombie.lua) follows ONE flow
-- field to the player until it sees the player, then pursues; separation
-- and cohesion make the horde close round the player instead of queuing.
-- The player walks a round of the town (in the viewer: follows the mouse);
-- four times a second the field's goal moves to the player, a cheap repair
-- of the field, not a rebuild. The walls, the player and the counts are drawn.
--
-- Try: raise zombie.params.sight_range or the zombies' max_speed in
-- zombie.lua and save: the horde takes the change on the next tick.
--
-- In the viewer G shows the town's cells and L the field's arrows (the
-- README picture: steer run --headless --ticks 900 --show grid,flow
-- --screenshot docs/img/zombie_horde.png demos/zombie_horde.lua).
--
-- Headless: steer run --headless --ticks 1800 demos/zombie_horde.lua

local steer = require "steer"
local zombie = require "steer.archetypes.zombie"
local random = require "steer.random" -- the same numbers on every Lua (5.1 floats are not exact past 2^53)

local W, H, CELL = 60, 40, 2   -- cells, metres a cell: a town of 120 x 80 m
local ZOMBIES = 2000

-- Houses: blocks of 4 x 3 cells on a street plan, a few left out as squares.
local function town()
  local map = {}
  for j = 1, H do
    local row = {}
    for i = 1, W do
      local edge = i == 1 or j == 1 or i == W or j == H
      local bx, by = (i - 2) % 7, (j - 2) % 6
      local square = (math.floor((i - 2) / 7) + math.floor((j - 2) / 6)) % 5 == 2
      row[i] = (edge or (bx >= 2 and by >= 2 and not square)) and "#" or "."
    end
    map[j] = table.concat(row)
  end
  return map
end

local MAP = town()
-- The player's round, along the streets (cell centres of open cells).
local ROUND = { { 3, 3 }, { 117, 3 }, { 117, 77 }, { 3, 77 } }

-- The player (an agent) and when the field last moved to it, in
-- steer.state: hot reloads, --load and the viewer's rewind keep it (this
-- file's locals start afresh on a reload). The field to the player lives
-- in the player's a.data, as snapshots keep grids and flow fields there.
local S = steer.state

-- A random open spot at least 30 m from the player's start.
local rng = random.new(12345)
local function rand_open(grid)
  while true do
    local x = random.int(rng, W * CELL - 2)
    local y = random.int(rng, H * CELL - 2)
    local p = { x + 0.5, y + 0.5 }
    local far = (p[1] - ROUND[1][1]) ^ 2 + (p[2] - ROUND[1][2]) ^ 2 > 30 ^ 2
    if far and not grid:blocked(p) then return p end
  end
end

return {
  world = { dim = 2, size = { W * CELL, H * CELL }, seed = 5 },

  setup = function(w)
    local grid = steer.grid{ cell = CELL, map = MAP }
    w:add_grid(grid)
    local player = w:spawn{
      position = ROUND[1], tag = "player", radius = 0.5, max_speed = 2.6, max_force = 10,
      brain = steer.priority{
        steer.avoid_walls{ whiskers = 3, length = 2 },
        steer.follow_path{ path = ROUND, loop = true, radius = 1 },
      },
    }
    local field = grid:flow_field{ goal = player.position }
    for _ = 1, ZOMBIES do zombie.spawn(w, field, { position = rand_open(grid), data = { player = player } }) end
    player.data.field = field
    S.player, S.last_track = player, -1
  end,

  update = function(w)
    local player = S.player
    local field = player.data.field
    local grid = field.grid
    local mouse = w.mouse -- in the viewer: the player follows the mouse
    if mouse and not grid:blocked(mouse) then player.position = mouse end
    if w.time - S.last_track >= 0.25 then
      zombie.track(field, player.position)
      S.last_track = w.time
    end
    if w.tick % 600 == 0 then
      local near = #w:neighbors(player.position, 6, "zombie")
      print(("zombie_horde: t=%.0f s, %d zombies within 6 m of the player, field %s"):format(
        w.time, near, field.repaired and "repaired" or "rebuilt"))
    end
  end,

  draw = function(d, w)
    local player = S.player
    local grid = player.data.field.grid
    for _, s in ipairs(grid:walls()) do d:line(s[1].x, s[1].y, s[2].x, s[2].y, { 150, 150, 160 }) end
    local x, y = player:xy()
    d:circle(x, y, 1.5, { 255, 220, 80 })
    d:text(2, H * CELL - 3, ("%d zombies, %d within 6 m"):format(w.count - 1,
      #w:neighbors(player.position, 6, "zombie")), { 255, 255, 255 })
  end,

  -- (a snapshot saved before steer.state holds no player, and no field in
  -- its a.data: the zombies' a.data has both)
  load = function(w)
    if S.player then return end
    S.player = w:agents("player")()
    S.player.data.field = w:agents("zombie")().data.field
  end,

  reload = function(w)
    -- zombies rebind by archetype name; the grid, the field and the player
    -- stay: track the player at once with the new version
    S.last_track = w.time - 1
  end,
}
