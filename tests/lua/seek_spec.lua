-- SPDX-License-Identifier: MIT
-- seek_spec.lua — the target-chasing family as a user sees it: seek gets
-- there, flee gets away (and only when panicked), pursue beats seek on a
-- moving target, evade beats flee on a passing threat.
--
-- Every agent here has max_speed 3 and max_force 6 unless a test says
-- otherwise: the force law (desired - velocity) * max_force / max_speed
-- then gives a velocity time constant of 0.5 s, so a few seconds suffice.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local function dist(a, b) return a.position:dist(b.position or b) end

-- Step until cond() holds; the tick it first held, or nil within `max` ticks.
local function ticks_until(w, max, cond)
  for t = 1, max do
    w:step()
    if cond() then return t end
  end
  return nil
end

describe("seek", function()
  it("reaches a fixed target", function()
    local w = steer.world{ seed = 1 }
    local target = steer.vec(20, 10)
    local a = w:spawn{ position = { 0, 0 }, max_speed = 3, max_force = 6, brain = steer.seek{ target = target } }
    local closest = math.huge
    local t = ticks_until(w, 900, function()
      closest = math.min(closest, dist(a, target))
      return closest < 0.1
    end)
    expect(closest, "closest approach"):lt(0.1)
    -- 22.4 m at 3 m/s, plus the half second of acceleration
    expect(t, "ticks to reach"):le(9 * 60)
  end)

  it("uses the agent's own target slot when the brain has none", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 3, max_force = 6, brain = steer.seek{}, target = { -6, 8 } }
    expect(a.target == steer.vec(-6, 8), "a.target"):truthy()
    local t = ticks_until(w, 600, function() return dist(a, steer.vec(-6, 8)) < 0.1 end)
    expect(t, "ticks to reach the slot target"):type("number")
  end)

  it("does nothing without any target", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 1, 2 }, max_speed = 3, max_force = 6, brain = steer.seek{} }
    w:step(30)
    expect(a.position == steer.vec(1, 2), "position " .. tostring(a.position)):truthy()
  end)

  it("chases a moving agent given as target", function()
    local w = steer.world{ seed = 1 }
    local prey = w:spawn{ position = { 8, 0 }, velocity = { 0, 1 }, max_speed = 1 }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 3, max_force = 6, brain = steer.seek{ target = prey } }
    local t = ticks_until(w, 900, function() return dist(a, prey) < 0.3 end)
    expect(t, "ticks to catch a slower agent"):type("number")
  end)

  it("takes the short way across the seam of a wrapped world", function()
    local w = steer.world{ size = { 100, 100 }, wrap = true, seed = 1 }
    local target = steer.vec(5, 50)
    local a = w:spawn{ position = { 95, 50 }, max_speed = 3, max_force = 6, brain = steer.seek{ target = target } }
    w:step(30)
    local x = a:xy()
    -- moving +x through the seam at x = 100 -> 0, not 90 m back across the world
    expect(x > 95 or x < 5, "x after 0.5 s is " .. x):truthy()
    local t = ticks_until(w, 360, function() return dist(a, target) < 0.1 end)
    expect(t, "ticks to cross the seam and arrive"):type("number")
    -- and the other way round, across x = 0 and y = 0
    local b = w:spawn{ position = { 4, 3 }, max_speed = 3, max_force = 6, brain = steer.seek{ target = { 96, 97 } } }
    w:step(30)
    local bx, by = b:xy()
    -- heading down and left toward the seams (8 m), not up and right (92 m)
    expect((bx < 4 or bx > 90) and (by < 3 or by > 90), "b after 0.5 s is at " .. bx .. ", " .. by):truthy()
    local tb = ticks_until(w, 300, function() return b.position:dist({ 96, 97 }) < 0.1 end)
    expect(tb, "ticks for b to arrive (10 m across both seams)"):type("number")
  end)
end)

