-- SPDX-License-Identifier: MIT
-- avoid_hide_spec.lua — steer.hide and steer.contain as a user sees them.
-- hide: the agent ends where the pursuer cannot see it (a ray cast from
-- the pursuer to the hider meets the obstacle first), behind the nearest
-- obstacle, braking to a stop there; with no obstacle in its search radius
-- it evades instead. contain: agents stay inside the world's bounds.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

-- Can the pursuer see the hider? A ray from one to the other, shapes only.
local function hidden(w, pursuer, hider)
  local from, to = pursuer.position, hider.position
  local d = to - from
  local hit = w:raycast(from, d, d:len(), { agents = false })
  return hit ~= nil and hit.distance < d:len(), hit
end

describe("hide", function()
  it("ends out of a static pursuer's sight, behind the obstacle, at rest", function()
    local w = steer.world{ seed = 1 }
    local rock = w:add_obstacle{ position = { 10, 0 }, radius = 2 }
    local pursuer = w:spawn{ position = { 0, 0 }, max_speed = 0 }
    local a = w:spawn{ position = { 6, 7 }, max_speed = 3, max_force = 6, radius = 0.5,
                       brain = steer.priority{ steer.avoid_obstacles{}, steer.hide{ target = pursuer, margin = 1 } } }
    w:step(10 * 60)
    local ok, hit = hidden(w, pursuer, a)
    expect(ok, "hidden after 10 s (hider at " .. tostring(a.position) .. ")"):truthy()
    expect(hit.shape, "the shape that hides it"):eq(rock)
    -- the spot: on the line from the pursuer through the centre, 2 + 0.5 + 1 m beyond it
    expect(a.position:dist({ 13.5, 0 }), "distance from the hiding spot"):lt(0.3)
    expect(a.speed, "speed at the spot"):lt(0.05)
  end)

  it("goes round the obstacle rather than through it", function()
    local w = steer.world{ seed = 1 }
    w:add_obstacle{ position = { 10, 0 }, radius = 2 }
    local pursuer = w:spawn{ position = { 0, 0 }, max_speed = 0 }
    -- between the pursuer and the obstacle: the spot is dead behind it
    local a = w:spawn{ position = { 6, 0 }, max_speed = 3, max_force = 6, radius = 0.5,
                       brain = steer.hide{ target = pursuer } }
    local worst = math.huge
    for _ = 1, 10 * 60 do
      w:step()
      worst = math.min(worst, a.position:dist({ 10, 0 }) - 2.5)
    end
    expect(worst, "smallest gap to the obstacle on the way round"):ge(0)
    expect(hidden(w, pursuer, a), "hidden after 10 s"):truthy()
  end)

  it("picks the obstacle with the nearest hiding spot", function()
    local w = steer.world{ seed = 1 }
    w:add_obstacle{ position = { 10, 0 }, radius = 1.5 }
    local near = w:add_obstacle{ position = { -4, 12 }, radius = 1.5 }
    local pursuer = w:spawn{ position = { 0, 0 }, max_speed = 0 }
    local a = w:spawn{ position = { -6, 10 }, max_speed = 3, max_force = 6, radius = 0.5,
                       brain = steer.hide{ target = pursuer } }
    w:step(8 * 60)
    local ok, hit = hidden(w, pursuer, a)
    expect(ok, "hidden"):truthy()
    expect(hit.shape, "hidden behind the near obstacle"):eq(near)
  end)

  it("stays hidden from a slow pursuer that walks round", function()
    local w = steer.world{ seed = 1 }
    w:add_obstacle{ position = { 0, 0 }, radius = 3 }
    -- the pursuer circles the obstacle slowly, 10 m out
    local pursuer = w:spawn{ position = { -10, 0 }, max_speed = 0.6, max_force = 6,
                             brain = steer.custom(function(agent)
                               local x, y = agent:xy()
                               local r = math.sqrt(x * x + y * y)
                               -- tangential at 0.6 m/s, radial correction to 10 m
                               return (-y / r * 0.6 - agent.velocity.x) * 10 + (10 - r) * x / r,
                                      (x / r * 0.6 - agent.velocity.y) * 10 + (10 - r) * y / r
                             end) }
    local a = w:spawn{ position = { 8, 2 }, max_speed = 3, max_force = 8, radius = 0.5,
                       brain = steer.priority{ steer.avoid_obstacles{}, steer.hide{ target = pursuer, margin = 0.5 } } }
    w:step(5 * 60)
    local seen = 0
    for _ = 1, 15 * 60 do
      w:step()
      if not hidden(w, pursuer, a) then seen = seen + 1 end
    end
    expect(seen, "ticks in sight over 15 s"):eq(0)
  end)

  it("hides behind a box", function()
    local w = steer.world{ seed = 1 }
    local box = w:add_box{ min = { 8, -2 }, max = { 11, 2 } }
    local pursuer = w:spawn{ position = { 0, 1 }, max_speed = 0 }
    local a = w:spawn{ position = { 6, 8 }, max_speed = 3, max_force = 6, radius = 0.5,
                       brain = steer.priority{ steer.avoid_obstacles{}, steer.hide{ target = pursuer } } }
    w:step(10 * 60)
    local ok, hit = hidden(w, pursuer, a)
    expect(ok, "hidden behind the box (at " .. tostring(a.position) .. ")"):truthy()
    expect(hit.shape, "the box"):eq(box)
  end)

  it("evades when no obstacle is within its search radius", function()
    local w = steer.world{ seed = 1 }
    w:add_obstacle{ position = { 100, 100 }, radius = 2 }
    local pursuer = w:spawn{ position = { 0, 0 }, velocity = { 1, 0 }, max_speed = 1,
                             brain = steer.seek{ target = { 100, 0 } } }
    local a = w:spawn{ position = { 5, 1 }, max_speed = 3, max_force = 6,
                       brain = steer.hide{ target = pursuer, radius = 20 } }
    local d0 = a.position:dist(pursuer.position)
    w:step(3 * 60)
    local d1 = a.position:dist(pursuer.position)
    expect(d1, "distance from the pursuer after 3 s (started " .. d0 .. ")"):gt(d0 + 4)
  end)

  it("does nothing without a pursuer", function()
    local w = steer.world{ seed = 1 }
    w:add_obstacle{ position = { 10, 0 }, radius = 2 }
    local a = w:spawn{ position = { 0, 5 }, brain = steer.hide{} }
    w:step(10)
    expect(a:force():len(), "force"):eq(0)
  end)

  it("rejects bad fields", function()
    expect(function() steer.hide{ radius = 0 } end, "radius = 0"):raises("radius")
    expect(function() steer.hide{ margin = -1 } end, "margin = -1"):raises("margin")
    expect(function() steer.hide{ target = "x" } end, "target"):raises("target")
  end)
end)

