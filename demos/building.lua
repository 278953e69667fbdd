-- SPDX-License-Identifier: MIT
-- building.lua — a two-storey building (demos/building.obj: rooms over
-- rooms, a stair in a two-storey atrium up to a bridge across it) and 200
-- people going from room to room on both floors, each finding its own way
-- on the baked navigation mesh (steer.navigate) up and down the stair and
-- giving way to the others (steer.reciprocal); their height follows the
-- mesh (a 3D world). Four doors open and close on a timer: a door is a
-- leaf across its doorway's middle, an obstacle on the mesh there
-- (nm:add_obstacle on its floor) from the moment it starts to shut, so
-- nobody plans through it from then on (paths go round by another door)
-- and those in the doorway step out to their side; it is shut once
-- nobody stands where its leaf goes. The yellow player pushes
-- a crate about the atrium (an obstacle moved by what the player's disc
-- overlaps; it stops at walls and people); people plan round it. A shut
-- door and the crate are boxes of the world too, so nobody walks into them.
--
-- The mesh is demos/building.navmesh, the OBJ baked once and saved
-- (tools/building-navmesh.lua), so this runs the same, bit for bit, in
-- builds without Recast (the browser, Windows).
--
-- In the viewer the player walks to the mouse (drag to orbit, wheel to
-- zoom); headless it walks a round that pushes the crate east and back.
-- N shows the mesh (the crate and closed doors carve it), P the paths.
-- A load or a rewind goes on as the run never stopped (the script's nm
-- is the restored world's mesh again: see load).
--
-- Headless: steer run --headless --ticks 1800 demos/building.lua

local steer = require "steer"
local random = require "steer.random"

local COUNT = 200
local here = (debug.getinfo(1, "S").source:match("^@(.*)[/\\][^/\\]*$") or "demos")
local file = assert(io.open(here .. "/building.navmesh", "rb"))
local nm = steer.navmesh_load(file:read("*a")) -- "*a": Lua 5.1 reads the whole file so too
file:close()
local UP = nm:height({ 35, 5 }, { layer = 2 }) -- the first floor's ground

-- The rooms people go between: { x0, y0, x1, y1, floor } (1 ground, 2 first).
local ROOMS = {}
for f = 1, 2 do
  for k = 0, 3 do ROOMS[#ROOMS + 1] = { 10 * k + 1.2, 1.2, 10 * k + 8.8, 8.8, f } end
  ROOMS[#ROOMS + 1] = { 1.2, 15.2, 12.8, 22.8, f }
  ROOMS[#ROOMS + 1] = { 27.2, 15.2, 38.8, 22.8, f }
end
ROOMS[#ROOMS + 1] = { 15.2, 20.6, 23, 22.8, 1 } -- the atrium, north of the bridge

-- The doors: a doorway's box (wall and gap, with a margin into the wall),
-- its floor, and when in a 20 s cycle it shuts (8 s from `at`). The
-- first floor's two are never shut at once: together they are its
-- corridor's only ways from the bridge.
local DOORS = {
  { name = "atrium west", min = { 13.75, 20.2 }, max = { 14.25, 21.8 }, floor = 1, at = 0 },
  { name = "atrium east", min = { 25.75, 20.2 }, max = { 26.25, 21.8 }, floor = 1, at = 10 },
  { name = "north-west, upstairs", min = { 6.2, 13.75 }, max = { 7.8, 14.25 }, floor = 2, at = 5 },
  { name = "north-east, upstairs", min = { 32.2, 13.75 }, max = { 33.8, 14.25 }, floor = 2, at = 15 },
}
local CYCLE, SHUT = 20, 8
local LEAF = 0.05 -- half a door leaf's thickness, m
-- a planter in the 0.4 m slot between the stair's east side and the
-- atrium's wall, where the crowd would press people no way leads out of
local PLANTER = { min = { 25.6, 14.1 }, max = { 25.95, 18.1 } }
local CRATE = 0.6 -- half its side
local ROUND = { { 19.5, 16.5 }, { 19.5, 18.1 }, { 22.6, 18.1 }, { 22.6, 16.5 }, { 17.4, 16.5 }, { 17.4, 18.1 },
  { 15, 18.1 }, { 15, 16.5 } } -- the player's round headless: push east, walk round, push west, walk round

local S = steer.state
-- The mesh's obstacles: held.planter, held.crate, held[i] a door's leaf;
-- S.held the same keys to their ids (steer.state holds no handles), to
-- find them again after a load or a rewind.
local held = {}

local function hold(k, o)
  held[k], S.held[k] = o, o.id
end

local function release(k)
  held[k]:remove()
  held[k], S.held[k] = nil, nil
end

local function floor_z(f) return f == 2 and UP or 0 end

local function somewhere()
  local r = ROOMS[random.int(S.stream, #ROOMS)]
  local x = r[1] + random.float(S.stream) * (r[3] - r[1])
  local y = r[2] + random.float(S.stream) * (r[4] - r[2])
  return steer.vec(x, y, floor_z(r[5]))
end

-- A door's leaf: a strip across the middle of its doorway, from wall to wall.
local function leaf(d)
  if d.max[1] - d.min[1] < d.max[2] - d.min[2] then -- the wall runs along y
    local x = (d.min[1] + d.max[1]) / 2
    return { min = { x - LEAF, d.min[2] }, max = { x + LEAF, d.max[2] } }
  end
  local y = (d.min[2] + d.max[2]) / 2
  return { min = { d.min[1], y - LEAF }, max = { d.max[1], y + LEAF } }
end

local function crate_box(c)
  return { min = { c[1] - CRATE, c[2] - CRATE }, max = { c[1] + CRATE, c[2] + CRATE } }
end

-- How far the disc (p, r) reaches into the box: the push out of it (or nil).
local function overlap(b, p, r)
  local qx = math.max(b.min[1], math.min(p.x, b.max[1]))
  local qy = math.max(b.min[2], math.min(p.y, b.max[2]))
  local dx, dy = qx - p.x, qy - p.y
  local d = math.sqrt(dx * dx + dy * dy)
  if d >= r or d == 0 then return nil end
  return dx / d * (r - d), dy / d * (r - d)
end

-- The mesh's obstacles as steer.state has them: at setup, and after a
-- load whose world's mesh the script's nm did not take (see load).
local function obstacles()
  for k, o in pairs(held) do
    if o.alive then o:remove() end
    held[k] = nil
  end
  S.held = {}
  hold("planter", nm:add_obstacle{ box = PLANTER, layer = 1 })
  hold("crate", nm:add_obstacle{ box = crate_box(S.crate), layer = 1 })
  for i, d in ipairs(DOORS) do
    if S.leaf[i] then hold(i, nm:add_obstacle{ box = leaf(d), layer = d.floor }) end
  end
end

local function brain() return steer.reciprocal{ steer.navigate{ navmesh = nm, slow_radius = 1.5, stop_radius = 0.5 } } end

local idle = {}
local function count(w)
  w:on("arrive", function(a)
    if a.tag == "player" then return end
    local f = a.position.z > UP / 2 and 2 or 1
    S.arrived[f] = S.arrived[f] + 1
    idle[#idle + 1] = a
  end)
  w:on("unreachable", function(a)
    S.unreachable = S.unreachable + 1
    idle[#idle + 1] = a
  end)
end

-- Someone stands where door d's leaf goes: their centre within a
-- centimetre of it (discs = false), or their disc in it, give or take a
-- centimetre (the leaf's sides are walls, which hold people at their radius).
local function someone_in(w, d, discs)
  local b, z = leaf(d), floor_z(d.floor)
  for a in w:agents() do
    local p = a.position
    if math.abs(p.z - z) < 1 and (overlap(b, p, discs and a.radius - 0.01 or 0.01) or
      (p.x >= b.min[1] and p.x <= b.max[1] and p.y >= b.min[2] and p.y <= b.max[2])) then
      return true
    end
  end
  return false
end

-- The world's box for a footprint on floor f (collide keeps people out):
-- a closed door's panel, the crate. Its id in steer.state (shapes are
-- in snapshots).
local function solid(w, b, f, h)
  local z = floor_z(f)
  return w:add_box{ min = { b.min[1], b.min[2], z }, max = { b.max[1], b.max[2], z + h } }
end

-- A door starts to shut when its time comes. Its leaf becomes an
-- obstacle on the mesh as soon as nobody's centre is where it goes (a
-- moment in a stream of people), so those about to go through plan again
-- by another door (navigate re-plans a way the change crosses), and its
-- sides are walls of the world from the next tick (w:add_navmesh's walls
-- follow the mesh), which hold those still in the doorway on their side as
-- they step out. It is shut (its panel a box of the world) once nobody
-- stands where the leaf goes, and opens when its time is up, shut or not.
local function doors(w)
  local t = w.time % CYCLE
  for i, d in ipairs(DOORS) do
    local shut = (t - d.at) % CYCLE < SHUT
    if shut and not S.closed[i] then
      S.closing[i] = true
      if not S.leaf[i] and not someone_in(w, d, false) then
        S.leaf[i] = true
        hold(i, nm:add_obstacle{ box = leaf(d), layer = d.floor })
      end
      if S.leaf[i] and not someone_in(w, d, true) then
        S.closing[i], S.closed[i] = false, true
        S.panel[i] = solid(w, leaf(d), d.floor, 2.2)
      end
    elseif not shut and (S.closed[i] or S.closing[i]) then
      if S.panel[i] then w:remove_shape(S.panel[i]) end
      if S.leaf[i] then release(i) end
      S.closed[i], S.closing[i], S.leaf[i], S.panel[i] = false, false, false, nil
    end
  end
end

-- The player's disc pushes the crate out of it, unless that would put the
-- crate into a wall or onto someone: then the player is held back.
local function push(w, player)
  local b = crate_box(S.crate)
  local dx, dy = overlap(b, player.position, player.radius + 0.05) -- collide holds the player at its radius
  if not dx then return end
  if math.abs(dx) > math.abs(dy) then dy = 0 else dx = 0 end -- along the push's main axis
  local to = { S.crate[1] + dx, S.crate[2] + dy }
  local nb = crate_box(to)
  -- its leading face on the ground, clear of walls (the rest of it is on
  -- its own hole in the mesh)
  local sx, sy = dx > 0 and 1 or dx < 0 and -1 or 0, dy > 0 and 1 or dy < 0 and -1 or 0
  local free = true
  for k = -1, 1 do
    local px = to[1] + (sx ~= 0 and sx * CRATE or k * CRATE)
    local py = to[2] + (sy ~= 0 and sy * CRATE or k * CRATE)
    free = free and nm:contains({ px, py, 0 })
  end
  for a in w:agents() do
    if a ~= player and a.position.z < 1 and overlap(nb, a.position, a.radius) then free = false end
  end
  if free then
    S.crate = to
    held.crate:move(dx, dy)
    w:remove_shape(S.crate_box)
    S.crate_box = solid(w, nb, 1, 1.2)
  end
end

return {
  navmesh = nm, -- for tests/lua/building_spec.lua
  doors = DOORS,
  world = { dim = 3, seed = 11, collide = true, path_budget = 8000 },

  setup = function(w)
    w:add_navmesh(nm)
    w:add_box{ min = { PLANTER.min[1], PLANTER.min[2], 0 }, max = { PLANTER.max[1], PLANTER.max[2], 1 } }
    S.stream = random.new(17)
    S.arrived, S.unreachable = { 0, 0 }, 0
    S.closed = { false, false, false, false }
    S.closing = { false, false, false, false }
    S.leaf = { false, false, false, false }
    S.crate = { 17.2, 16.5 }
    S.panel = {}
    S.crate_box = solid(w, crate_box(S.crate), 1, 1.2)
    S.leg, S.leg_ticks = 1, 0
    obstacles()
    local b = brain()
    for _ = 1, COUNT do
      local p = somewhere()
      w:spawn{ position = p, radius = 0.2 + 0.05 * random.float(S.stream), max_speed = 1.1 + 0.5 * random.float(S.stream),
               max_force = 4, tag = "person", brain = b, target = somewhere() }
    end
    S.player = w:spawn{ position = { 15, 16.5, 0 }, radius = 0.35, max_speed = 1.5, max_force = 6, tag = "yellow",
                        brain = steer.arrive{ slow_radius = 0.8 }, target = { 19.5, 16.5, 0 } }
    count(w)
  end,

  update = function(w)
    for _, a in ipairs(idle) do
      if a.alive then a.target = somewhere() end
    end
    idle = {}
    doors(w)
    local player = S.player
    local mouse = w.mouse
    if mouse then
      player.target = steer.vec(mouse.x, mouse.y, 0)
    else
      local goal = ROUND[S.leg]
      S.leg_ticks = S.leg_ticks + 1 -- a leg the crowd or the crate holds up: on after 10 s
      if player.position:dist(steer.vec(goal[1], goal[2], 0)) < 0.15 or S.leg_ticks > 600 then
        S.leg, S.leg_ticks = S.leg % #ROUND + 1, 0
      end
      goal = ROUND[S.leg]
      player.target = steer.vec(goal[1], goal[2], 0)
    end
    push(w, player)
    if w.tick % 600 == 0 and w.tick > 0 then
      print(("building: %.0f s, arrivals %d downstairs, %d upstairs, %d unreachable"):format(w.time, S.arrived[1],
        S.arrived[2], S.unreachable))
    end
  end,

  draw = function(d)
    local v = steer.vec
    for i, door in ipairs(DOORS) do
      local z, x0, y0, x1, y1 = floor_z(door.floor), door.min[1], door.min[2], door.max[1], door.max[2]
      if x1 - x0 < y1 - y0 then x0, x1 = (x0 + x1) / 2, (x0 + x1) / 2 else y0, y1 = (y0 + y1) / 2, (y0 + y1) / 2 end
      if S.closed[i] then -- the panel: red, shut
        for k = 0, 4 do d:line(v(x0, y0, z + 0.5 * k), v(x1, y1, z + 0.5 * k), { 230, 60, 50 }) end
        d:line(v(x0, y0, z), v(x1, y1, z + 2), { 230, 60, 50 })
      else -- the frame: green, open
        d:line(v(x0, y0, z), v(x0, y0, z + 2), { 80, 220, 90 })
        d:line(v(x1, y1, z), v(x1, y1, z + 2), { 80, 220, 90 })
        d:line(v(x0, y0, z + 2), v(x1, y1, z + 2), { 80, 220, 90 })
      end
    end
    local c, h = S.crate, 1.2 -- the crate, a box
    local x0, y0, x1, y1 = c[1] - CRATE, c[2] - CRATE, c[1] + CRATE, c[2] + CRATE
    local corners = { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } }
    for k = 1, 4 do
      local p, q = corners[k], corners[k % 4 + 1]
      for _, z in ipairs({ 0, h }) do d:line(v(p[1], p[2], z), v(q[1], q[2], z), { 200, 140, 60 }) end
      d:line(v(p[1], p[2], 0), v(p[1], p[2], h), { 200, 140, 60 })
    end
    d:line(v(x0, y0, h), v(x1, y1, h), { 200, 140, 60 })
    d:line(v(x1, y0, h), v(x0, y1, h), { 200, 140, 60 })
    d:text(v(-6, -7, 0), ("arrived downstairs %d   upstairs %d   doors shut: %d"):format(S.arrived[1], S.arrived[2],
      (S.closed[1] and 1 or 0) + (S.closed[2] and 1 or 0) + (S.closed[3] and 1 or 0) + (S.closed[4] and 1 or 0)),
      { 255, 255, 255 })
  end,

  -- after a snapshot is loaded (a fresh process, or a rewind): the
  -- engine restores the world in place, and the script's nm takes the
  -- world's copy of the mesh (its serial is in the snapshot), obstacles
  -- and all, as saved: the handles are found again by id, and the
  -- people's brains, saved with the world, steer on it, so the run goes
  -- on as if never stopped. Where nm did not take it (the world loaded
  -- beside by steer.load), the obstacles are made again on nm and the
  -- people given brains on it. The handlers are set again either way.
  load = function(w)
    local by_id, n, found = {}, 0, 0
    for _, o in ipairs(nm:obstacles()) do by_id[o.id], n = o, n + 1 end
    for _, id in pairs(S.held) do found = found + (by_id[id] and 1 or 0) end
    if found == n and n > 0 then
      held = {}
      for k, id in pairs(S.held) do held[k] = by_id[id] end
    else
      obstacles()
      local b = brain()
      for a in w:agents() do
        if a.tag == "person" then a.brain = b end
      end
    end
    count(w)
  end,
}