describe("flee", function()
  it("gains distance steadily from a fixed threat", function()
    local w = steer.world{ seed = 1 }
    local threat = steer.vec(0, 0)
    local a = w:spawn{ position = { 3, 4 }, max_speed = 3, max_force = 6, brain = steer.flee{ target = threat } }
    local last = dist(a, threat)
    expect(last, "start distance"):near(5, 1e-9)
    for s = 1, 5 do
      w:step(30)
      local d = dist(a, threat)
      expect(d, "distance after " .. s * 0.5 .. " s"):gt(last)
      last = d
    end
    -- straight away: the direction never changed
    local p = a.position
    expect(p:normalized():dot(steer.vec(0.6, 0.8)), "direction"):gt(0.9999)
    expect(last, "distance after 2.5 s"):gt(5 + 3 * 2.5 - 2)
  end)

  it("with panic_radius does nothing outside the radius", function()
    local w = steer.world{ seed = 1 }
    local brain = steer.flee{ target = { 0, 0 }, panic_radius = 5 }
    local calm = w:spawn{ position = { 8, 0 }, max_speed = 3, max_force = 6, brain = brain }
    local scared = w:spawn{ position = { 2, 0 }, max_speed = 3, max_force = 6, brain = brain }
    w:step(60)
    expect(calm.position == steer.vec(8, 0), "outside agent moved to " .. tostring(calm.position)):truthy()
    expect(calm.speed, "outside agent speed"):eq(0)
    expect(calm:force():len(), "outside agent force"):eq(0)
    expect(scared.position.x, "inside agent x"):gt(2.5)
  end)

  it("stops fleeing once out of the panic radius", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 1, 0 }, max_speed = 3, max_force = 6,
                       brain = steer.flee{ target = { 0, 0 }, panic_radius = 4 } }
    w:step(180)
    -- once outside, no force acts: the speed is constant from then on
    local x1 = a:xy()
    local s1 = a.speed
    w:step(60)
    expect(x1, "x when calm"):gt(4)
    expect(a.speed, "speed drifting outside the radius"):near(s1, 1e-9)
    expect(a:force():len(), "force outside the radius"):eq(0)
  end)
end)

describe("pursue", function()
  -- a target moving in a straight line at 2 m/s, crossing in front of the chaser
  local function catch_tick(kind)
    local w = steer.world{ seed = 1 }
    local prey = w:spawn{ position = { 10, 0 }, velocity = { 0, 2 }, max_speed = 2 }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 3, max_force = 6, brain = steer[kind]{ target = prey } }
    return ticks_until(w, 1800, function() return dist(a, prey) < 0.5 end)
  end

  it("catches a target moving in a straight line sooner than seek does", function()
    local tp, ts = catch_tick("pursue"), catch_tick("seek")
    expect(tp, "pursue catch tick"):type("number")
    expect(ts, "seek catch tick"):type("number")
    expect(tp, "pursue catch tick (seek: " .. tostring(ts) .. ")"):lt(ts)
  end)

  it("acts like seek on a target that stands still", function()
    local w = steer.world{ seed = 1 }
    local post = w:spawn{ position = { 6, 0 } }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 3, max_force = 6, brain = steer.pursue{ target = post } }
    local b = w:spawn{ position = { 0, 5 }, max_speed = 3, max_force = 6, brain = steer.seek{ target = { 6, 5 } } }
    w:step(40)
    local ax, ay = a:xy()
    local bx, by = b:xy()
    expect(ax, "pursuer x"):near(bx, 1e-5)
    expect(ay, "pursuer y"):near(by - 5, 1e-5)
  end)
end)

describe("evade", function()
  -- a threat that passes by in a straight line at 4 m/s, faster than the
  -- agent (2 m/s), one metre beside it: the closest approach says who did better
  local function closest(kind)
    local w = steer.world{ seed = 1 }
    local threat = w:spawn{ position = { -10, 0 }, velocity = { 4, 0 }, max_speed = 4 }
    local a = w:spawn{ position = { 0, 1 }, max_speed = 2, max_force = 4, brain = steer[kind]{ target = threat } }
    local m = math.huge
    for _ = 1, 300 do
      w:step()
      m = math.min(m, dist(a, threat))
    end
    return m
  end

  it("keeps more distance from a passing threat than flee does", function()
    local de, df = closest("evade"), closest("flee")
    expect(de, "evade closest approach (flee: " .. df .. ")"):gt(df)
  end)

  it("gains distance from a slower pursuer", function()
    local w = steer.world{ seed = 1 }
    local e = w:spawn{ position = { 5, 0 }, max_speed = 3, max_force = 6 }
    local p = w:spawn{ position = { 0, 0 }, velocity = { 0, 2.5 }, max_speed = 2.5, max_force = 6,
                       brain = steer.pursue{ target = e } }
    e.brain = steer.evade{ target = p }
    local last = dist(e, p)
    for s = 1, 6 do
      w:step(60)
      local d = dist(e, p)
      expect(d, "distance after " .. s .. " s"):gt(last)
      last = d
    end
  end)

  it("with panic_radius ignores a threat outside the radius", function()
    local w = steer.world{ seed = 1 }
    local threat = w:spawn{ position = { 0, 0 } }
    local a = w:spawn{ position = { 10, 0 }, max_speed = 3, max_force = 6,
                       brain = steer.evade{ target = threat, panic_radius = 5 } }
    w:step(60)
    expect(a.position == steer.vec(10, 0), "moved to " .. tostring(a.position)):truthy()
  end)
end)
