-- SPDX-License-Identifier: MIT
-- errors_spec.lua — bad arguments raise errors a person can act on: the
-- message names the function, the field and what was expected, shows what
-- was given, and points at the caller's file:line. And a failed call
-- changes nothing; a callback's error that is not a string is still shown.
--
-- Each bad call is written as a one-line function at the call site, so the
-- line the function was defined on is the line the error must point at.
-- (pcall(steer.seek, {...}) would show no position at all: its caller is
-- pcall itself, a C function.)
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local w = steer.world{ seed = 1 }

describe("bad arguments", function()
  it("of the wrong type name the function, the field and the value", function()
    expect(function() steer.seek{ target = "home" } end)
      :raises_here("steer.seek", "field 'target' expected", "a vector", '"home"')
    expect(function() steer.arrive{ slow_radius = "5" } end)
      :raises_here("steer.arrive", "'slow_radius' expected", "a number", '"5"')
    expect(function() steer.wander{ variant = 1 } end)
      :raises_here("steer.wander", "'variant' expected", '"circle"', "1")
    expect(function() steer.separation{ tag = true } end)
      :raises_here("steer.separation", "'tag' expected", "a string", "true")
    expect(function() w:spawn{ brain = 5 } end)
      :raises_here("steer.world:spawn", "'brain' expected", "a behaviour", "5")
    expect(function() w:spawn{ tag = {} } end)
      :raises_here("steer.world:spawn", "'tag' expected", "a string", "a table")
    expect(function() w:spawn{ position = "origin" } end)
      :raises_here("steer.world:spawn", "'position' expected", "a vector")
    expect(function() steer.world{ wrap = "yes" } end):raises_here("steer.world", "'wrap' expected", "a boolean")
    expect(function() steer.world{ dim = 4 } end):raises_here("steer.world", "'dim' expected", "2 or 3", "4")
    expect(function() steer.blend{ "seek" } end):raises_here("steer.blend", "entry 1", "a behaviour")
    expect(function() steer.seek(5) end):raises_here("steer.seek", "a table of named arguments", "5")
  end)

  it("that are NaN say so", function()
    expect(function() steer.arrive{ slow_radius = 0 / 0 } end)
      :raises_here("steer.arrive", "'slow_radius' expected", "NaN")
    expect(function() steer.seek{ target = 0 / 0 } end):raises_here("steer.seek", "'target' expected", "NaN")
    expect(function() w:spawn{ mass = 0 / 0 } end):raises_here("steer.world:spawn", "'mass' expected", "NaN")
    expect(function() w:spawn{ position = { 0 / 0, 1 } } end)
      :raises_here("steer.world:spawn", "'position' expected", "finite")
    expect(function() steer.blend{ { steer.seek{}, 0 / 0 } } end):raises_here("steer.blend", "weight", "finite")
  end)

  it("that are infinite say so", function()
    expect(function() w:spawn{ max_speed = math.huge } end)
      :raises_here("steer.world:spawn", "'max_speed' expected", "inf")
    expect(function() w:spawn{ max_force = -math.huge } end)
      :raises_here("steer.world:spawn", "'max_force' expected", "-inf")
    expect(function() steer.wander{ jitter = math.huge } end)
      :raises_here("steer.wander", "'jitter' expected", "inf")
    expect(function() w:spawn{ velocity = { math.huge, 0 } } end)
      :raises_here("steer.world:spawn", "'velocity' expected", "finite")
    expect(function() steer.world{ dt = math.huge } end):raises_here("steer.world", "'dt' expected", "inf")
  end)

  it("out of range name the valid range", function()
    expect(function() steer.separation{ radius = -1 } end)
      :raises_here("steer.separation", "'radius' expected", ">= 1e-6 and <= 1e30", "-1")
    expect(function() steer.cohesion{ radius = 0 } end)
      :raises_here("steer.cohesion", "'radius' expected", ">= 1e-6 and <= 1e30", "0")
    expect(function() w:spawn{ radius = -0.5 } end)
      :raises_here("steer.world:spawn", "'radius' expected", "0 or a number >= 1e-6 and <= 1e30", "-0.5")
    expect(function() steer.flee{ panic_radius = -2 } end)
      :raises_here("steer.flee", "'panic_radius' expected",
        "0 or a number >= 1e-6 and <= 1e30 (0 = flee at any distance)", "-2")
    expect(function() w:spawn{ mass = 0 } end)
      :raises_here("steer.world:spawn", "'mass' expected", ">= 1e-6 and <= 1e30", "0")
    expect(function() w:spawn{ mass = -1 } end)
      :raises_here("steer.world:spawn", "'mass' expected", ">= 1e-6 and <= 1e30", "-1")
    expect(function() steer.world{ dt = 0 } end)
      :raises_here("steer.world", "'dt' expected", "a number of seconds >= 1e-6 and <= 1", "0")
  end)

  it("with unknown field names list the accepted ones", function()
    expect(function() steer.seek{ targt = { 1, 2 } } end)
      :raises_here("steer.seek", "unknown field 'targt'", "target")
    expect(function() w:spawn{ maxspeed = 3 } end)
      :raises_here("steer.world:spawn", "unknown field 'maxspeed'", "max_speed")
    expect(function() steer.world{ sise = { 1, 1 } } end)
      :raises_here("steer.world", "unknown field 'sise'", "size")
  end)

  it("that contradict each other name both fields", function()
    local msg = expect(function() steer.arrive{ slow_radius = 2, stop_radius = 3 } end)
      :raises("steer.arrive", "stop_radius", "slow_radius", "3", "2")
    expect(msg, "position"):matches("errors_spec%.lua:%d+:")
    expect(function() steer.arrive{ slow_radius = 2, stop_radius = 2 } end):raises("stop_radius", "slow_radius")
  end)

  it("of agent fields name the field", function()
    local a = w:spawn{ position = { 0, 0 } }
    expect(function() a.mass = 0 end):raises_here("steer.agent", "'mass' expected", ">= 1e-6 and <= 1e30", "0")
    expect(function() a.max_speed = -1 end)
      :raises_here("steer.agent", "'max_speed' expected", "0 or a number >= 1e-6 and <= 1e30", "-1")
    expect(function() a.max_force = 0 / 0 end):raises_here("steer.agent", "'max_force' expected", "NaN")
    expect(function() a.position = { 0 / 0, 0 } end):raises_here("steer.agent", "'position' expected", "finite")
    expect(function() a.brain = 3 end):raises_here("steer.agent", "'brain' expected", "a behaviour", "3")
    expect(function() a.target = "there" end):raises_here("steer.agent", "'target' expected", "a vector", '"there"')
    local msg = expect(function() a.speed = 3 end):raises("steer.agent", "'speed'", "read-only")
    expect(msg, "position"):contains("errors_spec.lua:")
    a:remove()
  end)

  it("of world methods name the method and the argument", function()
    expect(function() w:step(-1) end):raises_here("steer.world:step", "ticks", "-1")
    expect(function() w:step(1.5) end):raises_here("steer.world:step", "integer", "1.5")
    expect(function() w:neighbors({ 0, 0 }, -1) end):raises_here("steer.world:neighbors", "radius", "-1")
    expect(function() w:neighbors("here", 1) end):raises_here("steer.world:neighbors", "position")
    expect(function() w:agents(5) end):raises_here("steer.world:agents", "tag", "5")
    expect(function() w:on("explode", print) end):raises_here("steer.world:on", "\"arrive\"", "explode")
  end)

  it("produce messages without formatting slips", function()
    -- every message above is built from parts; an absent part must not leave a double space
    for _, f in ipairs{
      function() w:step(-1) end,
      function() return w:neighbors({ 0, 0 }, -1) end,
      function() return w:agents(5) end,
      function() return steer.seek{ target = "home" } end,
    } do
      local msg = expect(f):raises()
      expect(msg:find("  ", 1, true), "double space in " .. spec.show(msg)):falsy()
    end
  end)
end)

