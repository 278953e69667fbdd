-- SPDX-License-Identifier: MIT
-- context_traps_spec.lua — the two places of `steer-bench context --table`
-- (bench/context.c, docs/benchmarks.md) where blended forces cancel, so a
-- regression of steer.context there is caught: a 1.6 m doorway, where
-- avoid_walls' pushes off the jambs cancel arrive's pull and a blend of
-- the crowd recipe stalls in front of the gap, and a 90-degree corner an
-- agent is driven into by a threat, where a blend of flee and avoid_walls
-- runs through a wall. steer.context of the same children goes through
-- both. The scenes are the benchmark's, bit for bit.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

-- The crowd benchmark's brain of `method` (bench/crowd.c's brain_new, a
-- scene with obstacles): avoid_obstacles, avoid_walls, avoid_agents and
-- arrive, blended, prioritised or as a context's danger and interest.
local function crowd_brain(method, target)
  local obstacles, walls = steer.avoid_obstacles{}, steer.avoid_walls{}
  local agents = steer.avoid_agents{ horizon = 2 }
  local arrive = steer.arrive{ target = target, slow_radius = 3, stop_radius = 0.2 }
  if method == "context" then
    return steer.context{ interest = { arrive }, danger = { obstacles, walls, agents } }
  end
  return steer[method]{ obstacles, walls, agents, arrive }
end

-- The benchmark's door16, variant v: a wall on x = 0 with a gap
-- |y| < 0.8, one agent (r 0.3, 1.4 m/s) from (-8, s) to (8, -s),
-- s = -2 + 0.5 v, 60 s at 60 Hz. Returns when it came within 1 m of its
-- goal (nil: never) and the seconds after the first 0.5 s it spent slower
-- than 5% of its max_speed before that.
local function door16(method, v)
  local w = steer.world{ seed = 12345, dt = 1 / 60 }
  w:add_wall{ from = { 0, -30 }, to = { 0, -0.8 } }
  w:add_wall{ from = { 0, 0.8 }, to = { 0, 30 } }
  local s = -2 + 0.5 * v
  local goal = { 8, -s }
  local a = w:spawn{ position = { -8, s }, mass = 1, max_speed = 1.4, max_force = 8 * 1.4, radius = 0.3,
                     brain = crowd_brain(method, goal) }
  local stalled = 0
  for t = 1, 3600 do
    w:step()
    if a.position:dist(goal) <= 1 then return t / 60, stalled end
    if t > 30 and a.velocity:len() < 0.05 * 1.4 then stalled = stalled + 1 / 60 end
  end
  return nil, stalled
end

-- The benchmark's corner, variant k: walls along y = 0 and x = 0, a threat
-- 3.5 m from the corner at 5 + 10 k degrees, an agent (r 0.5, 3 m/s) 1.5 m
-- out on the diagonal moving into the corner at 2 m/s; 20 s. Returns when
-- it got 6 m from the threat (nil: never), and the lowest x or y its centre
-- reached (below 0: through a wall).
local function corner(method, k)
  local w = steer.world{ seed = 3 }
  w:add_wall{ from = { 0, 0 }, to = { 20, 0 } }
  w:add_wall{ from = { 0, 0 }, to = { 0, 20 } }
  local angle = math.rad(5 + 10 * k)
  local threat = { 3.5 * math.cos(angle), 3.5 * math.sin(angle) }
  local flee, walls = steer.flee{ target = threat, panic_radius = 15 }, steer.avoid_walls{ length = 2 }
  local brain = method == "context" and steer.context{ interest = { flee }, danger = { flee, walls } }
    or steer.blend{ flee, walls }
  local d = 1.5 / math.sqrt(2)
  local a = w:spawn{ position = { d, d }, velocity = { -math.sqrt(2), -math.sqrt(2) }, max_speed = 3, max_force = 6,
                     radius = 0.5, brain = brain }
  local lowest = math.huge
  for t = 1, 1200 do
    w:step()
    lowest = math.min(lowest, a.position.x, a.position.y)
    if a.position:dist(threat) > 6 then return t / 60, lowest end
  end
  return nil, lowest
end

describe("steer.context where blended forces cancel", function()
  it("goes through a 1.6 m doorway from every start, where the crowd recipe's blend stalls", function()
    for v = 0, 8 do
      local at, stalled = door16("context", v)
      expect(at ~= nil and at < 15, ("context, start %d: through and within 1 m of the goal in 15 s (at %s)")
        :format(v, tostring(at))):truthy()
      expect(stalled, ("context, start %d: seconds stopped"):format(v)):lt(0.1)
    end
    -- straight on (start 4) the jambs' pushes cancel the blend's arrive in
    -- front of the gap: it stops there with nobody in the way
    local at, stalled = door16("blend", 4)
    expect(at == nil, "the blend never arrives (at " .. tostring(at) .. ")"):truthy()
    expect(stalled, "the blend's seconds stopped in front of the gap"):gt(10)
  end)

  it("escapes a 90-degree corner past the threat without crossing a wall, where a blend goes through", function()
    for k = 0, 8 do
      local at, lowest = corner("context", k)
      expect(at ~= nil and at < 4, ("context, threat at %d degrees: 6 m from it in 4 s (at %s)")
        :format(5 + 10 * k, tostring(at))):truthy()
      expect(lowest, ("context, threat at %d degrees: lowest x or y of the centre (radius 0.5)"):format(5 + 10 * k))
        :gt(0.3)
      local _, blowest = corner("blend", k)
      expect(blowest, ("blend, threat at %d degrees: lowest x or y (through a wall)"):format(5 + 10 * k)):lt(0)
    end
  end)
end)
