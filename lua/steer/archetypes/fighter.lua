-- SPDX-License-Identifier: MIT
-- fighter.lua — a 3D dogfighter on the craft model (forward-only, turn
-- limited). It picks an enemy (its current one while in sight, else the
-- nearest), flies a directed seek onto its tail (`tail_distance` behind it,
-- along its direction of travel), and pursues it once aligned: the enemy
-- within `gun_angle` of the nose, inside `gun_range`, flying the same way.
-- When an enemy sits on its own tail (behind it, within `threat_range`,
-- nose on) it breaks: evades, jinking. Always: the ground (z = 0) and the
-- world's bounds first (contain, with `min_altitude` of margin), and
-- `spacing` from every other aircraft, wingmen and the target alike
-- (separation), so it neither collides with a wingman nor rams its prey.
--
--   local fighter = require "steer.archetypes.fighter"
--   fighter.spawn(w, { team = "red", enemy = "blue", position = {...}, velocity = {...} })
--
-- A turning fight that stays in "attack" for `stalemate` seconds (two
-- fighters circling on each other's tails) ends in an extension: straight
-- out for `extend_time` seconds, then a fresh pick.
--
-- a.data.mode is "patrol", "attack", "guns", "evade" or "extend"; a.target
-- the enemy.
--
-- a.data.context = true flies the context-steered variant (M.context_brains,
-- steer.context): the same modes, each deciding its direction on a ring of
-- directions instead of by a sum of forces. The ring is horizontal, so
-- attack blends in a 3D pursuit for the climb, and guns is the plain one.
-- Needs a 3D world whose bounds start at the ground: origin z = 0.
local steer = require "steer"

local M = {}

M.params = {
  tail_distance = 30,       -- metres behind the enemy to aim for
  gun_range = 150,          -- metres
  gun_angle = math.rad(12), -- enemy within this of the nose: aligned
  threat_range = 120,       -- metres: an enemy this close behind, nose on, is on our tail
  threat_angle = math.rad(25),
  sight_range = 3000,
  min_altitude = 60,        -- metres of margin above the ground (and inside the bounds)
  spacing = 30,             -- metres kept from other fighters
  stalemate = 25,           -- seconds of attack without a shot: extend (fly straight out), then re-engage
  extend_time = 6,
}

-- 40 m/s cruise, a 4 g turn limit: radius 40 m at full speed
M.vehicle = { model = "craft", max_speed = 40, min_speed = 22, min_turn_radius = 35, max_turn_accel = 40,
              max_force = 80, radius = 3 }

local function safe(b, name)
  return steer.priority{
    steer.contain{ margin = M.params.min_altitude, lookahead = 2, name = "ground" },
    steer.blend{ { steer.separation{ radius = M.params.spacing, name = "spacing" }, 1500 }, { b, 1 } },
    name = name,
  }
end

M.brains = {
  patrol = safe(steer.wander{ distance = 60, radius = 20, jitter = 10, name = "wander" }, "patrol"),
  attack = safe(steer.directed_seek{ behind = M.params.tail_distance, name = "onto tail" }, "attack"),
  guns = safe(steer.pursue{ max_prediction = 1, name = "guns" }, "guns"),
  extend = safe(steer.seek{ name = "extend" }, "extend"),
  evade = safe(steer.blend{ { steer.evade{ max_prediction = 1, name = "break" }, 1 },
                            { steer.wander{ distance = 20, radius = 15, jitter = 40, name = "jink" }, 0.6 } }, "evade"),
}

-- The context-steered variant (a.data.context): each mode's wish written
-- into a context's interest map, what to keep away from into its danger
-- map. The ring of directions is horizontal (steer.context in 3D), so the
-- climb comes from a 3D pursuit blended in (attack) and from "guns", which
-- stays the plain pursuit: lining up the nose is a 3D aim.
local function ctx(interest, danger, name)
  return safe(steer.context{ interest = interest, danger = danger or {}, slots = 16, smoothing = 0.3 }, name)
end
local evade = steer.evade{ max_prediction = 1, name = "break" }
M.context_brains = {
  patrol = ctx({ steer.wander{ distance = 60, radius = 20, jitter = 10, name = "wander" } }, nil, "patrol"),
  attack = safe(steer.blend{ { steer.context{ interest = { steer.pursue{ max_prediction = 2, name = "onto tail" } },
                                              slots = 16, smoothing = 0.3 }, 1 },
                             { steer.pursue{ max_prediction = 2, name = "climb" }, 0.5 } }, "attack"),
  guns = M.brains.guns,
  extend = ctx({ steer.seek{ name = "extend" } }, nil, "extend"),
  evade = ctx({ evade, { steer.wander{ distance = 20, radius = 15, jitter = 40, name = "jink" }, 0.6 } }, { evade },
    "evade"),
}

-- The enemy nose-on behind us within threat range, if any.
local function threat(a, enemies)
  local p = M.params
  for _, e in ipairs(enemies) do
    local off = a.position - e.position -- from the enemy to us
    local d = off:len()
    if d > p.threat_range then break end -- nearest first
    if d > 0 and e.heading:dot(off / d) > math.cos(p.threat_angle) and a.heading:dot(off / d) > 0.5 then
      return e
    end
  end
end

local function aligned(a, e)
  local p = M.params
  local off = e.position - a.position
  local d = off:len()
  return d > 0 and d < p.gun_range and a.heading:dot(off / d) > math.cos(p.gun_angle) and a.heading:dot(e.heading) > 0.5
end

function M.think(a, dt)
  local s, w, p = a.data, a.world, M.params
  local brains = s.context and M.context_brains or M.brains
  local enemies = w:neighbors(a.position, p.sight_range, s.enemy)
  local mode, target = "patrol"
  local chaser = threat(a, enemies)
  s.attacking = s.mode == "attack" and (s.attacking or 0) + dt or 0
  if s.extend and s.extend > 0 and not chaser then
    -- a turning fight that went nowhere: fly straight out a while
    s.extend = s.extend - dt
    s.mode, a.target, a.brain = "extend", a.position + a.heading * 2000, brains.extend
    return
  end
  if s.attacking > p.stalemate then
    s.extend, s.attacking, s.foe = p.extend_time, 0, nil
    return M.think(a, 0)
  end
  if chaser then
    mode, target = "evade", chaser
  else
    target = s.foe
    if not (target and target.alive and a.position:dist(target.position) < p.sight_range) then target = enemies[1] end
    if target then mode = aligned(a, target) and "guns" or "attack" end
  end
  s.foe = target ~= chaser and target or s.foe
  s.mode = mode
  a.target = target
  a.brain = brains[mode]
end

M.archetype = steer.archetype{ name = "fighter", vehicle = M.vehicle, brain = M.brains.patrol, think = M.think,
                               think_hz = 10 }

---Spawn a fighter of `team` (its tag) hunting agents tagged `enemy`; other
---fields as w:spawn's.
function M.spawn(w, fields)
  local own = {}
  for k, v in pairs(fields) do own[k] = v end
  local team, enemy = own.team, own.enemy
  assert(type(team) == "string" and type(enemy) == "string",
    "fighter.spawn: fields 'team' and 'enemy' expected tag strings")
  own.team, own.enemy, own.tag = nil, nil, team
  local a = w:spawn(M.archetype, own)
  a.data.enemy = enemy
  return a
end

return M
