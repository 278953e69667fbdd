-- SPDX-License-Identifier: MIT
-- navmesh.lua — an office floor from polygons: a corridor with rooms on
-- both sides, doors of 2.5 m from each room to the corridor and doors of
-- 1 m between neighbouring rooms, desks in the rooms. People of three sizes
-- walk from room to room on one navigation mesh: walkers (0.25 m) and
-- trolleys (0.4 m) take the 1 m shortcuts between rooms, the big delivery
-- robots (0.7 m: 1.4 m wide) cannot, and go the wide way round through the
-- corridor. Each finds its own way (steer.navigate) and gives way to the
-- others (steer.reciprocal wraps it); the mesh's walls are the world's
-- (w:add_navmesh), so nobody leaves the floor or jams at a corner.
--
-- G shows the mesh (triangles, walls), P each person's path ahead.
--
-- Headless: steer run --headless --ticks 3600 demos/navmesh.lua

local steer = require "steer"
local random = require "steer.random"

local W, H = 60, 40             -- the floor
local CY0, CY1 = 17, 23         -- the corridor
local ROOM = 12                 -- room width
local T = 0.2                   -- wall thickness
local COUNT = 240
local SIZES = {
  { radius = 0.25, max_speed = 1.4, tag = "walker" },
  { radius = 0.4, max_speed = 1.1, tag = "trolley" },
  { radius = 0.7, max_speed = 0.9, tag = "robot" },
}

local function box(x0, y0, x1, y1) return { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } } end

-- The walls as boxes, with the doors left out.
local function level()
  local walls = {}
  local function wall(x0, y0, x1, y1) walls[#walls + 1] = box(x0, y0, x1, y1) end
  for _, side in ipairs { { 0, CY0 }, { CY1, H } } do
    local y0, y1 = side[1], side[2]
    local cy = side[1] == 0 and CY0 or CY1 -- the corridor wall's line
    -- the corridor wall: a 2.5 m door in the middle of each room
    local x = 0
    for r = 0, W / ROOM - 1 do
      local mid = r * ROOM + ROOM / 2
      wall(x, cy - T / 2, mid - 1.25, cy + T / 2)
      x = mid + 1.25
    end
    wall(x, cy - T / 2, W, cy + T / 2)
    -- walls between rooms, each with a 1 m door halfway along
    local my = (y0 + y1) / 2
    for r = 1, W / ROOM - 1 do
      local wx = r * ROOM
      wall(wx - T / 2, y0, wx + T / 2, my - 0.5)
      wall(wx - T / 2, my + 0.5, wx + T / 2, y1)
    end
    -- two desks in each room
    for r = 0, W / ROOM - 1 do
      local x0 = r * ROOM
      wall(x0 + 2.5, my - 3.5, x0 + 5, my - 2.5)
      wall(x0 + 7, my + 2.5, x0 + 9.5, my + 3.5)
    end
  end
  return steer.navmesh{ outline = box(0, 0, W, H), obstacles = walls }
end

local S = steer.state
-- built whenever this file runs (setup, a hot reload, a load): the same
-- polygons give the same mesh, bit for bit
local nm = level()

-- A random point in a random room (not the corridor), clear of walls for the agent.
local function somewhere(radius)
  for _ = 1, 100 do
    local p = nm:random_point(S.stream)
    if (p.y < CY0 - 1 or p.y > CY1 + 1) and nm:contains(p, radius + 0.2) then return p end
  end
  return nm:random_point(S.stream)
end

local function send(a) a.target = somewhere(a.radius) end

local idle = {} -- agents waiting for an errand (a reload forgets them: update's sweep finds them again)
-- The handlers only count and note who needs a new errand; update sends
-- them (a handler that changed the world would make a world loaded from a
-- snapshot, which has no handlers until load runs, go another way).
local function count(w)
  w:on("arrive", function(a)
    S.arrived = S.arrived + 1
    idle[#idle + 1] = a
  end)
  w:on("unreachable", function(a)
    S.unreachable = S.unreachable + 1
    idle[#idle + 1] = a
  end)
end

return {
  world = { dim = 2, size = { W, H }, seed = 5, collide = true },

  setup = function(w)
    w:add_navmesh(nm)
    S.stream = random.new(31)
    S.arrived, S.unreachable = 0, 0
    local brain = steer.reciprocal{ steer.navigate{ navmesh = nm, slow_radius = 1.5, stop_radius = 0.5 } }
    for i = 1, COUNT do
      local kind = SIZES[(i - 1) % 3 + 1]
      local p = somewhere(kind.radius)
      local a = w:spawn{ position = p, radius = kind.radius, max_speed = kind.max_speed, max_force = 4,
                         tag = kind.tag, brain = brain }
      send(a)
    end
    count(w)
  end,

  update = function(w)
    for _, a in ipairs(idle) do
      if a.alive then send(a) end
    end
    idle = {}
    if w.tick % 300 == 0 then -- the sweep: anyone standing at its target
      for a in w:agents() do
        if a.target and a.position:dist(a.target) < 0.6 then send(a) end
      end
    end
    if w.tick % 600 == 0 and w.tick > 0 then
      print(("navmesh: %.0f s, %d arrivals, %d unreachable"):format(w.time, S.arrived, S.unreachable))
    end
  end,

  draw = function(d)
    d:text(1, H - 1.5, ("arrived %d   unreachable %d   robots (the biggest) take no 1 m door"):format(S.arrived,
      S.unreachable), { 255, 255, 255 })
  end,

  -- after a snapshot is loaded: the world has the mesh's walls (shapes are
  -- saved) and the brains their mesh (saved with them); only the event
  -- handlers are new to a fresh process
  load = function(w) count(w) end,
}
