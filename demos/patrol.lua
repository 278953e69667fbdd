-- SPDX-License-Identifier: MIT
-- patrol.lua — guards on their rounds in a small compound, and an intruder.
--
-- Four guards (lua/steer/archetypes/guard.lua) patrol their routes. Each
-- sees ahead in a cone, and not through walls. When one sees the intruder
-- it gives chase; when the intruder slips out of sight the guard goes to
-- where it was last seen, searches a while, and returns to its route.
-- The intruder sneaks along a path through the compound — or, in the
-- viewer, follows the mouse. The view cones and each guard's mode are drawn.
--
-- Try: widen guard.params.view_angle or slow the guards in guard.lua and
-- save: every guard takes the change on the next tick, where it stands.
--
-- Headless: steer run --headless --ticks 1800 demos/patrol.lua

local steer = require "steer"
local guard = require "steer.archetypes.guard"
local atan2 = math.atan2 or math.atan -- atan(y, x): Lua 5.1 and LuaJIT's math.atan takes one argument

-- The world: the fence (5 to 75 on each axis) with 5 m to spare on the
-- right, 10 m at the top, and on the left and bottom room for the
-- intruder's ways in and out (it escapes past x = -5) and the tally. Taller
-- than wide, so that the window's opening view (a 1280x720 frame) keeps
-- the world's box clear of the inspector's panel at the top right.
local ORIGIN, WIDTH, HEIGHT = -10, 90, 95

-- The compound: an outer fence with gaps, and two buildings.
local WALLS = {
  { { 5, 5 }, { 35, 5 } }, { { 45, 5 }, { 75, 5 } },
  { { 75, 5 }, { 75, 75 } }, { { 75, 75 }, { 5, 75 } },
  { { 5, 75 }, { 5, 45 } }, { { 5, 35 }, { 5, 5 } },
}
local BUILDINGS = { { { 20, 20 }, { 32, 32 } }, { { 48, 44 }, { 62, 58 } } }

local ROUTES = {
  { { 12, 12 }, { 40, 12 }, { 40, 38 }, { 12, 38 } },
  { { 68, 12 }, { 68, 38 }, { 42, 38 }, { 42, 12 } },
  { { 12, 68 }, { 12, 42 }, { 40, 42 }, { 40, 68 } },
  { { 68, 68 }, { 42, 68 }, { 42, 64 }, { 68, 64 } },
}

-- The intruder's sneaking route: in at the south gap, round the buildings,
-- out at the west gap.
local SNEAK = { { 40, -4 }, { 40, 8 }, { 44, 36 }, { 66, 40 }, { 44, 62 }, { 16, 44 }, { 2, 40 }, { -6, 40 } }

-- The script's own state: steer.state is kept across hot reloads, and
-- snapshots (--save, --load, the viewer's rewind) carry it, agents too.
-- This file's locals start afresh on every reload, and a snapshot does not
-- hold them. S.intruder: the intruder (an agent); S.caught, S.escapes: the
-- tally; S.respawn_at: after a catch or an escape, when the next one comes.
local S = steer.state

local function spawn_intruder(w)
  S.intruder = w:spawn{
    position = SNEAK[1], tag = "intruder", max_speed = 2.4, max_force = 8, radius = 0.45,
    brain = steer.priority{
      steer.avoid_walls{ whiskers = 3, length = 2 },
      steer.blend{
        { steer.follow_path{ path = SNEAK, radius = 1 }, 1 },
        { steer.evade{ panic_radius = 6 }, 1.5 }, -- a.target: the nearest guard, set in update
      },
    },
  }
end

return {
  world = { dim = 2, size = { WIDTH, HEIGHT }, origin = { ORIGIN, ORIGIN }, seed = 11 },

  setup = function(w)
    for _, wall in ipairs(WALLS) do w:add_wall{ from = wall[1], to = wall[2] } end
    for _, b in ipairs(BUILDINGS) do w:add_box{ min = b[1], max = b[2] } end
    for _, route in ipairs(ROUTES) do guard.spawn(w, { route = route }) end
    S.caught, S.escapes = 0, 0
    spawn_intruder(w)
  end,

  update = function(w)
    local intruder = S.intruder
    if not intruder.alive then
      if w.time >= S.respawn_at then spawn_intruder(w) end
      return
    end
    local mouse = w.mouse -- in the viewer: the intruder follows the mouse
    if mouse then intruder.position = mouse end
    local near = w:neighbors(intruder.position, 8, "guard")[1]
    intruder.target = near
    for g in w:agents("guard") do
      if g.position:dist(intruder.position) < guard.params.catch_distance then
        S.caught = S.caught + 1
        print(("patrol: caught at t=%.1f s (%d caught, %d escaped)"):format(w.time, S.caught, S.escapes))
        intruder:remove()
        S.respawn_at = w.time + 10
        return
      end
    end
    local x = intruder:xy()
    if x < -5 then
      S.escapes = S.escapes + 1
      print(("patrol: escaped at t=%.1f s (%d caught, %d escaped)"):format(w.time, S.caught, S.escapes))
      intruder:remove()
      S.respawn_at = w.time + 10
    end
  end,

  draw = function(d, w)
    local half = guard.params.view_angle / 2
    for g in w:agents("guard") do
      local x, y = g:xy()
      local h = g.heading
      local a = atan2(h.y, h.x)
      local r = guard.params.view_range
      local colour = g.data.mode == "pursue" and { 255, 80, 60 } or { 120, 200, 255 }
      d:line(x, y, x + r * math.cos(a - half), y + r * math.sin(a - half), colour)
      d:line(x, y, x + r * math.cos(a + half), y + r * math.sin(a + half), colour)
      d:text(x + 1, y + 1, g.data.mode, colour)
    end
    for _, route in ipairs(ROUTES) do
      for i = 1, #route do
        local p, q = route[i], route[i % #route + 1]
        d:line(p[1], p[2], q[1], q[2], { 80, 80, 110 })
      end
    end
    d:text(-8, 72, ("caught %d  escaped %d"):format(S.caught, S.escapes), { 255, 255, 255 })
  end,

  -- (a snapshot saved before steer.state held its save()'s data, now
  -- steer.state's: the intruder by id)
  load = function(w)
    if type(S.intruder) ~= "number" then return end
    local id = S.intruder
    S.intruder = { alive = false } -- removed before the save: the next one comes at respawn_at
    for a in w:agents("intruder") do
      if a.id == id then S.intruder = a end
    end
  end,

  reload = function(w)
    -- The guards rebind by archetype name; the intruder and the tally stay
    -- in steer.state. A live intruder starts over with the new version's brain.
    if S.intruder.alive then
      S.intruder:remove()
      spawn_intruder(w)
    end
  end,
}
