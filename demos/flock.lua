-- SPDX-License-Identifier: MIT
-- flock.lua — Reynolds' boids: 300 agents in a wrapped world with a few
-- rocks, each steered by one shared brain: avoid the rocks first (priority),
-- otherwise blend separation, alignment, cohesion and a little wander. Nothing in Lua runs per agent per tick: the brain is a C
-- tree; the script only builds it, spawns the flock and, every few seconds,
-- measures how well it is aligned: polarization is the length of the mean
-- unit velocity (0 = headings all over the place, 1 = all the same way),
-- over the whole world and within 6 m of each boid. Several flocks form,
-- each tightly aligned, so the local figure is high and the global one low.
--
-- Try: change a weight in `make_brain` and save. The file reloads and
-- `reload` hands every boid the new brain without restarting the flock.
--
-- Keys in the viewer: R reloads, Space pauses, click an agent to inspect it, H lists every key, Esc quits.
-- Headless: steer run --headless --ticks 600 demos/flock.lua

local steer = require "steer"
local random = require "steer.random" -- the same numbers on every Lua (math.random's differ)

local COUNT = 300
local WIDTH, HEIGHT = 160, 100
local REPORT_EVERY = 5 -- seconds between polarization reports

-- The weights balance forces of different kinds: separation grows as
-- 1/distance, alignment is a heading difference (at most 2), cohesion
-- tracks a velocity (a velocity error of max_speed asks for max_force) and
-- the wander circle sits `distance` ahead, so it also pushes forward.
-- Cohesion stays small: tracking a velocity toward the centre of boids
-- that surround you brakes, and with weight 1 the flock crawls at 1 m/s.
local function make_brain()
  return steer.priority{
    name = "boid",
    steer.avoid_obstacles{ lookahead = 2, name = "rocks" },
    steer.blend{
      name = "flock",
      { steer.separation{ radius = 2.5, name = "separation" }, 10 },
      { steer.alignment{ radius = 6, name = "alignment" }, 6 },
      { steer.cohesion{ radius = 8, name = "cohesion" }, 0.15 },
      { steer.wander{ distance = 4, radius = 2, jitter = 6, name = "wander" }, 0.5 },
    },
  }
end

-- Rocks the flock parts around: { x, y, radius }.
local ROCKS = { { 40, 30, 6 }, { 110, 65, 8 }, { 75, 20, 4 }, { 30, 75, 5 }, { 130, 25, 5 } }

-- Polarization of a list of agents (nil: every boid): the length of the
-- mean of their unit velocities.
local function polarization(w, list)
  local sx, sy, n = 0, 0, 0
  local function add(a)
    local vx, vy = a:vxy()
    local s = math.sqrt(vx * vx + vy * vy)
    if s > 0 then sx, sy, n = sx + vx / s, sy + vy / s, n + 1 end
  end
  if list then
    for i = 1, #list do add(list[i]) end
  else
    for a in w:agents("boid") do add(a) end
  end
  if n == 0 then return 0 end
  return math.sqrt(sx * sx + sy * sy) / n
end

-- Mean polarization of each boid's neighbourhood: w:neighbors is a query
-- from Lua (a table per call), fine every few seconds, not every tick.
local function local_polarization(w, radius)
  local sum, n = 0, 0
  for a in w:agents("boid") do
    local x, y = a:xy()
    local near = w:neighbors({ x, y }, radius, "boid")
    if #near > 1 then sum, n = sum + polarization(w, near), n + 1 end
  end
  return n > 0 and sum / n or 0
end

-- When the next report is due, in steer.state: hot reloads, --load and
-- the viewer's rewind keep it (this file's locals start afresh on a reload).
local S = steer.state

return {
  world = { dim = 2, size = { WIDTH, HEIGHT }, wrap = true, seed = 7, collide = true },

  setup = function(w)
    S.next_report = REPORT_EVERY
    -- the script's own random numbers: fixed, so every run (on every Lua) starts alike
    local stream = random.new(7)
    for _, r in ipairs(ROCKS) do w:add_obstacle{ position = { r[1], r[2] }, radius = r[3] } end
    local brain = make_brain()
    local function on_rock(x, y)
      for _, r in ipairs(ROCKS) do
        if (x - r[1]) ^ 2 + (y - r[2]) ^ 2 < (r[3] + 1) ^ 2 then return true end
      end
      return false
    end
    for _ = 1, COUNT do
      local angle = random.float(stream) * 2 * math.pi
      local speed = 3 + 3 * random.float(stream)
      local x, y
      repeat x, y = random.float(stream) * WIDTH, random.float(stream) * HEIGHT until not on_rock(x, y)
      w:spawn{
        position = { x, y },
        velocity = { speed * math.cos(angle), speed * math.sin(angle) },
        max_speed = 8, max_force = 10, radius = 0.5,
        brain = brain, tag = "boid",
      }
    end
    print(("flock: %d boids, polarization %.2f at the start"):format(w.count, polarization(w)))
  end,

  -- The low-frequency part: a report every few simulated seconds.
  update = function(w, dt)
    if w.time + dt / 2 >= S.next_report then
      S.next_report = S.next_report + REPORT_EVERY
      print(("flock: %5.1f s  polarization %.2f overall, %.2f within 6 m"):format(
        w.time, polarization(w), local_polarization(w, 6)))
    end
  end,

  -- (a snapshot saved before steer.state holds no report time: the first one's)
  load = function()
    if S.next_report == nil then S.next_report = REPORT_EVERY end
  end,

  -- After a hot reload: the flock keeps flying, with the new brain.
  reload = function(w)
    local brain = make_brain()
    for a in w:agents("boid") do a.brain = brain end
  end,
}
