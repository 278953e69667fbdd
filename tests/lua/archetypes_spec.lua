-- SPDX-License-Identifier: MIT
-- archetypes_spec.lua — steer.archetype and w:spawn(archetype, fields): a
-- named kind of agent that its agents stay bound to, so that defining the
-- name again (what a hot reload does) gives every one of them the new
-- vehicle, brain and think on the next tick, while their state stays; and
-- the ready-made archetypes in lua/steer/archetypes do what they are for.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local function spec_guard(speed, brain, think)
  return steer.archetype{
    name = "spec_guard", vehicle = { max_speed = speed, max_force = 4, radius = 0.4, mass = 2 },
    brain = brain, think = think, think_hz = think and 5 or nil,
  }
end

describe("steer.archetype", function()
  it("spawns agents with its vehicle, brain, think and its name as tag", function()
    local seek = steer.seek{}
    local calls = 0
    local g = spec_guard(3, seek, function() calls = calls + 1 end)
    local w = steer.world{ seed = 1 }
    local a = w:spawn(g, { position = { 1, 2 }, target = { 50, 0 } })
    expect(a.max_speed):eq(3)
    expect(a.max_force):eq(4)
    expect(a.mass):eq(2)
    expect(a.radius):near(0.4, 1e-6)
    expect(a.brain):eq(seek)
    expect(a.tag):eq("spec_guard")
    expect(a.think_hz):eq(5)
    expect(a.position.x):eq(1)
    w:step(60)
    expect(calls, "think calls in 1 s at 5 Hz"):ge(4)
    expect(a.speed):gt(1)
    local n = 0
    for _ in w:agents("spec_guard") do n = n + 1 end
    expect(n):eq(1)
  end)

  it("lets spawn fields override the archetype's", function()
    local g = spec_guard(3, steer.seek{})
    local w = steer.world{}
    local a = w:spawn(g, { max_speed = 7, tag = "captain" })
    expect(a.max_speed):eq(7)
    expect(a.max_force):eq(4)
    expect(a.tag):eq("captain")
  end)

  it("rebinds every agent of a name defined again, keeping positions, velocities, data and targets", function()
    local w = steer.world{ seed = 2 }
    local g = spec_guard(2, steer.seek{})
    local agents = {}
    for i = 1, 20 do
      local a = w:spawn(g, { position = { i, 0 }, target = { i, 100 } })
      a.data.n = i
      agents[i] = a
    end
    w:step(30)
    local before = {}
    for i, a in ipairs(agents) do before[i] = { a.position, a.velocity } end
    -- the reload: the scenario file runs again and defines the name anew
    local flee = steer.flee{}
    local g2 = spec_guard(5, flee)
    expect(g2.version):gt(g.version)
    -- nothing changes until the next tick ...
    expect(agents[1].max_speed):eq(2)
    w:step(0)
    for i, a in ipairs(agents) do
      expect(a.max_speed, "agent " .. i):eq(5)
      expect(a.brain, "agent " .. i):eq(flee)
      expect(a.data.n):eq(i)
      expect(a.target.y):eq(100)
      expect(a.position == before[i][1], "position kept"):truthy()
      expect(a.velocity == before[i][2], "velocity kept"):truthy()
    end
    w:step(60)
    -- fleeing now: they went away from their targets
    for _, a in ipairs(agents) do expect(a.position.y):lt(before[1][1].y) end
  end)

  it("keeps what an agent was given at spawn across a rebind", function()
    local w = steer.world{}
    local a = w:spawn(spec_guard(2, steer.seek{}), { max_speed = 9 })
    local b = w:spawn(spec_guard(2, steer.seek{}))
    spec_guard(4, steer.seek{})
    w:step(1)
    expect(a.max_speed):eq(9)
    expect(b.max_speed):eq(4)
  end)

  it("gives a craft its turn limits from the vehicle, and a rebind leaves them as spawned", function()
    local w = steer.world{}
    local jet = function(r, accel)
      return steer.archetype{ name = "spec_jet", vehicle = { model = "craft", min_turn_radius = r, min_speed = 2,
        max_turn_accel = accel, max_speed = 10, mass = 1 } }
    end
    local a = w:spawn(jet(5, 10), { velocity = { 10, 0 } })
    expect(a.model):eq("craft")
    expect(a.min_turn_radius):eq(5)
    expect(a.min_speed):eq(2)
    expect(a.turn_radius, "max(min_turn_radius, v^2/max_turn_accel) at 10 m/s"):eq(10)
    jet(8, 20)
    w:step(1)
    expect(a.min_turn_radius, "as spawned"):eq(5)
    expect(a.max_turn_accel, "as spawned"):eq(10)
    expect(w:spawn(jet(8, 20)).min_turn_radius, "a new agent"):eq(8)
    expect(function() steer.archetype{ name = "spec_jet", vehicle = { min_speed = 2 } } end)
      :raises("field 'vehicle'", "min_speed", "craft")
  end)

  it("spawns from the newest definition of the name, even through an old value", function()
    local old = spec_guard(2, steer.seek{})
    spec_guard(6, steer.seek{})
    local w = steer.world{}
    expect(w:spawn(old).max_speed):eq(6)
  end)

  it("drops the think of an agent when the new definition has none, and leaves the brain to a brainless one's think", function()
    local w = steer.world{}
    local seek = steer.seek{}
    local a = w:spawn(spec_guard(2, seek, function() end))
    spec_guard(2, nil, nil)
    w:step(1)
    expect(a.think):eq(nil)
    expect(a.brain, "a brainless archetype's think chooses brains"):eq(seek)
    local arrive = steer.arrive{}
    spec_guard(2, arrive)
    w:step(1)
    expect(a.brain):eq(arrive)
  end)

  it("forgets removed agents and serves several worlds", function()
    local g = spec_guard(2, steer.seek{})
    local w1, w2 = steer.world{}, steer.world{}
    local a1, a2 = w1:spawn(g), w2:spawn(g)
    a1:remove()
    spec_guard(3, steer.seek{})
    w1:step(1)
    w2:step(1)
    expect(a2.max_speed):eq(3)
    expect(a1.alive):falsy()
  end)

  it("is read-only and prints its name", function()
    local g = spec_guard(2, steer.seek{})
    expect(tostring(g)):eq("steer.archetype(spec_guard)")
    expect(g.name):eq("spec_guard")
    expect(g.vehicle.max_speed):eq(2)
    g.vehicle.max_speed = 100 -- a copy: the definition does not change
    expect(g.vehicle.max_speed):eq(2)
    expect(function() g.name = "x" end):raises("cannot be changed")
  end)

  it("rejects bad definitions, naming the field", function()
    expect(function() steer.archetype{} end):raises("field 'name'")
    expect(function() steer.archetype{ name = "" } end):raises("field 'name'")
    expect(function() steer.archetype{ name = "x", vehicle = 3 } end):raises("field 'vehicle'")
    expect(function() steer.archetype{ name = "x", vehicle = { max_speed = -1 } } end):raises("max_speed")
    expect(function() steer.archetype{ name = "x", vehicle = { mass = 0 } } end):raises("mass")
    expect(function() steer.archetype{ name = "x", vehicle = { speed = 1 } } end):raises("speed")
    expect(function() steer.archetype{ name = "x", brain = 1 } end):raises("field 'brain'")
    expect(function() steer.archetype{ name = "x", think = 1 } end):raises("field 'think'")
    expect(function() steer.archetype{ name = "x", think_hz = 5 } end):raises("without 'think'")
    expect(function() steer.archetype{ name = "x", colour = 1 } end):raises("colour")
    local w = steer.world{}
    local g = spec_guard(2)
    expect(function() w:spawn(g, 5) end):raises("expected a table or nil")
    expect(function() w:spawn(g, { mass = -1 }) end):raises("mass")
    local ok, err = pcall(function() w:spawn(g, { mass = -1 }) end)
    expect(ok):falsy()
    expect(err):matches("archetypes_spec%.lua:%d+: steer%.world:spawn:")
    expect(w.count):eq(0)
  end)
end)

