-- SPDX-License-Identifier: MIT
-- errors_spec.lua — bad arguments raise errors a person can act on: the
-- message names the function, the field and what was expected, shows what
-- was given, and points at the caller's file:line. And a failed call
-- changes nothing.
--
-- Each bad call is written as a one-line function at the call site, so the
-- line the function was defined on is the line the error must point at.
-- (pcall(steer.seek, {...}) would show no position at all: its caller is
-- pcall itself, a C function.)
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

-- f raises; its message contains every string given, and the position of f.
local function raises_here(f, ...)
  local line = debug.getinfo(f, "S").linedefined
  local msg = expect(f):raises(...)
  expect(msg, "error position"):contains("errors_spec.lua:" .. line .. ":")
  expect(msg, "message"):contains("expected")
  return msg
end

local w = steer.world{ seed = 1 }

describe("bad arguments", function()
  it("of the wrong type name the function, the field and the value", function()
    raises_here(function() return steer.seek{ target = "home" } end, "steer.seek", "field 'target'", "a vector", '"home"')
    raises_here(function() return steer.arrive{ slow_radius = "5" } end, "steer.arrive", "'slow_radius'", "a number", '"5"')
    raises_here(function() return steer.wander{ variant = 1 } end, "steer.wander", "'variant'", '"circle"', "1")
    raises_here(function() return steer.separation{ tag = true } end, "steer.separation", "'tag'", "a string", "true")
    raises_here(function() return w:spawn{ brain = 5 } end, "steer.world:spawn", "'brain'", "a behaviour", "5")
    raises_here(function() return w:spawn{ tag = {} } end, "steer.world:spawn", "'tag'", "a string", "a table")
    raises_here(function() return w:spawn{ position = "origin" } end, "steer.world:spawn", "'position'", "a vector")
    raises_here(function() return steer.world{ wrap = "yes" } end, "steer.world", "'wrap'", "a boolean")
    raises_here(function() return steer.world{ dim = 4 } end, "steer.world", "'dim'", "2 or 3", "4")
    raises_here(function() return steer.blend{ "seek" } end, "steer.blend", "entry 1", "a behaviour")
    raises_here(function() return steer.seek(5) end, "steer.seek", "a table of named arguments", "5")
  end)

  it("that are NaN say so", function()
    raises_here(function() return steer.arrive{ slow_radius = 0 / 0 } end, "steer.arrive", "'slow_radius'", "NaN")
    raises_here(function() return steer.seek{ target = 0 / 0 } end, "steer.seek", "'target'", "NaN")
    raises_here(function() return w:spawn{ mass = 0 / 0 } end, "steer.world:spawn", "'mass'", "NaN")
    raises_here(function() return w:spawn{ position = { 0 / 0, 1 } } end, "steer.world:spawn", "'position'", "finite")
    raises_here(function() return steer.blend{ { steer.seek{}, 0 / 0 } } end, "steer.blend", "weight", "finite")
  end)

  it("that are infinite say so", function()
    raises_here(function() return w:spawn{ max_speed = math.huge } end, "steer.world:spawn", "'max_speed'", "inf")
    raises_here(function() return w:spawn{ max_force = -math.huge } end, "steer.world:spawn", "'max_force'", "-inf")
    raises_here(function() return steer.wander{ jitter = math.huge } end, "steer.wander", "'jitter'", "inf")
    raises_here(function() return w:spawn{ velocity = { math.huge, 0 } } end, "steer.world:spawn", "'velocity'", "finite")
    raises_here(function() return steer.world{ dt = math.huge } end, "steer.world", "'dt'", "inf")
  end)

  it("out of range name the valid range", function()
    raises_here(function() return steer.separation{ radius = -1 } end, "steer.separation", "'radius'", ">= 1e-6 and <= 1e30", "-1")
    raises_here(function() return steer.cohesion{ radius = 0 } end, "steer.cohesion", "'radius'", ">= 1e-6 and <= 1e30", "0")
    raises_here(function() return w:spawn{ radius = -0.5 } end, "steer.world:spawn", "'radius'", "0 or a number >= 1e-6 and <= 1e30", "-0.5")
    raises_here(function() return steer.flee{ panic_radius = -2 } end, "steer.flee", "'panic_radius'", ">= 0", "-2")
    raises_here(function() return w:spawn{ mass = 0 } end, "steer.world:spawn", "'mass'", ">= 1e-6 and <= 1e30", "0")
    raises_here(function() return w:spawn{ mass = -1 } end, "steer.world:spawn", "'mass'", ">= 1e-6 and <= 1e30", "-1")
    raises_here(function() return steer.world{ dt = 0 } end, "steer.world", "'dt'", "> 0")
  end)

  it("with unknown field names list the accepted ones", function()
    raises_here(function() return steer.seek{ targt = { 1, 2 } } end, "steer.seek", "unknown field 'targt'", "target")
    raises_here(function() return w:spawn{ maxspeed = 3 } end, "steer.world:spawn", "unknown field 'maxspeed'", "max_speed")
    raises_here(function() return steer.world{ sise = { 1, 1 } } end, "steer.world", "unknown field 'sise'", "size")
  end)

  it("that contradict each other name both fields", function()
    local msg = expect(function() return steer.arrive{ slow_radius = 2, stop_radius = 3 } end)
      :raises("steer.arrive", "stop_radius", "slow_radius", "3", "2")
    expect(msg, "position"):matches("errors_spec%.lua:%d+:")
    expect(function() return steer.arrive{ slow_radius = 2, stop_radius = 2 } end):raises("stop_radius", "slow_radius")
  end)

  it("of agent fields name the field", function()
    local a = w:spawn{ position = { 0, 0 } }
    raises_here(function() a.mass = 0 end, "steer.agent", "'mass'", ">= 1e-6 and <= 1e30", "0")
    raises_here(function() a.max_speed = -1 end, "steer.agent", "'max_speed'", "0 or a number >= 1e-6 and <= 1e30", "-1")
    raises_here(function() a.max_force = 0 / 0 end, "steer.agent", "'max_force'", "NaN")
    raises_here(function() a.position = { 0 / 0, 0 } end, "steer.agent", "'position'", "finite")
    raises_here(function() a.brain = 3 end, "steer.agent", "'brain'", "a behaviour", "3")
    raises_here(function() a.target = "there" end, "steer.agent", "'target'", "a vector", '"there"')
    local msg = expect(function() a.speed = 3 end):raises("steer.agent", "'speed'", "read-only")
    expect(msg, "position"):contains("errors_spec.lua:")
    a:remove()
  end)

  it("of world methods name the method and the argument", function()
    raises_here(function() w:step(-1) end, "steer.world:step", "ticks", "-1")
    raises_here(function() w:step(1.5) end, "steer.world:step", "integer", "1.5")
    raises_here(function() return w:neighbors({ 0, 0 }, -1) end, "steer.world:neighbors", "radius", "-1")
    raises_here(function() return w:neighbors("here", 1) end, "steer.world:neighbors", "position")
    raises_here(function() return w:agents(5) end, "steer.world:agents", "tag", "5")
    raises_here(function() w:on("explode", print) end, "steer.world:on", "\"arrive\"", "explode")
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
