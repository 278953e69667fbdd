-- SPDX-License-Identifier: MIT
-- wander_spec.lua — both wander variants keep agents moving along curving
-- paths, the "turn" variant respects its turn-rate limit, and the
-- randomness comes from the world's seed alone.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect
local atan2 = math.atan2 or math.atan -- atan(y, x): Lua 5.1 and LuaJIT's math.atan takes one argument

local variants = {
  circle = function() return steer.wander{ distance = 4, radius = 1.5, jitter = 4 } end,
  turn = function() return steer.wander{ variant = "turn", max_turn_rate = 1.5, max_turn_change = 3 } end,
}

local function wander_world(variant, seed)
  local w = steer.world{ seed = seed }
  local brain = variants[variant]()
  local agents = {}
  for i = 1, 20 do
    agents[i] = w:spawn{ position = { i * 3, 0 }, velocity = { 1, 0 }, max_speed = 2, max_force = 3, brain = brain }
  end
  return w, agents
end

local function angle_between(a, b) return math.abs(atan2(a:cross(b).z, a:dot(b))) end

for _, variant in ipairs{ "circle", "turn" } do
  describe("wander (" .. variant .. ")", function()
    it("keeps agents moving and turning", function()
      local w, agents = wander_world(variant, 5)
      -- path length, not displacement: a wanderer may well circle back
      local last, prev, path, turned = {}, {}, {}, {}
      for i, a in ipairs(agents) do last[i], prev[i], path[i], turned[i] = a.position, a.heading, 0, 0 end
      for t = 1, 600 do
        w:step()
        for i, a in ipairs(agents) do
          if t > 60 then expect(a.speed, "agent " .. i .. " speed at tick " .. t):gt(0.5) end
          local p, h = a.position, a.heading
          path[i] = path[i] + p:dist(last[i])
          turned[i] = turned[i] + angle_between(prev[i], h)
          last[i], prev[i] = p, h
        end
      end
      for i = 1, #agents do
        expect(path[i], "agent " .. i .. " path length in 10 s"):gt(10)
        -- a straight line would give 0; both variants curve noticeably
        expect(turned[i], "agent " .. i .. " total turning (radians)"):gt(0.1)
      end
    end)

    it("is deterministic per seed", function()
      local a = wander_world(variant, 5)
      local b = wander_world(variant, 5)
      local c = wander_world(variant, 6)
      a:step(300)
      b:step(300)
      c:step(300)
      expect(a:hash(), "same seed"):eq(b:hash())
      expect(a:hash(), "other seed"):ne(c:hash())
    end)
  end)
end

describe("wander (turn)", function()
  it("never turns faster than max_turn_rate", function()
    local w, agents = wander_world("turn", 11)
    local prev = {}
    for i, a in ipairs(agents) do prev[i] = a.heading end
    local fastest = 0
    for _ = 1, 600 do
      w:step()
      for i, a in ipairs(agents) do
        local h = a.heading
        fastest = math.max(fastest, angle_between(prev[i], h) / w.dt)
        prev[i] = h
      end
    end
    expect(fastest, "fastest turn (rad/s)"):le(1.5 * 1.02)
    expect(fastest, "fastest turn (rad/s): the limit is reached"):gt(0.5)
  end)

  it("holds the cruise speed", function()
    local w = steer.world{ seed = 3 }
    local a = w:spawn{ position = { 0, 0 }, velocity = { 0.5, 0 }, max_speed = 3, max_force = 6,
                       brain = steer.wander{ variant = "turn", speed = 2 } }
    w:step(300)
    expect(a.speed, "speed after 5 s"):near(2, 0.05)
  end)
end)
