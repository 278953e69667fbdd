-- SPDX-License-Identifier: MIT
-- flock.lua — a whole scenario for the scenario tests: 200 agents flocking
-- and wandering in a wrapped world, a few arriving at a moving goal. Its
-- update checks the invariants every tick (finite state, speed limits, the
-- count), so `steer run --headless --ticks N` fails (exit 1, FILE:LINE) the
-- moment one breaks; the driver (scenario_spec.lua) compares the summary
-- hashes of repeated runs. Its save and load keep its list of agents
-- across snapshots (--load, --rewind-to).
local steer = require "steer"

local agents = {}

return {
  world = { dim = 2, size = { 100, 100 }, wrap = true, seed = 7 },

  setup = function(w)
    -- inputs from a fixed generator: only the world seed varies between runs
    local s = 2024
    local function rand(lo, hi)
      s = (s * 1103515245 + 12345) % 2147483648
      return lo + (hi - lo) * s / 2147483648
    end
    local flock = steer.blend{
      { steer.separation{ radius = 2, name = "separate" }, 1.5 }, { steer.alignment{ radius = 5 }, 1 },
      { steer.cohesion{ radius = 5 }, 1 }, { steer.wander{}, 0.5 },
    }
    local homing = steer.arrive{ slow_radius = 6, stop_radius = 0.5 }
    for i = 1, 200 do
      local angle = rand(0, 2 * math.pi)
      agents[i] = w:spawn{ position = { rand(0, 100), rand(0, 100) }, velocity = { math.cos(angle), math.sin(angle) },
                           max_speed = 2, max_force = 1.5, brain = i % 20 == 0 and homing or flock,
                           target = { 50, 50 } }
    end
  end,

  update = function(w, dt)
    assert(w.count == #agents, "agents were lost: " .. w.count)
    for i, a in ipairs(agents) do
      local x, y = a:xy()
      assert(x == x and y == y and x >= 0 and x < 100 and y >= 0 and y < 100, "agent " .. i .. " at " .. x .. ", " .. y)
      assert(a.speed <= a.max_speed * (1 + 1e-6), "agent " .. i .. " too fast: " .. a.speed)
    end
    -- the goal moves every 2 s, so the homing agents keep working
    if w.tick % 120 == 0 then
      local goal = { 50 + 30 * math.cos(w.time), 50 + 30 * math.sin(w.time) }
      for i = 20, #agents, 20 do agents[i].target = goal end
    end
    assert(dt == w.dt, "update got dt " .. dt)
  end,

  -- the scenario's own state for snapshots (steer run --load, rewind): its
  -- list of agents, as plain data (handles by id)
  save = function()
    local ids = {}
    for i, a in ipairs(agents) do ids[i] = a.id end
    return { ids = ids }
  end,
  load = function(w, data)
    local by_id = {}
    for a in w:agents() do by_id[a.id] = a end
    agents = {}
    for i, id in ipairs(data.ids) do agents[i] = assert(by_id[id], "agent " .. id .. " is in the snapshot") end
  end,
}
