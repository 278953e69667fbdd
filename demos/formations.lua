-- SPDX-License-Identifier: MIT
-- formations.lua — three squads cross a map and back, each a formation
-- (steer.formation) whose anchor finds its way on a navigation mesh: a
-- river with a 4 m bridge, then a wall with a 5 m gate. A squad narrows to
-- a column where the way ahead is narrower than its shape (the bridge, the
-- gate, a rock) and forms up again past it, its column following the
-- anchor's trail round corners; its members give way to each other
-- (steer.reciprocal) and never pass through a wall (collide: the mesh's
-- walls are the world's). Each squad has its own bridge and gate: members
-- steer straight to their slots, and one pushed off a bridge's mouth by
-- another squad would be cut off behind the river.
--
-- Keys: 1 line, 2 column, 3 wedge, 4 box, 5 circle (every squad's shape);
-- N toggles narrowing (off: a wide squad jams at the bridge). Click an
-- agent to inspect it; H lists the viewer's keys.
--
-- Headless: steer run --headless --ticks 3600 demos/formations.lua

local steer = require "steer"

local W, H = 170, 60
local RIVER = { 70, 76 } -- the river's banks (x); a 4 m bridge for each squad (y)
local BRIDGES = { { 12, 16 }, { 28, 32 }, { 44, 48 } }
local WALL = 112         -- the wall's line (x); a 5 m gate for each squad, off its line
local GATES = { { 6, 11 }, { 32, 37 }, { 50, 55 } }
local SQUADS = {
  { pattern = "wedge", size = 10, y = 14, colour = { 240, 120, 80 } },
  { pattern = "line", size = 8, y = 30, colour = { 90, 170, 250 } },
  { pattern = "box", size = 12, y = 46, colour = { 120, 220, 120 } },
}
local SHAPES = { ["1"] = "line", ["2"] = "column", ["3"] = "wedge", ["4"] = "box", ["5"] = "circle" }
local HOME, AWAY = 30, 145 -- the squads' targets' x: west and east, a column's length from the walls

local function box(x0, y0, x1, y1) return { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } } end

-- The map: the river and the wall (blocks with the bridges and gates
-- between them) and a few rocks.
local function map()
  local obstacles = { box(48, 21, 52, 25), box(92, 38, 96, 42), box(128, 20, 131, 23) }
  local function across(x0, x1, openings)
    local y = 0
    for _, o in ipairs(openings) do
      obstacles[#obstacles + 1] = box(x0, y, x1, o[1])
      y = o[2]
    end
    obstacles[#obstacles + 1] = box(x0, y, x1, H)
  end
  across(RIVER[1], RIVER[2], BRIDGES)
  across(WALL, WALL + 1, GATES)
  return steer.navmesh{ outline = box(0, 0, W, H), obstacles = obstacles }
end

local S = steer.state
local nm = map() -- built whenever this file runs: the same polygons give the same mesh, bit for bit

-- Each squad's formation: the world's (w:formations(), in the order they
-- were made), so that a reload or a load finds them again.
local function squads(w) return w:formations() end

-- Send squad i to the far side from where its anchor is.
local function send(f, i)
  local x = f.position.x < W / 2 and AWAY or HOME
  f.target = steer.vec(x, SQUADS[i].y)
end

return {
  world = { dim = 2, size = { W, H }, seed = 7, collide = true },

  setup = function(w)
    w:add_navmesh(nm)
    S.narrow = true
    for i, q in ipairs(SQUADS) do
      local f = steer.formation{ pattern = q.pattern, spacing = 2, navmesh = nm, position = steer.vec(HOME, q.y) }
      local brain = steer.reciprocal{ steer.formation_slot{ formation = f, slow_radius = 3 } }
      for k = 1, q.size do
        local a = w:spawn{ position = { HOME - 6 + (k % 4) * 2, q.y - 4 + math.floor(k / 4) * 2 }, radius = 0.4,
                           max_speed = 3, max_force = 10, tag = "squad" .. i, brain = brain }
        f:add(a)
      end
      send(f, i)
    end
  end,

  update = function(w)
    for i, f in ipairs(squads(w)) do
      if f.target and f.position:dist(f.target) < 0.01 and w.tick % 150 == 0 then send(f, i) end
    end
    if w.tick % 600 == 0 and w.tick > 0 then
      local s = {}
      for _, f in ipairs(squads(w)) do
        s[#s + 1] = ("%s%s at x %.0f"):format(f.pattern, f.narrowed and " (narrowed)" or "", f.position.x)
      end
      print(("formations: %.0f s, %s"):format(w.time, table.concat(s, "; ")))
    end
  end,

  on_key = function(w, key)
    local shape = SHAPES[key]
    for _, f in ipairs(squads(w)) do
      if shape then f.pattern = shape end
      if key == "n" then f.narrow = not S.narrow and "column" or false end
    end
    if key == "n" then S.narrow = not S.narrow end
  end,

  draw = function(d, w)
    for i, f in ipairs(squads(w)) do
      local c = SQUADS[i] and SQUADS[i].colour or { 255, 255, 255 }
      d:circle(f.position.x, f.position.y, 0.6, c)
    end
    d:text(1, H - 2, ("1-5 shape, N narrowing (%s)"):format(S.narrow and "on" or "off"), { 255, 255, 255 })
  end,
}
