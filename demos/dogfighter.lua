-- SPDX-License-Identifier: MIT
-- dogfighter.lua — two teams of four fighters in 3D (the fighter archetype,
-- lua/steer/archetypes/fighter.lua, on the turn-limited craft model).
--
-- Each fighter picks an enemy, flies a directed seek onto its tail, and
-- pursues once aligned ("guns"); an enemy on its own tail makes it break
-- ("evade"). The pilots' aircraft differ in turn radius (28 to 46 m), so
-- the turning fights do not all end in stalemate circles. A fighter that holds an enemy in its sights (within 5 degrees
-- and gun range) for 1.5 s shoots it down; the loser comes back on its own
-- side 5 s later. Drawn from above: each fighter's nose line and mode, a
-- line to the enemy it has in its guns, and the tally.
--
-- Key C switches every fighter to the context-steered variant and back
-- (fighter.context_brains: each mode decides its direction with
-- steer.context, on a horizontal ring of directions, instead of a sum of
-- forces); the tally line says which is flying. Off at the start, so
-- headless runs fly the forces.
--
-- Try: raise fighter.vehicle.min_turn_radius for clumsier aircraft, or
-- fighter.params.tail_distance, and save.
--
-- Headless: steer run --headless --ticks 3600 demos/dogfighter.lua

local steer = require "steer"
local fighter = require "steer.archetypes.fighter"

local TEAMS = {
  red = { enemy = "blue", x = -900, colour = { 255, 95, 80 } }, -- the viewer's red and blue
  blue = { enemy = "red", x = 900, colour = { 90, 160, 255 } },
}
-- teams in a fixed order: pairs() would visit them in an order that
-- changes from run to run, and with it who spawns first and shoots first
local ORDER = { "red", "blue" }
local SIGHTS, KILL_TIME, COMEBACK = math.rad(5), 1.5, 5

-- The tally and the fighters still to come back, in steer.state: hot
-- reloads, --load and the viewer's rewind keep them (this file's locals
-- start afresh on a reload, and a snapshot does not hold them).
local S = steer.state

local function launch(w, team, i)
  local t = TEAMS[team]
  local dir = t.x < 0 and 1 or -1
  -- pilots differ: some aircraft turn tighter than others
  local a = fighter.spawn(w, { team = team, enemy = t.enemy, position = { t.x, (i - 2.5) * 120, 600 + 80 * i },
    velocity = { 35 * dir, 0, 0 }, min_turn_radius = 28 + 6 * ((i * (dir + 3)) % 4) })
  if S.context then a.data.context = true end -- the variant key C switched on
  return a
end

return {
  world = { dim = 3, size = { 4000, 4000, 2000 }, origin = { -2000, -2000, 0 }, seed = 21 },

  setup = function(w)
    S.score, S.comebacks = { red = 0, blue = 0 }, {}
    for _, team in ipairs(ORDER) do
      for i = 1, 4 do launch(w, team, i) end
    end
  end,

  update = function(w, dt)
    local score, comebacks = S.score, S.comebacks
    for _, team in ipairs(ORDER) do
      for a in w:agents(team) do
        local s, e = a.data, a.target
        if s.mode == "guns" and e and e.alive then
          local off = e.position - a.position
          local d = off:len()
          local on = d < fighter.params.gun_range and a.heading:dot(off / d) > math.cos(SIGHTS)
          s.aim = on and (s.aim or 0) + dt or 0
          if s.aim >= KILL_TIME then
            score[team] = score[team] + 1
            print(("dogfighter: %s shot down a %s at t=%.1f s (red %d, blue %d)")
              :format(team, e.tag, w.time, score.red, score.blue))
            comebacks[#comebacks + 1] = { team = e.tag, at = w.time + COMEBACK }
            e:remove()
            s.aim = 0
          end
        else
          s.aim = 0
        end
      end
    end
    for i = #comebacks, 1, -1 do
      if w.time >= comebacks[i].at then
        launch(w, comebacks[i].team, 1 + i % 4)
        table.remove(comebacks, i)
      end
    end
  end,

  draw = function(d, w)
    for team, t in pairs(TEAMS) do
      for a in w:agents(team) do
        local p, h = a.position, a.heading
        -- at the fighter's altitude: the viewer projects 3D points
        d:circle(p, 6, t.colour)
        d:line(p, p + h * 40, t.colour)
        d:text(p + steer.vec(8, 8, 8), ("%s %.0fm"):format(a.data.mode or "", p.z), t.colour)
        local e = a.target
        if a.data.mode == "guns" and e and e.alive then d:line(p, e.position, { 255, 255, 160 }) end
      end
    end
    d:text(-1950, 1900, ("red %d  blue %d  %s (C switches)"):format(S.score.red, S.score.blue,
      S.context and "context steering" or "forces"), { 255, 255, 255 })
  end,

  -- C: the context-steered variant on or off, for every fighter (each
  -- takes its mode's other brain at its next think)
  on_key = function(w, key)
    if key ~= "c" then return end
    S.context = not S.context or nil
    for _, team in ipairs(ORDER) do
      for a in w:agents(team) do a.data.context = S.context end
    end
    print(("dogfighter: %s at t=%.1f s"):format(S.context and "context steering" or "forces", w.time))
  end,

  -- (a snapshot saved before steer.state holds no tally: start one)
  load = function()
    if S.score == nil then S.score, S.comebacks = { red = 0, blue = 0 }, {} end
  end,

  reload = function()
    -- the fighters rebind to the redefined archetype by name; the tally stays
  end,
}
