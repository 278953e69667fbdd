-- SPDX-License-Identifier: MIT
-- arrive_spec.lua — arrive comes to rest at its target: inside stop_radius,
-- with (almost) zero speed, without sailing past the slow circle, for each
-- ease curve (the built-in ones and a Lua function); the "arrive" event
-- fires once per arrival; one shared brain serves many agents, each with
-- its own target slot, and a new target inside the slow circle is reached
-- and fires the event again.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local SLOW, STOP = 5, 0.2

-- Approach `target` from 20 m away along a diagonal at full speed; return
-- the agent, the world, the furthest it got past the target (along the
-- approach direction) and the arrival events.
local function approach(ease, seconds)
  local w = steer.world{ seed = 1 }
  local target = steer.vec(3, -2)
  local dir = steer.vec(0.6, 0.8)
  local start = target - dir * 20
  local a = w:spawn{ position = start, velocity = dir * 3, max_speed = 3, max_force = 6,
                     brain = steer.arrive{ target = target, slow_radius = SLOW, stop_radius = STOP, ease = ease } }
  local events = {}
  w:on("arrive", function(agent) events[#events + 1] = { agent = agent, tick = w.tick } end)
  local past = -math.huge
  for _ = 1, seconds * 60 do
    w:step()
    past = math.max(past, (a.position - target):dot(dir))
  end
  return a, w, past, events, target
end

local function comes_to_rest(ease)
  local a, _, past, events, target = approach(ease, 12)
  local d = a.position:dist(target)
  expect(d, "final distance to the target"):le(STOP)
  expect(a.speed, "final speed"):lt(1e-3)
  expect(past, "furthest past the target along the approach"):le(SLOW)
  expect(#events, "arrive events"):eq(1)
  expect(events[1].agent == a, "the event names the arriving agent"):truthy()
  return a, past, events
end

describe("arrive", function()
  it("comes to rest inside stop_radius with the linear ease", function()
    local _, past = comes_to_rest("linear")
    -- linear braking is gentle enough never to reach the target at all
    expect(past, "linear: distance past the target"):le(STOP)
  end)

  it("comes to rest inside stop_radius with the smooth ease", function()
    comes_to_rest("smooth")
  end)

  it("comes to rest inside stop_radius with a Lua ease function", function()
    local calls, bad = 0, 0
    local ease = function(f)
      calls = calls + 1
      if not (f >= 0 and f <= 1) then bad = bad + 1 end
      return math.sqrt(f)
    end
    comes_to_rest(ease)
    expect(calls, "calls of the ease function"):gt(0)
    expect(bad, "calls with an argument outside [0, 1]"):eq(0)
  end)

  it("eases differently with different curves", function()
    -- after 6 s both are inside the slow circle (entered after about 5 s)
    local lin = approach("linear", 6)
    local smo = approach("smooth", 6)
    -- "smooth" (x(2 - x)) asks for more speed inside the slow circle
    local tl, ts = lin.position, smo.position
    expect(tl:dist(smo.position), "positions after 6 s"):gt(1e-3)
    expect((ts - steer.vec(3, -2)):len(), "smooth distance left"):lt((tl - steer.vec(3, -2)):len())
  end)

  it("fires the arrive event once, and again after leaving and coming back", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 10, 0 }, max_speed = 3, max_force = 6,
                       brain = steer.arrive{ target = { 0, 0 }, slow_radius = 3, stop_radius = 0.3 } }
    local n = 0
    w:on("arrive", function(agent)
      n = n + 1
      expect(agent == a, "event agent"):truthy()
    end)
    w:step(600)
    expect(n, "events after the first arrival"):eq(1)
    -- carried far away (beyond the slow circle), it arrives once more
    a.position = { 0, 8 }
    w:step(600)
    expect(n, "events after the second arrival"):eq(2)
  end)

  it("serves many agents from one brain, each to its own target", function()
    local w = steer.world{ seed = 1 }
    local brain = steer.arrive{ slow_radius = 4, stop_radius = 0.1 }
    local agents = {}
    for i = 1, 10 do
      local angle = i / 10 * 2 * math.pi
      agents[i] = w:spawn{ position = { 0, 0 }, max_speed = 3, max_force = 6, brain = brain,
                           target = { 12 * math.cos(angle), 12 * math.sin(angle) } }
    end
    -- the slot can also be set after spawning
    agents[10].target = { -3, -3 }
    local arrived = {}
    w:on("arrive", function(a) arrived[a.id] = (arrived[a.id] or 0) + 1 end)
    w:step(15 * 60)
    for i, a in ipairs(agents) do
      local t = a.target
      expect(a.position:dist(t), "agent " .. i .. " distance to its own target"):le(0.1)
      expect(a.speed, "agent " .. i .. " speed"):lt(1e-3)
      expect(arrived[a.id], "agent " .. i .. " arrive events"):eq(1)
    end
    expect(agents[1].brain == brain, "a.brain is the shared brain"):truthy()
  end)

  it("refuses stop_radius >= slow_radius", function()
    expect(function() steer.arrive{ slow_radius = 2, stop_radius = 2 } end)
      :raises("steer.arrive", "stop_radius", "slow_radius")
    expect(function() steer.arrive{ stop_radius = 6 } end) -- the default slow_radius is 5
      :raises("steer.arrive", "stop_radius", "slow_radius")
  end)

  it("raises from w:step when the ease function fails, naming it", function()
    local w = steer.world{ seed = 1 }
    w:spawn{ position = { 2, 0 }, max_speed = 3, max_force = 6,
             brain = steer.arrive{ target = { 0, 0 }, ease = function() return 0 / 0 end } }
    local msg = expect(function() w:step() end):raises("steer.world:step", "ease", "NaN")
    expect(msg, "message"):contains("arrive_spec.lua:")
    local w2 = steer.world{ seed = 1 }
    w2:spawn{ position = { 2, 0 }, max_speed = 3, max_force = 6,
              brain = steer.arrive{ target = { 0, 0 }, ease = function() error("no ease today") end } }
    expect(function() w2:step() end):raises("ease", "no ease today")
  end)
end)

describe("arrive with a new target inside slow_radius", function()
  it("goes to the new target and fires arrive again", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 2, max_force = 4,
                       brain = steer.arrive{ slow_radius = 5, stop_radius = 0.2 } }
    local arrivals = 0
    w:on("arrive", function() arrivals = arrivals + 1 end)
    a.target = { 3, 0 }
    w:step(60 * 10)
    expect(arrivals, "arrivals at the first target"):eq(1)
    a.target = { 3, 2 } -- 2 m away: inside slow_radius of the first
    w:step(60 * 10)
    expect(a.position:dist(steer.vec(3, 2)), "distance to the new target"):lt(0.2)
    expect(arrivals, "arrivals after the second target"):eq(2)
    w:step(60 * 5)
    expect(arrivals, "standing at the target fires nothing more"):eq(2)
  end)
end)