describe("archetype think_hz", function()
  it("is refused below 1e-6 like the agent's", function()
    expect(function() steer.archetype{ name = "slow", think = function() end, think_hz = 1e-300 } end)
      :raises_here(
      "steer.archetype", "field 'think_hz'", "a number of calls per second >= 1e-6 and <= 1e6")
  end)
end)

local guard = require "steer.archetypes.guard"

local ROUTE = { { 10, 10 }, { 50, 10 }, { 50, 50 }, { 10, 50 } }

local function dist_to_route(a)
  local best = math.huge
  for i = 1, #ROUTE do
    local p, q = ROUTE[i], ROUTE[i % #ROUTE + 1]
    local x, y = a:xy()
    local ux, uy = q[1] - p[1], q[2] - p[2]
    local t = math.max(0, math.min(1, ((x - p[1]) * ux + (y - p[2]) * uy) / (ux * ux + uy * uy)))
    local dx, dy = x - p[1] - t * ux, y - p[2] - t * uy
    best = math.min(best, math.sqrt(dx * dx + dy * dy))
  end
  return best
end

describe("guard", function()
  it("patrols its route when nobody is around", function()
    local w = steer.world{ size = { 100, 100 }, seed = 1 }
    local g = guard.spawn(w, { route = ROUTE })
    local arrivals = 0
    w:on("arrive", function() arrivals = arrivals + 1 end)
    local worst = 0
    for _ = 1, 60 * 60 do
      w:step()
      worst = math.max(worst, dist_to_route(g))
    end
    expect(arrivals, "route points reached in 60 s"):ge(4)
    expect(worst, "metres off the route"):lt(1.5)
    expect(g.data.mode):eq("patrol")
  end)

  it("catches a slow intruder it sees", function()
    local w = steer.world{ size = { 100, 100 }, seed = 2 }
    local g = guard.spawn(w, { route = ROUTE })
    -- ahead of the guard on its first leg, walking away slowly
    local intruder = w:spawn{ position = { 22, 14 }, tag = "intruder", max_speed = 1.5, max_force = 5,
                              brain = steer.seek{}, target = { 90, 20 } }
    local caught_at
    for t = 1, 60 * 30 do
      w:step()
      if g.position:dist(intruder.position) < guard.params.catch_distance then caught_at = t / 60 break end
    end
    expect(caught_at, "caught within 30 s"):truthy()
    expect(g.data.mode):eq("pursue")
  end)

  it("does not see an intruder behind a wall or behind its back", function()
    local w = steer.world{ size = { 100, 100 }, seed = 3 }
    w:add_wall{ from = { 20, 0 }, to = { 20, 30 } }
    local g = guard.spawn(w, { route = { { 10, 10 }, { 15, 10 } }, position = { 10, 10 } })
    g.heading = { 1, 0 }
    local behind_wall = w:spawn{ position = { 25, 10 }, tag = "intruder" }
    local behind_back = w:spawn{ position = { 5, 10 }, tag = "intruder" }
    local in_view = w:spawn{ position = { 15, 15 }, tag = "intruder" }
    expect(guard.sees(w, g, behind_wall)):falsy()
    expect(guard.sees(w, g, behind_back)):falsy()
    expect(guard.sees(w, g, in_view)):truthy()
  end)

  it("after losing sight goes to the last seen place, searches, then returns to its route", function()
    local w = steer.world{ size = { 100, 100 }, seed = 4 }
    local g = guard.spawn(w, { route = ROUTE })
    local intruder = w:spawn{ position = { 24, 12 }, tag = "intruder", max_speed = 1, brain = steer.seek{},
                              target = { 30, 30 } }
    local modes, last = {}, nil
    local function watch()
      if g.data.mode ~= last then last = g.data.mode modes[#modes + 1] = last end
    end
    for _ = 1, 60 * 2 do w:step() watch() end
    expect(g.data.mode, "pursuing after 2 s"):eq("pursue")
    intruder:remove() -- gone: out of sight for good
    local back_at
    for t = 1, 60 * 40 do
      w:step()
      watch()
      if g.data.mode == "patrol" and dist_to_route(g) < 1 then back_at = t / 60 break end
    end
    expect(table.concat(modes, " > ")):eq("patrol > pursue > investigate > search > patrol")
    expect(back_at, "back on its route within 40 s of losing the intruder"):truthy()
  end)

  it("takes new parameters when its module is loaded again (a hot reload)", function()
    local w = steer.world{ size = { 100, 100 }, seed = 5 }
    local g = guard.spawn(w, { route = ROUTE })
    w:step(30)
    local pos = g.position
    package.loaded["steer.archetypes.guard"] = nil
    local fresh = require "steer.archetypes.guard"
    fresh.vehicle.max_speed = 5 -- as if the file had been edited: define again
    steer.archetype{ name = "guard", vehicle = fresh.vehicle, think = fresh.think, think_hz = 5 }
    w:step(0)
    expect(g.max_speed):eq(5)
    expect(g.position == pos):truthy()
    expect(g.data.mode):eq("patrol")
    guard = fresh
  end)
end)

local boid = require "steer.archetypes.boid"
local prey = require "steer.archetypes.prey"
local predator = require "steer.archetypes.predator"
local pedestrian = require "steer.archetypes.pedestrian"

describe("boid", function()
  it("200 boids align into a flock and never enter the obstacles", function()
    local w = steer.world{ size = { 80, 80 }, wrap = true, seed = 6 }
    local rocks = { { 20, 20, 4 }, { 60, 50, 5 }, { 35, 60, 3 } }
    for _, r in ipairs(rocks) do w:add_obstacle{ position = { r[1], r[2] }, radius = r[3] } end
    math.randomseed(6)
    local n = 0
    while n < 200 do
      local x, y = math.random() * 80, math.random() * 80
      local free = true
      for _, r in ipairs(rocks) do
        if (x - r[1]) ^ 2 + (y - r[2]) ^ 2 < (r[3] + 1) ^ 2 then free = false end
      end
      if free then
        local a = math.random() * 2 * math.pi
        w:spawn(boid.archetype, { position = { x, y }, velocity = { math.cos(a), math.sin(a) } })
        n = n + 1
      end
    end
    local inside = 0
    for _ = 1, 60 * 30 do
      w:step()
      for a in w:agents("boid") do
        local x, y = a:xy()
        for _, r in ipairs(rocks) do
          if (x - r[1]) ^ 2 + (y - r[2]) ^ 2 < (r[3] - 0.05) ^ 2 then inside = inside + 1 end
        end
      end
    end
    expect(inside, "boid-ticks inside an obstacle"):eq(0)
    -- local order: the mean of each boid's alignment with its neighbours
    local sum, count = 0, 0
    for a in w:agents("boid") do
      local h = a.heading
      for _, o in ipairs(w:neighbors(a.position, 5, "boid")) do
        if o ~= a then sum, count = sum + h:dot(o.heading), count + 1 end
      end
    end
    -- (0 for random headings; it swings between about 0.7 and 0.99 from one
    -- second to the next as flocks split round the rocks and merge again)
    expect(sum / count, "mean heading agreement with neighbours"):gt(0.65)
  end)
end)

-- Boids see obstacles only: walls stop them only in a world that collides
-- (docs_spec checks that the reference and the module say so).
describe("boid and walls", function()
  local function pen(collide)
    local w = steer.world{ seed = 3, collide = collide }
    local L = 20
    for _, s in ipairs{ { { 0, 0 }, { L, 0 } }, { { L, 0 }, { L, L } }, { { L, L }, { 0, L } }, { { 0, L }, { 0, 0 } } } do
      w:add_wall{ from = s[1], to = s[2] }
    end
    for i = 1, 60 do
      local a, r = 2 * math.pi * i / 60, 1 + i % 3
      w:spawn(boid.archetype, { position = { 10 + r * math.cos(3 * a), 10 + r * math.sin(3 * a) },
                                velocity = { 2 * math.cos(a), 2 * math.sin(a) } })
    end
    local out = 0
    for _ = 1, 60 * 30 do
      w:step()
      for o in w:agents("boid") do
        local x, y = o:xy()
        if x < 0 or y < 0 or x > L or y > L then out = out + 1 end
      end
    end
    return out
  end

  it("fly through walls unless the world collides; with collide = true none leaves a walled pen", function()
    expect(pen(false), "boid-ticks outside the pen, no collide"):gt(0)
    expect(pen(true), "boid-ticks outside the pen, collide = true"):eq(0)
  end)
end)

describe("predator and prey", function()
  it("prey evades: it gains distance from a predator that it would lose to standing still", function()
    local function run(evading)
      local w = steer.world{ size = { 200, 200 }, seed = 7 }
      local p = w:spawn(predator.archetype, { position = { 90, 100 }, velocity = { 1, 0 } })
      local q = evading and w:spawn(prey.archetype, { position = { 100, 100 } })
                or w:spawn{ position = { 100, 100 }, tag = "prey" }
      w:step(60 * 4)
      return p.data.caught or 0, q.alive and p.position:dist(q.position) or 0
    end
    local caught_still = run(false)
    expect(caught_still, "a prey that does not move is caught"):eq(1)
    local caught, dist = run(true)
    expect(caught, "the evading prey escapes for 4 s"):eq(0)
    expect(dist, "metres between them after 4 s"):gt(8)
  end)

  it("a pack of predators thins a herd over time; the predators tire and rest", function()
    local w = steer.world{ size = { 120, 120 }, seed = 8 }
    math.randomseed(8)
    for _ = 1, 60 do
      w:spawn(prey.archetype, { position = { 30 + math.random() * 60, 30 + math.random() * 60 } })
    end
    local hunters = {}
    for i = 1, 3 do hunters[i] = w:spawn(predator.archetype, { position = { 10 + 40 * i, 5 } }) end
    local rested = false
    for _ = 1, 60 * 60 do
      w:step()
      for _, h in ipairs(hunters) do if h.data.rest then rested = true end end
    end
    local left = 0
    for _ in w:agents("prey") do left = left + 1 end
    expect(left, "prey left after 60 s"):lt(60)
    expect(left, "prey left after 60 s"):gt(0)
    expect(rested, "some predator gave up a chase"):truthy()
    for a in w:agents() do
      local x, y = a:xy()
      expect(x >= -1 and x <= 121 and y >= -1 and y <= 121, "inside the bounds"):truthy()
    end
  end)
end)

describe("pedestrian", function()
  it("24 pedestrians crossing a circle all arrive without walking through each other", function()
    local w = steer.world{ size = { 40, 40 }, seed = 9 }
    local people = {}
    for i = 1, 24 do
      local t = i / 24 * 2 * math.pi
      people[i] = w:spawn(pedestrian.archetype, {
        position = { 20 + 10 * math.cos(t), 20 + 10 * math.sin(t) },
        target = { 20 - 10 * math.cos(t), 20 - 10 * math.sin(t) },
      })
    end
    local arrived, worst = {}, 0
    w:on("arrive", function(a) arrived[a] = true end)
    for _ = 1, 60 * 40 do
      w:step()
      for i = 1, #people do
        for j = i + 1, #people do
          local d = people[i].position:dist(people[j].position)
          worst = math.max(worst, 0.6 - d)
        end
      end
    end
    local n = 0
    for _ in pairs(arrived) do n = n + 1 end
    expect(n, "pedestrians arrived in 40 s"):eq(24)
    expect(worst, "deepest overlap in metres (radius 0.3)"):lt(0.15)
  end)

  it("walks a path through a doorway in a wall", function()
    local w = steer.world{ size = { 40, 40 }, seed = 10 }
    w:add_wall{ from = { 20, 0 }, to = { 20, 18 } }
    w:add_wall{ from = { 20, 22 }, to = { 20, 40 } }
    local p = pedestrian.spawn(w, { path = { { 5, 5 }, { 18, 20 }, { 22, 20 }, { 35, 35 } } })
    local arrived = false
    w:on("arrive", function() arrived = true end)
    w:step(60 * 40)
    expect(arrived):truthy()
    expect(p.position:dist(steer.vec(35, 35))):lt(0.5)
  end)
end)
