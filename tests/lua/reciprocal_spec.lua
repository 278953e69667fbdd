-- SPDX-License-Identifier: MIT
-- reciprocal_spec.lua — steer.reciprocal (ORCA) as a crowd's user sees it:
-- a head-on pair passes right to right; a ring crossing its centre neither
-- deadlocks nor overlaps, at 60 Hz and at 4 Hz; the same seed gives the same
-- bits; shapes are never entered without the collide pass; agents at packed
-- goals stand still once there; two sent to one point stand, and a crowd
-- sent to one point stands still with arrive's free_spot; without children
-- it keeps the agent's own velocity; it works in 3D, composes under a
-- priority, and its bad fields are named.
--
-- Agents are 0.5 m in radius, max_speed 2 and max_force 16 (a velocity
-- change of 4 m/s fits in one step of 0.25 s) unless a test says otherwise.
local steer = require "steer"
local spec = require "spec"
local scene = require "scene"
local lcg = scene.lcg
local deepest_overlap = scene.deepest_overlap
local describe, it, expect = spec.describe, spec.it, spec.expect

local function walker(fields)
  fields = fields or {}
  local goal = steer.arrive{ slow_radius = 3, stop_radius = 0.2, free_spot = fields.free_spot }
  fields.free_spot = nil
  fields[1] = goal
  return steer.reciprocal(fields)
end

-- Step `seconds`; the closest the two agents came.
local function closest_pass(w, a, b, seconds)
  local closest = math.huge
  for _ = 1, seconds * 60 do
    w:step()
    closest = math.min(closest, a.position:dist(b.position))
  end
  return closest
end

-- N agents on a circle of radius R, each sent to the opposite point.
-- Returns the world, the agents and their goals.
local function ring(N, R, dt, brain, seed)
  local w = steer.world{ seed = seed or 1, dt = dt }
  local agents, goals = {}, {}
  for i = 1, N do
    local th = 2 * math.pi * (i - 1) / N
    local x, y = R * math.cos(th), R * math.sin(th)
    goals[i] = steer.vec(-x, -y)
    agents[i] = w:spawn{ position = { x, y }, max_speed = 2, max_force = 16, radius = 0.5, brain = brain,
                         target = goals[i] }
  end
  return w, agents, goals
end

-- Step until every agent is within 1 m of its goal or `limit` seconds pass.
-- Returns the time they all got there (nil: never), the deepest overlap.
local function cross(w, agents, goals, limit)
  local worst, done = 0, {}
  local left = #agents
  while w.time < limit do
    w:step()
    worst = math.max(worst, deepest_overlap(agents, 0.5))
    for i, a in ipairs(agents) do
      if not done[i] and a.position:dist(goals[i]) < 1 then done[i], left = true, left - 1 end
    end
    if left == 0 then return w.time, worst end
  end
  return nil, worst
end

