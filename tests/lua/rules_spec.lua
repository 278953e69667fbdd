-- SPDX-License-Identifier: MIT
-- rules_spec.lua — the world-level rules a script can switch on: the hard
-- non-penetration constraint (collide), stuck detection, and Lua-written
-- behaviours (steer.custom), with what each promises a user: walls hold,
-- stacked agents come apart, a blocked agent is reported stuck and a free
-- one is not, a custom force moves agents and a broken one is reported
-- without harming the world.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

describe("collide (non-penetration)", function()
  it("keeps an agent driven into a wall on its side of it", function()
    local w = steer.world{ collide = true }
    w:add_wall{ from = { 5, -10 }, to = { 5, 10 } }
    local a = w:spawn{ position = { 0, 0 }, radius = 0.5, max_speed = 6, max_force = 20,
                       brain = steer.seek{ target = { 20, 0 } } }
    local worst = -math.huge
    for _ = 1, 300 do
      w:step()
      local x = a:xy()
      worst = math.max(worst, x)
    end
    expect(worst, "largest x of the centre"):le(4.5 + 1e-4)
  end)

  it("never leaves an agent inside an obstacle, and reports the contact", function()
    local w = steer.world{ collide = true }
    w:add_obstacle{ position = { 10, 0 }, radius = 3 }
    local a = w:spawn{ position = { 0, 0 }, radius = 1, max_speed = 5, max_force = 20,
                       brain = steer.seek{ target = { 10, 0 } } }
    local contacts = 0
    w:on("collide", function(agent, other)
      expect(agent == a, "the event names the agent"):truthy()
      expect(other, "no other agent for a shape"):eq(nil)
      contacts = contacts + 1
    end)
    local closest = math.huge
    for _ = 1, 300 do
      w:step()
      closest = math.min(closest, a.position:dist({ 10, 0 }))
    end
    expect(closest, "closest centre distance"):ge(4 - 1e-4)
    expect(contacts, "collide events"):ge(1)
  end)

  it("separates 50 agents spawned on one point", function()
    local w = steer.world{ collide = { iterations = 4 } }
    local agents = {}
    for i = 1, 50 do agents[i] = w:spawn{ position = { 0, 0 }, radius = 0.5 } end
    w:step(60)
    local min = math.huge
    for i = 1, 50 do
      for j = i + 1, 50 do min = math.min(min, agents[i].position:dist(agents[j].position)) end
    end
    expect(min, "closest pair after one second"):ge(0.9)
  end)

  it("is off by default: agents pass through walls", function()
    local w = steer.world{}
    w:add_wall{ from = { 5, -10 }, to = { 5, 10 } }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 6, max_force = 20, brain = steer.seek{ target = { 20, 0 } } }
    w:step(300)
    expect((a:xy()), "x"):gt(10)
  end)

  it("rejects bad options", function()
    expect(function() steer.world{ collide = 3 } end):raises("steer.world", "collide")
    expect(function() steer.world{ collide = { iterations = 0 } } end):raises("iterations")
  end)
end)

describe("stuck", function()
  it("reports an agent that pushes into a wall and makes no progress", function()
    local w = steer.world{ stuck = { window = 1, progress = 0.5 }, collide = true }
    w:add_wall{ from = { 5, -10 }, to = { 5, 10 } }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 2, max_force = 4, brain = steer.seek{}, target = { 10, 0 } }
    local first
    w:on("stuck", function(agent)
      expect(agent == a, "the stuck agent"):truthy()
      first = first or w.time
    end)
    w:step(600)
    expect(first, "time of the first stuck event"):type("number")
    expect(first, "it was moving freely for the first 2 s"):gt(2)
    expect(first, "reported within a few windows of hitting the wall"):lt(6)
  end)

  it("does not report an agent that arrived and rests, nor one that travels", function()
    local w = steer.world{ stuck = { window = 1, progress = 0.5 } }
    w:spawn{ position = { 0, 0 }, max_speed = 2, max_force = 4, brain = steer.arrive{ slow_radius = 3 }, target = { 6, 0 } }
    w:spawn{ position = { 0, 5 }, max_speed = 2, max_force = 4, brain = steer.seek{}, target = { 500, 5 } }
    local events = 0
    w:on("stuck", function() events = events + 1 end)
    w:step(900)
    expect(events, "stuck events"):eq(0)
  end)

  it("rejects bad options", function()
    expect(function() steer.world{ stuck = { window = -1 } } end):raises("stuck", "window")
    expect(function() steer.world{ stuck = { windw = 1 } } end):raises("unknown field 'windw'")
  end)
end)

describe("steer.custom", function()
  it("moves agents by a force computed in Lua", function()
    local w = steer.world{}
    local home = steer.custom(function(agent)
      local x, y = agent:xy()
      local vx, vy = agent:vxy()
      return -2 * x - 2 * vx, -2 * y - 2 * vy -- a damped spring to the origin
    end)
    local a = w:spawn{ position = { 10, -5 }, max_speed = 5, max_force = 10, brain = home }
    w:step(600)
    expect(a.position:len(), "distance from the origin"):lt(0.05)
  end)

  it("blends with built-in behaviours and is named in contributions", function()
    local w = steer.world{}
    local b = steer.blend{ { steer.custom{ fn = function() return 1, 0 end, name = "east" }, 1 },
                           { steer.seek{ target = { 0, 100 }, name = "north" }, 1 } }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 2, max_force = 4, brain = b }
    w:step(2)
    local c = a:contributions()
    expect(c.east.x, "custom x"):eq(1)
    expect(c.north.y, "seek y"):gt(0)
  end)

  it("takes its function as the table's first entry, as meta.lua and the reference show", function()
    local east = function() return 1, 0 end
    local desc = { east, name = "east" }
    local w = steer.world{}
    local a = w:spawn{ position = { 0, 0 }, max_speed = 2, max_force = 4, brain = steer.custom(desc) }
    w:step(2)
    expect(a:contributions().east.x, "custom x"):eq(1)
    expect(desc[1] == east and desc.fn == nil, "the caller's table is left as it was"):truthy()
    expect(function() steer.custom{ east, fn = east } end):raises("give the function once")
    expect(function() steer.custom{ east, speed = 1 } end):raises("unknown field 'speed'")
    expect(function() steer.custom{ east, east } end):raises("unexpected key")
  end)

  it("reports a function that fails, or returns no numbers, at the step", function()
    local w = steer.world{}
    local a = w:spawn{ brain = steer.custom(function() error("boom") end) }
    expect(function() w:step() end):raises("steer.custom function", "boom")
    a.brain = steer.custom(function() return "x", 1 end)
    expect(function() w:step() end):raises("return value 1", "\"x\"")
    a.brain = steer.custom(function() return 0 / 0, 1 end)
    expect(function() w:step() end):raises("NaN")
    local x, y = a:xy()
    expect(x == x and y == y, "position is still a number"):truthy()
  end)

  it("may read agents but not change the world during the steer pass", function()
    local w = steer.world{}
    w:spawn{ brain = steer.custom(function() w:spawn{} return 0, 0 end) }
    expect(function() w:step() end):raises("not allowed during the steer pass")
    expect(w.count, "no agent was added"):eq(1)
  end)

  it("needs a function", function()
    expect(function() steer.custom{} end):raises("steer.custom", "fn")
    expect(function() steer.custom(42) end):raises("steer.custom")
  end)
end)
