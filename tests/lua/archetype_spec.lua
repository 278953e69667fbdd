-- SPDX-License-Identifier: MIT
-- archetype_spec.lua — steer.archetype and w:spawn(archetype, fields): a
-- named kind of agent that its agents stay bound to, so that defining the
-- name again (what a hot reload does) gives every one of them the new
-- vehicle, brain and think on the next tick, while their state stays.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local function guard(speed, brain, think)
  return steer.archetype{
    name = "spec_guard", vehicle = { max_speed = speed, max_force = 4, radius = 0.4, mass = 2 },
    brain = brain, think = think, think_hz = think and 5 or nil,
  }
end

describe("steer.archetype", function()
  it("spawns agents with its vehicle, brain, think and its name as tag", function()
    local seek = steer.seek{}
    local calls = 0
    local g = guard(3, seek, function() calls = calls + 1 end)
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
    local g = guard(3, steer.seek{})
    local w = steer.world{}
    local a = w:spawn(g, { max_speed = 7, tag = "captain" })
    expect(a.max_speed):eq(7)
    expect(a.max_force):eq(4)
    expect(a.tag):eq("captain")
  end)

  it("rebinds every agent of a name defined again, keeping positions, velocities, data and targets", function()
    local w = steer.world{ seed = 2 }
    local g = guard(2, steer.seek{})
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
    local g2 = guard(5, flee)
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
    local a = w:spawn(guard(2, steer.seek{}), { max_speed = 9 })
    local b = w:spawn(guard(2, steer.seek{}))
    guard(4, steer.seek{})
    w:step(1)
    expect(a.max_speed):eq(9)
    expect(b.max_speed):eq(4)
  end)

  it("spawns from the newest definition of the name, even through an old value", function()
    local old = guard(2, steer.seek{})
    guard(6, steer.seek{})
    local w = steer.world{}
    expect(w:spawn(old).max_speed):eq(6)
  end)

  it("drops the think of an agent when the new definition has none, and leaves the brain to a brainless one's think", function()
    local w = steer.world{}
    local seek = steer.seek{}
    local a = w:spawn(guard(2, seek, function() end))
    guard(2, nil, nil)
    w:step(1)
    expect(a.think):eq(nil)
    expect(a.brain, "a brainless archetype's think chooses brains"):eq(seek)
    local arrive = steer.arrive{}
    guard(2, arrive)
    w:step(1)
    expect(a.brain):eq(arrive)
  end)

  it("forgets removed agents and serves several worlds", function()
    local g = guard(2, steer.seek{})
    local w1, w2 = steer.world{}, steer.world{}
    local a1, a2 = w1:spawn(g), w2:spawn(g)
    a1:remove()
    guard(3, steer.seek{})
    w1:step(1)
    w2:step(1)
    expect(a2.max_speed):eq(3)
    expect(a1.alive):falsy()
  end)

  it("is read-only and prints its name", function()
    local g = guard(2, steer.seek{})
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
    local g = guard(2)
    expect(function() w:spawn(g, 5) end):raises("expected a table or nil")
    expect(function() w:spawn(g, { mass = -1 }) end):raises("mass")
    local ok, err = pcall(function() w:spawn(g, { mass = -1 }) end)
    expect(ok):falsy()
    expect(err):matches("archetype_spec%.lua:%d+: steer%.world:spawn:")
    expect(w.count):eq(0)
  end)
end)