describe("reciprocal", function()
  it("passes a head-on pair right to right without touching", function()
    local w = steer.world{ seed = 1 }
    local brain = walker()
    local a = w:spawn{ position = { -10, 0 }, max_speed = 2, max_force = 16, radius = 0.5, brain = brain,
                       target = { 10, 0 } }
    local b = w:spawn{ position = { 10, 0 }, max_speed = 2, max_force = 16, radius = 0.5, brain = brain,
                       target = { -10, 0 } }
    local closest, side_a, side_b = math.huge, 0, 0
    for _ = 1, 20 * 60 do
      w:step()
      local d = a.position:dist(b.position)
      if d < closest then
        closest = d
        local _, ya = a:xy()
        local _, yb = b:xy()
        side_a, side_b = ya, yb
      end
    end
    expect(closest, "closest distance between the centres (radii 0.5 + 0.5)"):ge(0.99)
    -- a goes +x: its right is -y; b goes -x: its right is +y
    expect(side_a, "a's y when they are closest"):lt(0)
    expect(side_b, "b's y when they are closest"):gt(0)
    expect(a.position:dist(steer.vec(10, 0)), "a from its goal at the end"):lt(0.3)
    expect(b.position:dist(steer.vec(-10, 0)), "b from its goal at the end"):lt(0.3)
  end)

  it("crosses a ring of 60 without a deadlock or an overlap over 10% of a radius at 60 Hz", function()
    local w, agents, goals = ring(60, 20, 1 / 60, walker())
    local t, worst = cross(w, agents, goals, 90)
    expect(t, "time until all 60 are within 1 m of their goals (s)"):type("number")
    expect(worst, "deepest overlap (m; 10% of a radius is 0.05)"):lt(0.05)
  end)

  it("crosses the same ring at 4 Hz", function()
    local w, agents, goals = ring(60, 20, 0.25, walker())
    local t, worst = cross(w, agents, goals, 120)
    expect(t, "time until all 60 are within 1 m of their goals (s)"):type("number")
    expect(worst, "deepest overlap (m)"):lt(0.5)
  end)

  it("without its bias, the same ring stops for good (the bias is what breaks the symmetry)", function()
    local w, agents, goals = ring(40, 20, 1 / 60, walker{ bias = 0 })
    local t = cross(w, agents, goals, 60)
    expect(t, "time until all 40 crossed without the bias"):eq(nil)
  end)

  it("gives the same bits for the same seed, and other bits for another start", function()
    local function run(turn)
      local w = steer.world{ seed = 3 }
      local brain = walker()
      for i = 1, 30 do
        local th = 2 * math.pi * i / 30 + turn
        w:spawn{ position = { 15 * math.cos(th), 15 * math.sin(th) }, max_speed = 2, max_force = 16, radius = 0.5,
                 brain = brain, target = { -15 * math.cos(th), -15 * math.sin(th) } }
      end
      for _ = 1, 600 do w:step() end
      return w:hash()
    end
    expect(run(0), "hash of a second run"):eq(run(0))
    expect(run(0.01), "hash of a run from a turned circle"):ne(run(0))
  end)

  -- One field: 30 circles from rand, a wall across the way at x = 28 with a
  -- gap at |y| < 2, one agent from x = -35 to (35, 0). The smallest gap it
  -- left to a shape (its distance less its radius; the wall's two pieces
  -- are segments, which an agent may walk round), and whether it got there.
  local function field(f, rand)
    local w = steer.world{ seed = f }
    local obs = {}
    while #obs < 30 do
      local x, y, r = rand(-25, 25), rand(-15, 15), rand(1, 3)
      if math.abs(x + 35) > r + 2 and math.abs(x - 35) > r + 2 then obs[#obs + 1] = { x = x, y = y, r = r } end
    end
    for _, o in ipairs(obs) do w:add_obstacle{ position = { o.x, o.y }, radius = o.r } end
    w:add_wall{ from = { 28, -40 }, to = { 28, -2 } }
    w:add_wall{ from = { 28, 2 }, to = { 28, 40 } }
    local goal = steer.vec(35, 0)
    local brain = steer.reciprocal{ steer.priority{ steer.avoid_obstacles{ lookahead = 1 },
                                                    steer.arrive{ slow_radius = 3, stop_radius = 0.2 } } }
    local a = w:spawn{ position = { -35, rand(-10, 10) }, max_speed = 2, max_force = 16, radius = 0.5,
                       brain = brain, target = goal }
    local worst = math.huge
    for _ = 1, 90 * 60 do
      w:step()
      local x, y = a:xy()
      for _, o in ipairs(obs) do
        local dx, dy = x - o.x, y - o.y
        worst = math.min(worst, math.sqrt(dx * dx + dy * dy) - o.r - 0.5)
      end
      local near = math.min(math.max(math.abs(y), 2), 40) -- the wall's point nearest, in |y|
      worst = math.min(worst, math.sqrt((x - 28) ^ 2 + (math.abs(y) - near) ^ 2) - 0.5)
      if a.position:dist(goal) < 1 then break end
    end
    return worst, a.position:dist(goal) < 1
  end

  it("never enters a circle or a wall without the collide pass, and gets through", function()
    local reached, fields = 0, 10
    for f = 1, fields do
      local worst, there = field(f, lcg(100 + f))
      expect(worst, "field " .. f .. ": smallest gap to a shape (m)"):ge(-1e-3)
      if there then reached = reached + 1 end
    end
    expect(reached, "fields crossed of " .. fields):ge(fields - 1)
  end)

  it("walks round a wall's end without entering it", function()
    -- field 4 as the lcg made it in floating point (Lua 5.1's numbers: the
    -- product passes 2^53 and rounds), exact on every Lua: the agent goes
    -- up the wall and round its end at (28, 40), 0.91 m from it at x = 28
    local s = 104
    local function rand(lo, hi)
      s = s * 1103515245.0 + 12345
      s = s - math.floor(s / 2147483648.0) * 2147483648.0
      return lo + (hi - lo) * s / 2147483648
    end
    local worst, there = field(4, rand)
    expect(worst, "smallest gap to a shape (m)"):ge(-1e-3)
    expect(there, "at the goal"):truthy()
  end)

  it("takes 24 people both ways through a doorway at 60 Hz, never into a jamb at 60 or 4 Hz", function()
    for _, dt in ipairs{ 1 / 60, 0.25 } do
      local w = steer.world{ seed = 2, dt = dt }
      -- a wall on x = 0 with a 2 m gap; each side keeps right (a waypoint in its half)
      w:add_wall{ from = { 0, -20 }, to = { 0, -1 } }
      w:add_wall{ from = { 0, 1 }, to = { 0, 20 } }
      local brain = walker()
      local people = {}
      for i = 0, 23 do
        local side = i < 12 and -1 or 1
        local row, col = (i % 12) % 4, math.floor((i % 12) / 4)
        local y = (row - 1.5) * 1.2
        people[#people + 1] = { a = w:spawn{ position = { side * (6 + col), y }, max_speed = 1.4, max_force = 11.2,
                                             radius = 0.3, brain = brain, target = { 0, side * 0.5 } },
                                side = side, via = steer.vec(0, side * 0.5), goal = steer.vec(-side * (6 + col), y) }
      end
      local worst, through = math.huge, 0
      for _ = 1, 120 / dt do
        w:step()
        through = 0
        for _, p in ipairs(people) do
          local x, y = p.a:xy()
          if math.abs(y) >= 1 then worst = math.min(worst, math.abs(x) - 0.3) end
          for _, e in ipairs{ -1, 1 } do worst = math.min(worst, math.sqrt(x * x + (y - e) ^ 2) - 0.3) end
          -- through (or in) the gap: on to the goal; pushed back: to the gap again
          local on = x * p.side < 0 or p.a.position:dist(p.via) < 0.5
          if on ~= p.on then p.on, p.a.target = on, on and p.goal or p.via end
          if p.a.position:dist(p.goal) < 1 then through = through + 1 end
        end
        if through == #people then break end
      end
      expect(worst, ("dt %g: smallest gap to the wall (m)"):format(dt)):ge(-1e-3)
      if dt < 0.1 then
        expect(through, "people at their goals on the other side"):eq(#people)
      else
        -- two flows meeting in a door can jam at 4 Hz (docs/api.md, reciprocal: limits)
        expect(through, "people at their goals on the other side at 4 Hz"):ge(math.floor(#people / 2))
      end
    end
  end)

  it("lets agents at packed goals stand still once there", function()
    -- 25 agents close in from a grid 6 m apart to goals 2.1 m apart (radius 1)
    local w = steer.world{ seed = 1 }
    local brain = walker()
    local agents = {}
    for i = 0, 4 do
      for j = 0, 4 do
        agents[#agents + 1] = w:spawn{ position = { (i - 2) * 6, (j - 2) * 6 }, max_speed = 2, max_force = 16,
                                       radius = 1, brain = brain, target = { (i - 2) * 2.1, (j - 2) * 2.1 } }
      end
    end
    for _ = 1, 30 * 60 do w:step() end
    local heading = {}
    for i, a in ipairs(agents) do heading[i] = a.heading end
    local fastest, turned = 0, 0
    for _ = 1, 10 * 60 do
      w:step()
      for i, a in ipairs(agents) do
        fastest = math.max(fastest, a.velocity:len())
        local h = a.heading
        turned = math.max(turned, math.acos(math.max(-1, math.min(1, h:dot(heading[i])))))
        heading[i] = h
      end
    end
    for i, a in ipairs(agents) do
      expect(a.position:dist(a.target), "agent " .. i .. " from its goal (m)"):lt(1)
    end
    expect(fastest, "fastest speed over the 10 s after (m/s)"):lt(0.05)
    expect(turned * 60 * 180 / math.pi, "fastest heading change (degrees/s)"):lt(5)
  end)

  it("lets two sent to one point from either side stand there, not circle it", function()
    -- a standoff over one spot: only the one with the longer way gives way (reciprocal.c,
    -- give_way); when both stepped aside, the pair circled the point for good (0.29 m/s at 60 Hz)
    for _, dt in ipairs{ 1 / 60, 0.25 } do
      local w = steer.world{ seed = 1, dt = dt }
      local brain = walker()
      local a = w:spawn{ position = { -15, 0 }, max_speed = 2, max_force = 16, radius = 0.5, brain = brain,
                         target = { 0, 0 } }
      local b = w:spawn{ position = { 15, 0 }, max_speed = 2, max_force = 16, radius = 0.5, brain = brain,
                         target = { 0, 0 } }
      for _ = 1, 40 / dt do w:step() end
      local fastest = 0
      for _ = 1, 5 / dt do
        w:step()
        fastest = math.max(fastest, a.velocity:len(), b.velocity:len())
      end
      expect(fastest, ("dt %g: fastest of the two 40-45 s after they set off (m/s)"):format(dt)):lt(0.05)
      expect(math.min(a.position:len(), b.position:len()), ("dt %g: nearer one from the point (m)"):format(dt)):lt(1)
    end
  end)

  it("with arrive's free_spot, a crowd sent to one point stands still round it", function()
    local function gather(free)
      local w = steer.world{ seed = 1 }
      local brain = walker{ free_spot = free }
      local agents = {}
      for i = 1, 20 do
        local th = 2 * math.pi * i / 20
        agents[i] = w:spawn{ position = { 15 * math.cos(th), 15 * math.sin(th) }, max_speed = 2, max_force = 16,
                             radius = 0.5, brain = brain, target = { 0, 0 } }
      end
      local arrived, arrivals = {}, 0
      w:on("arrive", function(a)
        if not arrived[a.id] then arrived[a.id], arrivals = true, arrivals + 1 end
      end)
      for _ = 1, 40 * 60 do w:step() end
      local fastest = 0
      for _ = 1, 5 * 60 do
        w:step()
        for _, a in ipairs(agents) do fastest = math.max(fastest, a.velocity:len()) end
      end
      return fastest, arrivals, deepest_overlap(agents, 0.5)
    end
    local fastest, arrivals, overlap = gather(true)
    expect(fastest, "fastest agent 40-45 s after they set off (m/s)"):lt(0.05)
    expect(arrivals, "agents that arrived (at the goal or a free spot)"):eq(20)
    expect(overlap, "deepest overlap (m)"):lt(0.05)
    local pressing = gather(false)
    expect(pressing, "fastest agent without free_spot: they press on"):gt(fastest)
  end)

  it("without children keeps the agent's own velocity, and still gives way", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 0, 0 }, velocity = { 1.5, 0 }, max_speed = 2, max_force = 16, radius = 0.5,
                       brain = steer.reciprocal{} }
    for _ = 1, 60 do w:step() end
    expect(a.velocity, "velocity after 1 s alone"):eq(steer.vec(1.5, 0))
    local b = w:spawn{ position = { 12, 0 }, velocity = { -1.5, 0 }, max_speed = 2, max_force = 16, radius = 0.5,
                       brain = steer.reciprocal{} }
    expect(closest_pass(w, a, b, 10), "closest distance of the pair (radii 0.5 + 0.5)"):ge(0.99)
  end)

  it("works under a priority and in 3D", function()
    local w = steer.world{ dim = 3, seed = 1 }
    local brain = steer.priority{ steer.avoid_walls{}, walker() }
    local a = w:spawn{ position = { -10, 0, 0 }, max_speed = 2, max_force = 16, radius = 0.5, brain = brain,
                       target = { 10, 0, 0 } }
    local b = w:spawn{ position = { 10, 0, 0 }, max_speed = 2, max_force = 16, radius = 0.5, brain = brain,
                       target = { -10, 0, 0 } }
    expect(closest_pass(w, a, b, 20), "closest distance in 3D (radii 0.5 + 0.5)"):ge(0.99)
    expect(a.position:dist(steer.vec(10, 0, 0)), "a from its goal"):lt(0.3)
    expect(b.position:dist(steer.vec(-10, 0, 0)), "b from its goal"):lt(0.3)
  end)

  it("names the field and what it expected when one is wrong", function()
    expect(function() steer.reciprocal{ horizon = 0 } end):raises("reciprocal", "horizon")
    expect(function() steer.reciprocal{ bias = 2 } end):raises("reciprocal", "bias", "radians")
    expect(function() steer.reciprocal{ neighbors = -1 } end):raises("reciprocal", "neighbors")
    expect(function() steer.reciprocal{ max_overlap = -0.1 } end):raises_here("reciprocal", "max_overlap", "got -0.1")
    expect(function() steer.reciprocal{ max_overlap = 0 / 0 } end):raises_here("reciprocal", "max_overlap", "got NaN")
    expect(function() steer.reciprocal{ max_overlap = 1.5 } end):raises_here("reciprocal", "max_overlap", "<= 1")
    expect(function() steer.arrive{ free_spot = 1 } end):raises("arrive", "free_spot", "boolean")
  end)
end)

spec.report()
