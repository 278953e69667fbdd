-- SPDX-License-Identifier: MIT
-- zombie_spec.lua — the zombie archetype (lua/steer/archetypes/zombie.lua):
-- a horde spread over a walled level finds its way to the player through
-- one flow field and closes round it on every side; when the player
-- walks away, the horde keeps after it; nobody walks through a wall.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local zombie = require "steer.archetypes.zombie"
local atan2 = math.atan2 or math.atan -- atan(y, x): Lua 5.1 and LuaJIT's math.atan takes one argument

-- A level 48 x 32 m (cell 1 m): an outer wall, houses, a long wall with
-- two gaps between the zombies' side and the player's.
local MAP = {
  "################################################",
  "#..............................................#",
  "#..####.........####...........................#",
  "#..####.........####..........######...........#",
  "#..####.........####..........######...........#",
  "#.............................######...........#",
  "#..............................................#",
  "#..............................................#",
  "#####################....##############....#####",
  "#..............................................#",
  "#..............................................#",
  "#......#####...................................#",
  "#......#####.....................#####.........#",
  "#......#####.....................#####.........#",
  "#................................#####.........#",
  "#..............................................#",
  "#..............................................#",
  "#..............####............................#",
  "#..............####............................#",
  "#..............................................#",
  "#..............................................#",
  "#...........................######.............#",
  "#...........................######.............#",
  "#..............................................#",
  "#..............................................#",
  "#..............................................#",
  "#.........######...............................#",
  "#.........######...............................#",
  "#..............................................#",
  "#..............................................#",
  "#..............................................#",
  "################################################",
}

-- `named`: each zombie is told who the player is (else it finds the
-- player by tag).
local function level(n, seed, named)
  local g = steer.grid{ cell = 1, map = MAP }
  local w = steer.world{ seed = seed }
  w:add_grid(g)
  local player = w:spawn{ position = { 24.5, 25.5 }, tag = "player", radius = 0.5, max_speed = 1.5, max_force = 6 }
  local f = g:flow_field{ goal = { 24.5, 25.5 } }
  local rng = seed
  local function rand(k)
    rng = (rng * 1103515245 + 12345) % 2147483648
    return rng % k
  end
  local horde = {}
  while #horde < n do
    local p = { 1.5 + rand(46), 1.5 + rand(22) } -- below the long wall (the map's lower lines)
    if not g:blocked(p) then horde[#horde + 1] = zombie.spawn(w, f, { position = p, data = { player = named and player or nil } }) end
  end
  return w, g, f, player, horde
end

-- Run `seconds`; true unless some zombie's centre was in a blocked cell
-- at the end of some tick.
local function run(w, g, horde, seconds, each_tick)
  local clean = true
  for _ = 1, math.ceil(seconds / w.dt) do
    if each_tick then each_tick() end
    w:step()
    for i = 1, #horde do
      local x, y = horde[i]:xy()
      if g:blocked{ x, y } then clean = false end
    end
  end
  return clean
end

describe("zombie", function()
  it("the horde reaches and surrounds the player", function()
    local w, g, _, player, horde = level(60, 7)
    local clean = run(w, g, horde, 45)
    expect(clean, "no zombie walked into a wall"):truthy()
    local px, py = player:xy()
    local far, octants, near = 0, {}, 0
    for _, z in ipairs(horde) do
      local x, y = z:xy()
      local d = math.sqrt((x - px) ^ 2 + (y - py) ^ 2)
      far = math.max(far, d)
      if d < 4 then
        near = near + 1
        octants[math.floor((atan2(y - py, x - px) + math.pi) / (math.pi / 4)) % 8] = true
      end
    end
    local covered = 0
    for k = 0, 7 do if octants[k] then covered = covered + 1 end end
    expect(far, "metres from the player to the furthest zombie"):lt(6)
    expect(near, "zombies within 4 m"):ge(20)
    expect(covered, "of the 8 directions round the player, those a zombie holds within 4 m"):eq(8)
    expect(horde[1].data.field, "zombies know their field"):truthy()
  end)

  it("keeps after a player who walks away, tracking the goal cheaply", function()
    local w, g, f, player, horde = level(30, 3, true)
    run(w, g, horde, 30)
    -- the player walks east along the open row; the goal follows it
    local repairs, moves = 0, 0
    local clean = run(w, g, horde, 25, function()
      local x, y = player:xy()
      if x < 44 then player.position = { x + 0.8 * w.dt, y } end
      if w.tick % 10 == 0 then
        moves = moves + 1
        if zombie.track(f, player.position) and f.repaired then repairs = repairs + 1 end
      end
    end)
    expect(clean, "no zombie walked into a wall"):truthy()
    expect(repairs / moves, "goal moves that were repairs"):gt(0.8)
    local px, py = player:xy()
    expect(px, "the player got away east"):gt(40)
    local close = 0
    for _, z in ipairs(horde) do
      local x, y = z:xy()
      if math.sqrt((x - px) ^ 2 + (y - py) ^ 2) < 8 then close = close + 1 end
    end
    expect(close, "zombies within 8 m of the player at the end"):ge(15)
  end)
end)