describe("contain", function()
  local function inside_for(w, agents, seconds, lo, hi, r)
    local worst = math.huge
    for _ = 1, seconds * 60 do
      w:step()
      for _, a in ipairs(agents) do
        local p = { a:xy() }
        for i = 1, #lo do
          if hi[i] then worst = math.min(worst, p[i] - r - lo[i], hi[i] - p[i] - r) end
        end
      end
    end
    return worst
  end

  it("keeps wandering agents inside the bounds for 60 s", function()
    local w = steer.world{ size = { 40, 30 }, origin = { -20, -15 }, seed = 9 }
    local brain = steer.priority{ steer.contain{ margin = 1 }, steer.wander{ distance = 4, radius = 2, jitter = 8 } }
    local agents = {}
    for i = 1, 12 do
      agents[i] = w:spawn{ position = { -15 + i * 2.4, (i % 5) * 5 - 10 }, velocity = { 3 * math.cos(i), 3 * math.sin(i) },
                           max_speed = 3, max_force = 6, radius = 0.5, brain = brain }
    end
    local worst = inside_for(w, agents, 60, { -20, -15 }, { 20, 15 }, 0.5)
    expect(worst, "smallest distance from an agent's edge to a bound (m)"):ge(0)
  end)

  it("brings back an agent that starts outside, and leaves unbounded axes alone", function()
    local w = steer.world{ size = { 20, 0 }, seed = 1 }
    local a = w:spawn{ position = { -5, 0 }, velocity = { -3, 2 }, max_speed = 3, max_force = 6,
                       brain = steer.contain{} }
    w:step(4 * 60)
    local x, y = a:xy()
    expect(x, "x after 4 s"):ge(0.5)
    expect(x, "x after 4 s"):le(19.5)
    expect(y, "y (unbounded) keeps going"):gt(5)
  end)

  it("keeps a 3D swarm inside a box", function()
    local w = steer.world{ dim = 3, size = { 20, 20, 10 }, seed = 3 }
    local brain = steer.priority{ steer.contain{ margin = 2 }, steer.wander{ distance = 3, radius = 2, jitter = 6 } }
    local agents = {}
    for i = 1, 6 do
      agents[i] = w:spawn{ position = { 3 * i, 10, 5 }, velocity = { 0, 3, 0.5 }, max_speed = 3, max_force = 6,
                           radius = 0.5, brain = brain }
    end
    local worst = inside_for(w, agents, 30, { 0, 0, 0 }, { 20, 20, 10 }, 0.5)
    expect(worst, "smallest distance from an agent's edge to a bound (m)"):ge(0)
  end)

  it("does nothing on a wrapped world", function()
    local w = steer.world{ size = { 20, 20 }, wrap = true, seed = 1 }
    local a = w:spawn{ position = { 19.9, 10 }, velocity = { 3, 0 }, max_speed = 3, max_force = 6,
                       brain = steer.contain{ margin = 5 } }
    w:step()
    expect(a:force():len(), "force"):eq(0)
  end)

  it("gives nothing well inside, so a priority passes on", function()
    local w = steer.world{ size = { 100, 100 }, seed = 1 }
    local a = w:spawn{ position = { 50, 50 }, velocity = { 3, 0 }, max_speed = 3, max_force = 6,
                       brain = steer.contain{ margin = 5 } }
    w:step()
    expect(a:force():len(), "force in the middle"):eq(0)
  end)

  it("rejects bad fields", function()
    expect(function() steer.contain{ margin = -1 } end, "margin = -1"):raises("margin")
    expect(function() steer.contain{ lookahead = -1 } end, "lookahead = -1"):raises("lookahead")
  end)
end)
