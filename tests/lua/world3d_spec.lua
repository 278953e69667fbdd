-- SPDX-License-Identifier: MIT
-- world3d_spec.lua — 3D worlds (dim = 3) use the same behaviours on x, y, z:
-- seek reaches a target off every axis, flocking works in a wrapped box,
-- and 2D worlds keep z at exactly 0.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

describe("3D world", function()
  it("reports its dimension and gives three coordinates", function()
    local w = steer.world{ dim = 3, seed = 1 }
    expect(w.dim, "w.dim"):eq(3)
    local a = w:spawn{ position = { 1, 2, 3 }, velocity = { 0, 0, 1 } }
    local x, y, z = a:xy()
    expect(x, "x"):eq(1)
    expect(y, "y"):eq(2)
    expect(z, "z"):eq(3)
    expect(select("#", a:vxy()), "a:vxy() values"):eq(3)
    expect(a.heading == steer.vec(0, 0, 1), "heading follows the velocity: " .. tostring(a.heading)):truthy()
  end)

  it("seek reaches a 3D target", function()
    local w = steer.world{ dim = 3, seed = 1 }
    local target = steer.vec(10, -5, 7)
    local a = w:spawn{ position = { 0, 0, 0 }, max_speed = 3, max_force = 6, brain = steer.seek{ target = target } }
    local closest, at = math.huge, nil
    for t = 1, 600 do
      w:step()
      local d = a.position:dist(target)
      closest = math.min(closest, d)
      if d < 0.1 then at = t break end
    end
    expect(closest, "closest approach"):lt(0.1)
    -- 13.2 m at 3 m/s, plus the half second of acceleration
    expect(at, "tick when within 0.1 m"):le(6 * 60)
    local _, _, z = a:xy()
    expect(z, "z"):near(7, 0.1)
  end)

  it("arrive comes to rest at a 3D target", function()
    local w = steer.world{ dim = 3, seed = 1 }
    local target = steer.vec(-4, 6, -8)
    local a = w:spawn{ position = { 0, 0, 0 }, max_speed = 3, max_force = 6,
                       brain = steer.arrive{ target = target, slow_radius = 4, stop_radius = 0.2 } }
    w:step(600)
    expect(a.position:dist(target), "distance"):le(0.2)
    expect(a.speed, "speed"):lt(1e-3)
  end)

  it("flocks in a wrapped box without leaving it", function()
    local w = steer.world{ dim = 3, size = { 30, 30, 30 }, wrap = true, seed = 4 }
    local brain = steer.blend{ { steer.separation{ radius = 2 }, 1.5 }, { steer.alignment{ radius = 5 }, 1 },
                               { steer.cohesion{ radius = 5 }, 1 }, { steer.wander{}, 0.5 } }
    local s = 77
    local function rand(hi)
      s = (s * 1103515245 + 12345) % 2147483648
      return hi * s / 2147483648
    end
    for _ = 1, 150 do
      w:spawn{ position = { rand(30), rand(30), rand(30) }, velocity = { rand(2) - 1, rand(2) - 1, rand(2) - 1 },
               max_speed = 2, max_force = 2, brain = brain }
    end
    w:step(300)
    for a in w:agents() do
      local x, y, z = a:xy()
      for _, c in ipairs{ x, y, z } do
        if not (c >= 0 and c < 30) then spec.fail("agent " .. a.id .. " left the box: " .. tostring(a.position)) end
      end
    end
  end)

  it("2D worlds keep z at 0", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 1, 2, 3 }, velocity = { 0, 1, 5 }, max_speed = 9,
                       brain = steer.wander{} }
    w:step(30)
    expect(a.position.z, "z"):eq(0)
    expect(a.velocity.z, "vz"):eq(0)
    expect(select("#", a:xy()), "a:xy() values in 2D"):eq(2)
  end)
end)
