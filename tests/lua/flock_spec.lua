-- SPDX-License-Identifier: MIT
-- flock_spec.lua — Reynolds' group behaviours do what their names say:
-- alignment lines headings up, cohesion pulls a scattered group together,
-- separation spreads a crowd out, and each listens only to its radius and tag.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local seed = 12345
local function rand(lo, hi)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return lo + (hi - lo) * seed / 2147483648
end

-- |mean heading|: 0 for random headings, 1 when all agree.
local function polarisation(agents)
  local sx, sy = 0, 0
  for _, a in ipairs(agents) do
    local h = a.heading
    sx, sy = sx + h.x, sy + h.y
  end
  return math.sqrt(sx * sx + sy * sy) / #agents
end

local function spread(agents)
  local cx, cy = 0, 0
  for _, a in ipairs(agents) do
    local x, y = a:xy()
    cx, cy = cx + x, cy + y
  end
  cx, cy = cx / #agents, cy / #agents
  local r = 0
  for _, a in ipairs(agents) do
    local x, y = a:xy()
    r = r + math.sqrt((x - cx) ^ 2 + (y - cy) ^ 2)
  end
  return r / #agents
end

describe("alignment", function()
  it("takes 300 randomly headed agents to a polarisation above 0.9", function()
    local w = steer.world{ size = { 60, 60 }, wrap = true, seed = 3 }
    local brain = steer.alignment{ radius = 10 }
    local agents = {}
    for i = 1, 300 do
      local angle = rand(0, 2 * math.pi)
      agents[i] = w:spawn{ position = { rand(0, 60), rand(0, 60) },
                           velocity = { 2 * math.cos(angle), 2 * math.sin(angle) },
                           max_speed = 2, max_force = 2, brain = brain }
    end
    local p0 = polarisation(agents)
    expect(p0, "initial polarisation"):lt(0.2)
    local reached
    for s = 1, 15 do
      w:step(60)
      if polarisation(agents) > 0.9 then reached = s break end
    end
    expect(reached, "seconds to polarisation 0.9 (final " .. polarisation(agents) .. ")"):type("number")
    -- it stays aligned
    w:step(120)
    expect(polarisation(agents), "polarisation 2 s later"):gt(0.9)
  end)
end)

describe("cohesion", function()
  it("pulls a scattered group together", function()
    local w = steer.world{ seed = 3 }
    local brain = steer.cohesion{ radius = 30 }
    local agents = {}
    for i = 1, 40 do
      agents[i] = w:spawn{ position = { rand(-10, 10), rand(-10, 10) }, max_speed = 2, max_force = 4, brain = brain }
    end
    local r0 = spread(agents)
    w:step(180)
    expect(spread(agents), "mean distance from the centre (was " .. r0 .. ")"):lt(r0 * 0.5)
  end)
end)

describe("separation", function()
  it("spreads a crowd out", function()
    local w = steer.world{ seed = 3 }
    local brain = steer.blend{ { steer.separation{ radius = 3 }, 1 } }
    local agents = {}
    for i = 1, 30 do
      agents[i] = w:spawn{ position = { rand(-1, 1), rand(-1, 1) }, max_speed = 2, max_force = 4, brain = brain }
    end
    local r0 = spread(agents)
    w:step(180)
    expect(spread(agents), "mean distance from the centre (was " .. r0 .. ")"):gt(r0 * 1.5)
  end)

  it("listens only to neighbours with its tag", function()
    local w = steer.world{ seed = 3 }
    local brain = steer.separation{ radius = 3, tag = "crowd" }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 2, max_force = 4, brain = brain }
    w:spawn{ position = { 1, 0 }, tag = "other" }
    w:step()
    expect(a:force():len(), "force from an agent of another tag"):eq(0)
    w:spawn{ position = { 0, 1 }, tag = "crowd" }
    w:step()
    local f = a:force()
    expect(f:len(), "force from a tagged neighbour"):gt(0)
    expect(f.y, "pushed away from the tagged neighbour (f = " .. tostring(f) .. ")"):lt(0)
    expect(math.abs(f.x), "no push from the other tag"):lt(1e-6)
  end)

  it("ignores neighbours beyond its radius", function()
    local w = steer.world{ seed = 3 }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 2, max_force = 4, brain = steer.separation{ radius = 2 } }
    w:spawn{ position = { 2.5, 0 } }
    w:step()
    expect(a:force():len(), "force from an agent 2.5 m away"):eq(0)
  end)
end)
