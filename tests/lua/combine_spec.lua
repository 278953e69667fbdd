-- SPDX-License-Identifier: MIT
-- combine_spec.lua — combiners and the inspector's view of them: priority
-- lets the first child with a non-negligible force decide, blend sums with
-- weights, and a:contributions() tells which named node pushed how hard.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local function is_vec(v) return getmetatable(v) == getmetatable(steer.vec(0, 0)) end

local function scared_or_seeking()
  return steer.priority{
    steer.flee{ target = { 0, 0 }, panic_radius = 3, name = "scared" },
    steer.seek{ target = { 0, 0 }, name = "go" },
    name = "pick",
  }
end

describe("priority", function()
  it("seeks outside the panic radius and flees inside it", function()
    local w = steer.world{ seed = 1 }
    local brain = scared_or_seeking()
    local far = w:spawn{ position = { 10, 0 }, max_speed = 3, max_force = 6, brain = brain }
    local near = w:spawn{ position = { 0, 1 }, max_speed = 3, max_force = 6, brain = brain }
    w:step()
    expect(far:force().x, "outside: force toward the target"):lt(0)
    expect(near:force().y, "inside: force away from the target"):gt(0)
    w:step(59)
    expect(far.position:len(), "outside: distance after 1 s"):lt(10)
    expect(near.position:len(), "inside: distance after 1 s"):gt(1)
  end)

  it("settles at the panic radius when both pull", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 10, 0 }, max_speed = 3, max_force = 6, brain = scared_or_seeking() }
    local closest = math.huge
    for _ = 1, 600 do
      w:step()
      closest = math.min(closest, a.position:len())
    end
    expect(closest, "closest approach"):gt(1.5)
    expect(a.position:len(), "final distance"):near(3, 1)
  end)

  it("gives zero when no child exceeds epsilon", function()
    local w = steer.world{ seed = 1 }
    local brain = steer.priority{ steer.flee{ target = { 0, 0 }, panic_radius = 1 }, epsilon = 0.5 }
    local a = w:spawn{ position = { 5, 0 }, max_speed = 3, max_force = 6, brain = brain }
    w:step(10)
    expect(a:force():len(), "force"):eq(0)
    expect(a.position == steer.vec(5, 0), "position"):truthy()
  end)
end)

describe("blend", function()
  -- from rest each seek asks for exactly max_force (a velocity error of
  -- max_speed), east and north: the weighted sum has length
  -- max_force * sqrt(w1^2 + w2^2)
  local function first_tick(w1, w2)
    local w = steer.world{ seed = 1 }
    local brain = steer.blend{ { steer.seek{ target = { 10, 0 }, name = "east" }, w1 },
                               { steer.seek{ target = { 0, 10 }, name = "north" }, w2 }, name = "mix" }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 2, max_force = 4, brain = brain }
    w:step()
    return a:contributions()
  end

  it("sums weighted children", function()
    local c = first_tick(0.5, 0.25)
    expect(c.east:len(), "east"):near(4, 1e-5)
    expect(c.mix:dist(c.east * 0.5 + c.north * 0.25), "blend = 0.5 east + 0.25 north"):lt(1e-5)
  end)

  it("truncates the sum to max_force", function()
    local c = first_tick(1, 0.5)
    expect(c.mix:len(), "blend length"):near(4, 1e-5)
    expect(c.mix:normalized():dist((c.east + c.north * 0.5):normalized()), "direction kept"):lt(1e-5)
  end)
end)

describe("a:contributions()", function()
  it("returns a table keyed by node names, with vectors", function()
    local w = steer.world{ seed = 1 }
    local brain = steer.blend{
      { steer.seek{ target = { 10, 0 }, name = "go" }, 1 },
      { steer.separation{ radius = 2, name = "space" }, 2 },
      name = "mix",
    }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 2, max_force = 4, brain = brain }
    w:spawn{ position = { 0, 1 } }
    w:step()
    local c = a:contributions()
    expect(type(c), "contributions"):eq("table")
    for _, name in ipairs{ "mix", "go", "space" } do
      expect(is_vec(c[name]), "c." .. name .. " is a vector: " .. tostring(c[name])):truthy()
    end
    local n = 0
    for _ in pairs(c) do n = n + 1 end
    expect(n, "entries"):eq(3)
    expect(c.go.x, "seek pushes east"):gt(0)
    expect(c.space.y, "separation pushes away from the agent to the north"):lt(0)
    expect(c.mix:dist(a:force()), "the root's contribution is the force"):lt(1e-6)
  end)

  it("names unnamed nodes by kind and tells equal names apart", function()
    local w = steer.world{ seed = 1 }
    local brain = steer.blend{ { steer.seek{ target = { 1, 0 } }, 1 }, { steer.seek{ target = { 0, 1 } }, 1 } }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 2, max_force = 4, brain = brain }
    w:step()
    local c = a:contributions()
    expect(is_vec(c.blend), "c.blend"):truthy()
    expect(is_vec(c.seek), "c.seek"):truthy()
    expect(is_vec(c["seek#2"]), "c['seek#2']"):truthy()
    expect(c.seek:dist(c["seek#2"]), "two different seeks"):gt(0.1)
  end)

  it("shows zero for children a priority did not run this tick", function()
    -- an inspector that shows a stale force for a node that did nothing
    -- this tick points the user at the wrong behaviour
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 4, 0 }, max_speed = 3, max_force = 6,
                       brain = scared_or_seeking() }
    w:step()
    expect(a:contributions().go:len(), "seek while outside"):gt(0)
    local inside = false
    for _ = 1, 120 do
      w:step()
      if a.position:len() < 3 then inside = true break end
    end
    expect(inside, "the agent went inside the panic radius"):truthy()
    -- a tick reads the state at its start: the next one sees the agent inside
    w:step()
    local c = a:contributions()
    expect(c.scared:len(), "flee contribution inside"):gt(0)
    expect(c.pick:dist(c.scared), "priority passes the flee force on"):lt(1e-9)
    expect(c.go:len(), "contribution of the seek that did not run (" .. tostring(c.go) .. ")"):eq(0)
  end)

  it("is empty when the world does not record", function()
    local w = steer.world{ seed = 1, record = false }
    local a = w:spawn{ position = { 0, 0 }, brain = steer.seek{ target = { 1, 1 }, name = "go" } }
    w:step()
    expect(next(a:contributions()), "first key"):eq(nil)
    w.record = true
    w:step()
    expect(is_vec(a:contributions().go), "after turning recording on"):truthy()
  end)
end)