describe("a failed call", function()
  it("leaves the world unchanged", function()
    local world = steer.world{ seed = 5 }
    for i = 1, 5 do world:spawn{ position = { i, 0 }, brain = steer.wander{} } end
    world:step(10)
    local count, hash = world.count, world:hash()
    local bad = {
      function() return world:spawn{ position = { 1, 1 }, mass = 0 } end,
      function() return world:spawn{ position = { 1, 1 }, max_speed = 0 / 0 } end,
      function() return world:spawn{ position = { 1, 1 }, unknown = 1 } end,
      function() return world:spawn{ position = { 1, 1 }, tag = "new", brain = 5 } end,
      function() return world:spawn{ position = { 1, 1 }, tag = "new", target = "x" } end,
      function() return world:spawn{ position = { 1, 1 }, data = 5 } end,
      function() return world:spawn{ position = { 1, 1 }, model = "tank" } end,
    }
    for i, f in ipairs(bad) do
      expect(f):raises("steer.world:spawn")
      expect(world.count, "count after bad spawn " .. i):eq(count)
      expect(world:hash(), "hash after bad spawn " .. i):eq(hash)
    end
    local n = 0
    for _ in world:agents() do n = n + 1 end
    expect(n, "agents listed"):eq(count)
    expect(#world:neighbors({ 1, 1 }, 100), "agents found"):eq(count)
  end)

  it("leaves an agent unchanged", function()
    local world = steer.world{ seed = 5 }
    local a = world:spawn{ position = { 1, 2 }, max_speed = 3, mass = 2 }
    local hash = world:hash()
    expect(function() a.mass = -1 end):raises()
    expect(function() a.max_speed = 0 / 0 end):raises()
    expect(function() a.position = { 1 / 0, 0 } end):raises()
    expect(function() a.velocity = "fast" end):raises()
    expect(function() a.heading = { 0, 0 } end):raises("'heading'")
    expect(a.mass, "mass"):eq(2)
    expect(a.max_speed, "max_speed"):eq(3)
    expect(a.position == steer.vec(1, 2), "position"):truthy()
    expect(world:hash(), "hash"):eq(hash)
  end)
end)

describe("failed setters and error objects", function()
  it("a value the float storage cannot hold raises instead of being ignored", function()
    local world = steer.world{ seed = 1 }
    local a = world:spawn{ mass = 2, max_speed = 3 }
    expect(function() a.mass = 1e300 end):raises_here("steer.agent", "field 'mass'", "<= 1e30", "1e+300")
    expect(function() a.max_speed = 1e-50 end):raises_here("field 'max_speed'", "1e-50")
    expect(a.mass, "mass unchanged"):eq(2)
    expect(a.max_speed, "max_speed unchanged"):eq(3)
  end)

  it("a callback's error that is not a string is shown, never as (null)", function()
    local w1 = steer.world{ seed = 1 }
    w1:spawn{ think = function() error(setmetatable({}, { __tostring = function() return "a table error" end })) end,
              think_hz = 1000 }
    local msg = expect(function() w1:step() end):raises("think", "a table error")
    expect(msg:find("(null)", 1, true), "no (null) in " .. msg):eq(nil)
    local w2 = steer.world{ seed = 1 }
    w2:spawn{ brain = steer.custom(function() error({}) end) }
    msg = expect(function() w2:step() end):raises("steer.custom function", "table")
    expect(msg:find("(null)", 1, true), "no (null) in " .. msg):eq(nil)
    local w3 = steer.world{ seed = 1 }
    w3:spawn{ brain = steer.arrive{ target = { 1, 0 }, ease = function() error(false) end } }
    msg = expect(function() w3:step() end):raises("ease function", "false")
    expect(msg:find("(null)", 1, true), "no (null) in " .. msg):eq(nil)
  end)
end)
