-- SPDX-License-Identifier: MIT
-- nan_spec.lua — no NaN, ever. Coincident agents are the classic source
-- (a direction from a zero offset), and one NaN spreads through every
-- neighbour sum until the whole world is NaN, so every behaviour that
-- divides by a distance is run with agents stacked on one point, a
-- denormal distance apart, and parked at 1e30 (a squared distance that
-- overflows a float).
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local function finite(x) return x == x and x ~= math.huge and x ~= -math.huge end

local function expect_finite(w, t)
  for a in w:agents() do
    local x, y, z = a:xy()
    local vx, vy, vz = a:vxy()
    local ok = finite(x) and finite(y) and finite(vx) and finite(vy)
    if w.dim == 3 then ok = ok and finite(z) and finite(vz) end
    local h, f = a.heading, a:force()
    ok = ok and finite(h.x) and finite(h.y) and finite(h.z) and finite(f.x) and finite(f.y) and finite(f.z)
    if not ok then
      spec.fail(string.format("tick %d agent %d (%s): position %s velocity %s heading %s force %s", t, a.id,
                              a.brain and a.brain.kind or "no brain", tostring(a.position), tostring(a.velocity),
                              tostring(h), tostring(f)))
    end
  end
end

local function stacked(dim)
  local w = steer.world{ dim = dim, seed = 1 }
  local here = dim == 3 and { 5, 5, 5 } or { 5, 5 }
  local brains = {
    steer.separation{ radius = 2 }, steer.cohesion{ radius = 2 }, steer.alignment{ radius = 2 },
    steer.seek{ target = here }, steer.flee{ target = here }, steer.arrive{ target = here },
    steer.pursue{}, steer.evade{},
    steer.blend{ { steer.separation{ radius = 2 }, 1 }, { steer.cohesion{ radius = 2 }, 1 },
                 { steer.alignment{ radius = 2 }, 1 }, { steer.wander{}, 1 } },
  }
  local agents = {}
  for _, brain in ipairs(brains) do
    for _ = 1, 4 do
      agents[#agents + 1] = w:spawn{ position = here, velocity = dim == 3 and { 0, 0, 0 } or { 0, 0 },
                                     max_speed = 2, max_force = 4, brain = brain }
    end
  end
  -- pursue and evade target another agent on the very same point
  for i, a in ipairs(agents) do
    if a.brain.kind == "pursue" or a.brain.kind == "evade" then
      a.target = agents[i % #agents + 1]
    end
  end
  for t = 1, 240 do
    w:step()
    expect_finite(w, t)
  end
  return w
end

describe("no NaN", function()
  it("with coincident agents in 2D (separation, cohesion, alignment, seek, flee, arrive, pursue, evade)", function()
    stacked(2)
  end)

  it("with coincident agents in 3D", function()
    stacked(3)
  end)

  it("when an agent's target is its own position", function()
    local w = steer.world{ seed = 1 }
    for _, kind in ipairs{ "seek", "flee", "arrive", "pursue", "evade" } do
      local a = w:spawn{ position = { 1, 1 }, max_speed = 2, max_force = 4, brain = steer[kind]{} }
      a.target = { 1, 1 }
    end
    for t = 1, 60 do
      w:step()
      expect_finite(w, t)
    end
  end)

  it("with zero max_speed, zero max_force and a zero-radius agent", function()
    local w = steer.world{ seed = 1 }
    local brain = steer.blend{ { steer.seek{ target = { 3, 3 } }, 1 }, { steer.separation{ radius = 1 }, 1 },
                               { steer.wander{ variant = "turn" }, 1 } }
    w:spawn{ position = { 0, 0 }, max_speed = 0, brain = brain }
    w:spawn{ position = { 0, 0 }, max_force = 0, brain = brain }
    w:spawn{ position = { 0, 0 }, radius = 0, brain = brain }
    for t = 1, 60 do
      w:step()
      expect_finite(w, t)
    end
  end)

  it("refuses coordinates beyond what the engine stores (they would become infinite)", function()
    -- a finite Lua number that no float can hold: rejected, or at least
    -- never stored as an infinity
    local w = steer.world{ seed = 1 }
    local ok, a = pcall(function() w:spawn{ position = { 1e39, 0 } } end)
    if ok then
      local x = a:xy()
      expect(finite(x), "x of an agent spawned at 1e39 reads back as " .. tostring(x)):truthy()
    end
  end)
end)

describe("separation from an agent a denormal distance away", function()
  for _, tag in ipairs{ false, true } do
    it("pushes away from the others with finite contributions" .. (tag and " (tagged: the list path)" or ""), function()
      local w = steer.world{ seed = 1 }
      local brain = steer.separation{ radius = 3, tag = tag and "t" or nil, name = "sep" }
      local a = w:spawn{ position = { 0, 0 }, brain = brain, tag = "t" }
      w:spawn{ position = { 1e-20, 0 }, tag = "t" } -- distance squared 1e-40: 1/d2 overflows a float
      w:spawn{ position = { 0, 1 }, tag = "t" }
      w:step()
      local c = a:contributions()
      expect(c.sep.x, "contribution x"):finite()
      expect(c.sep.y, "contribution y"):finite()
      expect(a.velocity.y, "moves away from the agent at (0, 1)"):lt(0)
    end)
  end

  it("blend weights beyond the float range are refused", function()
    expect(function() steer.blend{ { steer.seek{}, 1e300 } } end):raises_here("steer.blend", "entry 1", "finite")
  end)
end)

describe("an agent parked at 1e30", function()
  it("steers toward or away from what it should (its squared distance overflows a float)", function()
    for _, far in ipairs{ 1e30, 2e19, -3e38 } do
      local w = steer.world{ seed = 1, collide = true }
      w:add_obstacle{ position = { 5, 5 }, radius = 1 }
      local o = w:spawn{ position = { 0, 0 } }
      local seek = w:spawn{ position = { far, 0 }, brain = steer.seek{ target = { 0, 0 } } }
      local arrive = w:spawn{ position = { far, 0 }, brain = steer.arrive{ target = { 0, 0 } } }
      local pursue = w:spawn{ position = { far, 0 }, brain = steer.pursue{ target = o } }
      local flee = w:spawn{ position = { far, 0 }, brain = steer.flee{ target = { 0, 0 } } }
      local chaser = w:spawn{ position = { 0, 1 }, brain = steer.seek{ target = seek } }
      w:step(3)
      local toward = far > 0 and -1 or 1
      for name, a in pairs{ seek = seek, arrive = arrive, pursue = pursue, chaser = chaser } do
        local sign = name == "chaser" and -toward or toward
        expect(a.velocity.x * sign, name .. " at " .. far .. ": velocity toward the target"):gt(0.01)
        expect(a.velocity.y, name .. ": no sideways velocity"):near(0, 1e-6)
      end
      expect(flee.velocity.x * toward, "flee at " .. far .. ": velocity away"):lt(-0.01)
      expect(w:raycast({ 5, 20 }, { 0, -1 }, 30).distance, "the obstacle still found by a ray"):near(14, 1e-4)
    end
  end)
end)
