-- SPDX-License-Identifier: MIT
-- pursuit.lua — a wandering prey evades four pursuers in a wrapped world.
--
-- The prey's brain is a priority: first a blend of one `evade` per hunter
-- (each only inside its panic radius), and when no hunter is that close
-- the blend gives no force, so the priority falls through to `wander`. The
-- hunters blend `pursue` (aiming where the prey will be) with separation
-- from each other, so they spread out instead of queueing in one line.
-- The prey is a little faster; the hunters turn harder and win by numbers. When one gets within
-- CATCH_RADIUS the script counts a catch and the prey escapes to a spot
-- far from every hunter, so the chase starts over.
--
-- Every brain is built once in Lua and then runs in C; the only Lua per
-- tick is the catch test, one neighbour query around the prey.
--
-- Try: raise PANIC_RADIUS or the hunters' max_speed and save; `reload`
-- hands everyone the new brains mid-chase.
--
-- Keys in the viewer: R reloads, Space pauses, click an agent to inspect it, H lists every key, Esc quits.
-- Headless: steer run --headless --ticks 600 demos/pursuit.lua

local steer = require "steer"
local random = require "steer.random" -- a stream a snapshot keeps (math.random's is not)

local WIDTH, HEIGHT = 120, 80
local HUNTERS = 4
local PANIC_RADIUS = 18 -- the prey ignores hunters farther than this
local CATCH_RADIUS = 1.2
local PREY = { max_speed = 10, max_force = 12, radius = 0.6 }
local HUNTER = { max_speed = 9.5, max_force = 14, radius = 0.6 }

local function prey_brain(hunters)
  local escape = { name = "escape" }
  for i, h in ipairs(hunters) do
    escape[i] = { steer.evade{ target = h, panic_radius = PANIC_RADIUS, max_prediction = 0.8, name = "evade" }, 1 }
  end
  return steer.priority{
    name = "prey",
    steer.blend(escape),
    steer.wander{ distance = 4, radius = 2, jitter = 8, name = "wander" },
  }
end

local function hunter_brain(prey)
  return steer.blend{
    name = "hunter",
    { steer.pursue{ target = prey, max_prediction = 1.5, name = "pursue" }, 1 },
    { steer.separation{ radius = 6, tag = "hunter", name = "spread" }, 20 },
  }
end

-- Squared distance in the wrapped world (the short way round).
local function dist2(ax, ay, bx, by)
  local dx, dy = math.abs(ax - bx), math.abs(ay - by)
  dx, dy = math.min(dx, WIDTH - dx), math.min(dy, HEIGHT - dy)
  return dx * dx + dy * dy
end

-- The best of a few random spots: the one farthest from its nearest hunter.
-- The stream lives in the prey's a.data, which snapshots and reloads keep.
local function escape_spot(w, rng)
  local best, best_d2 = nil, -1
  for _ = 1, 16 do
    local x, y = random.float(rng) * WIDTH, random.float(rng) * HEIGHT
    local near = math.huge
    for h in w:agents("hunter") do
      local hx, hy = h:xy()
      near = math.min(near, dist2(x, y, hx, hy))
    end
    if near > best_d2 then best, best_d2 = { x, y }, near end
  end
  return best
end

local function bind_brains(w)
  local hunters = {}
  for h in w:agents("hunter") do hunters[#hunters + 1] = h end
  local prey = w:agents("prey")()
  prey.brain = prey_brain(hunters)
  local brain = hunter_brain(prey)
  for _, h in ipairs(hunters) do h.brain = brain end
  for k, v in pairs(PREY) do prey[k] = v end
  for _, h in ipairs(hunters) do
    for k, v in pairs(HUNTER) do h[k] = v end
  end
  return prey
end

-- The prey (an agent) in steer.state, which hot reloads, --load and the
-- viewer's rewind keep (this file's locals start afresh on every reload);
-- the score lives in the prey's a.data, which stays with it.
local S = steer.state

return {
  world = { dim = 2, size = { WIDTH, HEIGHT }, wrap = true, seed = 11 },

  setup = function(w)
    for i = 1, HUNTERS do
      local angle = i / HUNTERS * 2 * math.pi
      w:spawn{
        position = { WIDTH / 2 + 30 * math.cos(angle), HEIGHT / 2 + 30 * math.sin(angle) },
        tag = "hunter", data = { number = i },
      }
    end
    w:spawn{ position = { WIDTH / 2, HEIGHT / 2 }, velocity = { 1, 0 }, tag = "prey",
             data = { catches = 0, chase_start = 0, rng = random.new(11) } }
    S.prey = bind_brains(w)
  end,

  update = function(w)
    local prey = S.prey
    local x, y = prey:xy()
    local near = w:neighbors({ x, y }, CATCH_RADIUS, "hunter")
    if #near == 0 then return end
    local score = prey.data
    score.catches = score.catches + 1
    print(("pursuit: caught at %5.1f s by hunter %d after a %4.1f s chase (%d so far)"):format(
      w.time, near[1].data.number, w.time - score.chase_start, score.catches))
    prey.position = escape_spot(w, score.rng)
    prey.velocity = { 1, 0 }
    score.chase_start = w.time
  end,

  reload = function(w)
    S.prey = bind_brains(w)
  end,

  -- (a snapshot saved before steer.state holds no prey: find it)
  load = function(w)
    if S.prey == nil then S.prey = w:agents("prey")() end
  end,
}
