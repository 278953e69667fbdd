-- SPDX-License-Identifier: MIT
-- path_spec.lua — follow_path and patrol as a user sees them: a patrol
-- visits its points in order, lap after lap (loop and ping-pong), holds
-- still for its pause and stops where a non-looping patrol ends;
-- follow_path stays inside its corridor on curved paths (2D and 3D), ends
-- an open path at rest on its last point with one "arrive" event, keeps
-- going round a loop, keeps to its branch where a path crosses itself,
-- and survives repeated points; bad descriptions raise naming the field.
--
-- Agents have max_speed 3 and max_force 6 (a velocity time constant of
-- 0.5 s) unless a test says otherwise.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect
local atan2 = math.atan2 or math.atan -- atan(y, x): Lua 5.1 and LuaJIT's math.atan takes one argument

-- ---- helpers -------------------------------------------------------------

-- Distance from p to the polyline pts (a closed one when loop), in 2D or 3D.
local function dist_to_path(pts, p, loop)
  local px, py, pz = p[1], p[2], p[3] or 0
  local best = math.huge
  local n = #pts
  for i = 1, loop and n or n - 1 do
    local a, b = pts[i], pts[i % n + 1]
    local ax, ay, az = a[1], a[2], a[3] or 0
    local bx, by, bz = b[1] - ax, b[2] - ay, (b[3] or 0) - az
    local l2 = bx * bx + by * by + bz * bz
    local t = l2 > 0 and ((px - ax) * bx + (py - ay) * by + (pz - az) * bz) / l2 or 0
    t = math.max(0, math.min(1, t))
    local dx, dy, dz = px - ax - t * bx, py - ay - t * by, pz - az - t * bz
    best = math.min(best, math.sqrt(dx * dx + dy * dy + dz * dz))
  end
  return best
end

-- Index of the point of pts nearest to agent a.
local function nearest(pts, a)
  local p = a.position
  local bi, bd = nil, math.huge
  for i, q in ipairs(pts) do
    local d = p:dist(q)
    if d < bd then bi, bd = i, d end
  end
  return bi, bd
end

-- Run a follow_path agent for `seconds`: the largest distance from the
-- path once the agent has been inside `radius`, the arrive events, and the
-- agent. desc.path is required; `dim` and `start` are optional.
local function follow(desc, seconds, opts)
  opts = opts or {}
  local w = steer.world{ dim = opts.dim or 2, seed = 1, size = { 400, 400, 400 } }
  local pts = desc.path
  local a = w:spawn{ position = opts.start or pts[1], max_speed = 3, max_force = 6, brain = steer.follow_path(desc) }
  local events = 0
  w:on("arrive", function() events = events + 1 end)
  local worst, inside = 0, false
  for _ = 1, seconds * 60 do
    w:step()
    local d = dist_to_path(pts, { a:xy() }, desc.loop)
    if d <= desc.radius then inside = true end
    if inside then worst = math.max(worst, d) end
  end
  return worst, events, a, w, inside
end

local function semicircle(r, n)
  local pts = {}
  for i = 0, n - 1 do
    local th = math.pi * i / (n - 1)
    pts[#pts + 1] = { r * math.cos(th), r * math.sin(th) }
  end
  return pts
end

local SQUARE = { { 0, 0 }, { 10, 0 }, { 10, 10 }, { 0, 10 } }

-- A patrol agent starting at (-3, -3); the nearest-point index of each
-- "arrive" event, and its distance to that point.
local function patrol_order(desc, seconds)
  local w = steer.world{ seed = 1 }
  local a = w:spawn{ position = { -3, -3 }, max_speed = 3, max_force = 6, brain = steer.patrol(desc) }
  local order, worst = {}, 0
  w:on("arrive", function(agent)
    expect(agent == a, "the event names the patrolling agent"):truthy()
    local i, d = nearest(desc.points, agent)
    order[#order + 1] = i
    worst = math.max(worst, d)
  end)
  w:step(seconds * 60)
  return order, worst, a, w
end

-- ---- patrol --------------------------------------------------------------

describe("patrol", function()
  it("visits its points in order, lap after lap (loop)", function()
    -- a lap is 40 m: 13 s at 3 m/s plus braking at each corner
    local order, worst = patrol_order({ points = SQUARE }, 100)
    expect(#order, "arrivals in 100 s"):ge(13) -- more than 3 full laps
    for k, i in ipairs(order) do
      expect(i, "arrival " .. k .. " (point index)"):eq((k - 1) % 4 + 1)
    end
    expect(worst, "distance to the point at each arrival"):le(0.2)
  end)

  it("goes back and forth in ping-pong mode", function()
    local order = patrol_order({ points = SQUARE, mode = "pingpong" }, 100)
    local want = { 1, 2, 3, 4, 3, 2 } -- then again from 1
    expect(#order, "arrivals in 100 s"):ge(13)
    for k, i in ipairs(order) do
      expect(i, "arrival " .. k .. " (point index)"):eq(want[(k - 1) % 6 + 1])
    end
  end)

  it("stops at the last point when loop = false", function()
    local order, _, a = patrol_order({ points = SQUARE, loop = false }, 40)
    expect(table.concat(order, ","), "arrivals"):eq("1,2,3,4")
    expect(a.position:dist(SQUARE[4]), "final distance to the last point"):le(0.2)
    expect(a.speed, "final speed"):lt(1e-3)
  end)

  it("makes one round trip in ping-pong mode when loop = false", function()
    local order, _, a = patrol_order({ points = SQUARE, mode = "pingpong", loop = false }, 50)
    expect(table.concat(order, ","), "arrivals"):eq("1,2,3,4,3,2,1")
    expect(a.position:dist(SQUARE[1]), "final distance to the first point"):le(0.2)
    expect(a.speed, "final speed"):lt(1e-3)
  end)

  it("holds still at each point for the pause", function()
    local PAUSE = 1.5
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { -3, -3 }, max_speed = 3, max_force = 6,
                       brain = steer.patrol{ points = SQUARE, pause = PAUSE } }
    local arrivals = {}
    w:on("arrive", function() arrivals[#arrivals + 1] = { tick = w.tick, at = a.position } end)
    -- per arrival: how far the agent drifts during the pause, and when it
    -- has left (moved 0.5 m from where it arrived)
    local drift, left = {}, {}
    for _ = 1, 40 * 60 do
      w:step()
      local k = #arrivals
      if k > 0 and not left[k] then
        local d = a.position:dist(arrivals[k].at)
        if (w.tick - arrivals[k].tick) * w.dt < PAUSE then drift[k] = math.max(drift[k] or 0, d) end
        if d > 0.5 then left[k] = w.tick end
      end
    end
    expect(#arrivals, "arrivals in 40 s"):ge(5)
    for k = 1, #arrivals - 1 do
      expect(drift[k], "arrival " .. k .. ": drift during the pause (m)"):lt(0.15)
      local held = (left[k] - arrivals[k].tick) * w.dt
      -- it holds the whole pause, then needs ~0.5 s to cover 0.5 m from rest
      expect(held, "arrival " .. k .. ": seconds before leaving"):ge(PAUSE)
      expect(held, "arrival " .. k .. ": seconds before leaving"):le(PAUSE + 1)
    end
    -- without a pause the patrol goes on at once
    local w2 = steer.world{ seed = 1 }
    w2:spawn{ position = { -3, -3 }, max_speed = 3, max_force = 6, brain = steer.patrol{ points = SQUARE } }
    local t1
    w2:on("arrive", function() t1 = t1 or w2.tick end)
    w2:step(20 * 60)
    expect(t1, "tick of the first arrival without pause"):truthy()
  end)

  it("raises an arrive event at each point, also for repeated points, and never NaN", function()
    local pts = { { 0, 0 }, { 0, 0 }, { 5, 0 }, { 5, 0 } }
    local order, _, a = patrol_order({ points = pts, pause = 0.1 }, 30)
    expect(#order, "arrivals in 30 s"):ge(8)
    -- (nearest() names the first of two equal points)
    local want = { 1, 1, 3, 3 }
    for k, i in ipairs(order) do expect(i, "arrival " .. k):eq(want[(k - 1) % 4 + 1]) end
    local x, y = a:xy()
    expect(x, "x"):finite()
    expect(y, "y"):finite()
  end)

  it("starts again from the first point when the brain is reassigned", function()
    local w = steer.world{ seed = 1 }
    local brain = steer.patrol{ points = SQUARE }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 3, max_force = 6, brain = brain }
    local order = {}
    w:on("arrive", function(agent) order[#order + 1] = (nearest(SQUARE, agent)) end)
    w:step(10 * 60) -- past points 1 and 2
    expect(#order, "arrivals before reassigning"):ge(2)
    a.brain = nil
    a.position = { 9, 9 } -- near point 3
    a.velocity = { 0, 0 }
    order = {}
    a.brain = brain
    w:step(8 * 60)
    expect(order[1], "first arrival after reassigning"):eq(1)
  end)

  it("patrols in 3D", function()
    local w = steer.world{ dim = 3, seed = 1, size = { 100, 100, 100 } }
    local pts = { { 0, 0, 0 }, { 8, 0, 4 }, { 8, 8, 8 } }
    w:spawn{ position = { 0, 0, 0 }, max_speed = 3, max_force = 6, brain = steer.patrol{ points = pts } }
    local order = {}
    w:on("arrive", function(agent) order[#order + 1] = (nearest(pts, agent)) end)
    w:step(40 * 60)
    expect(#order, "arrivals"):ge(6)
    for k, i in ipairs(order) do expect(i, "arrival " .. k):eq((k - 1) % 3 + 1) end
  end)
end)

-- ---- follow_path ---------------------------------------------------------

describe("follow_path", function()
  it("stays within the radius on a semicircle once inside", function()
    local pts = semicircle(10, 25)
    for _, radius in ipairs{ 0.5, 1, 2 } do
      local worst, _, a, _, inside = follow({ path = pts, radius = radius }, 20)
      expect(inside, "radius " .. radius .. ": entered the corridor"):truthy()
      expect(worst, "radius " .. radius .. ": largest distance from the path"):le(radius + 0.02)
      expect(a.position:dist(pts[#pts]), "radius " .. radius .. ": distance to the end after 20 s"):le(0.1)
    end
  end)

  it("stays within the radius on a sine polyline, joining from off the path", function()
    local pts = {}
    for i = 0, 40 do pts[#pts + 1] = { i, 3 * math.sin(i / 4) } end
    local worst, _, a = follow({ path = pts, radius = 1 }, 25, { start = { 0, -4 } })
    expect(worst, "largest distance from the path after entering it"):le(1.02)
    expect(a.position:dist(pts[#pts]), "distance to the end after 25 s"):le(0.1)
  end)

  it("stays within the radius in 3D (a helix)", function()
    local pts = {}
    for i = 0, 40 do
      local t = i / 6
      pts[#pts + 1] = { 8 * math.cos(t), 8 * math.sin(t), 0.3 * i }
    end
    local worst, events, a = follow({ path = pts, radius = 1 }, 25, { dim = 3 })
    expect(worst, "largest distance from the helix"):le(1.02)
    expect(a.position:dist(pts[#pts]), "distance to the end"):le(0.1)
    expect(events, "arrive events"):eq(1)
  end)

  it("ends an open path at rest on its last point, with one arrive event", function()
    local pts = { { 0, 0 }, { 10, 0 }, { 10, 10 } }
    local arrived_at
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 3, max_force = 6,
                       brain = steer.follow_path{ path = pts, radius = 0.5, stop_radius = 0.1 } }
    local events = 0
    w:on("arrive", function(agent)
      events = events + 1
      expect(agent == a, "event agent"):truthy()
      arrived_at = arrived_at or w.time
    end)
    w:step(20 * 60)
    expect(events, "arrive events in 20 s"):eq(1)
    expect(a.position:dist(pts[3]), "final distance to the last point"):le(0.1)
    expect(a.speed, "final speed"):lt(1e-3)
    -- 20 m at 3 m/s plus the braking: not dawdling
    expect(arrived_at, "time of arrival (s)"):le(10)
  end)

  it("keeps going round a looping path, without arrive events", function()
    local worst, events, a, w = follow({ path = SQUARE, radius = 1, loop = true }, 5)
    -- count laps: the angle swept around the square's centre
    local swept, last = 0, nil
    for _ = 1, 40 * 60 do
      w:step()
      local x, y = a:xy()
      local ang = atan2(y - 5, x - 5)
      if last then
        local d = ang - last
        if d > math.pi then d = d - 2 * math.pi elseif d < -math.pi then d = d + 2 * math.pi end
        swept = swept + d
      end
      last = ang
    end
    -- 40 m a lap at about 3 m/s: 40 s are 2.5+ laps, counterclockwise
    expect(swept / (2 * math.pi), "laps in 40 s"):ge(2.5)
    expect(a.speed, "speed after 45 s"):gt(2)
    expect(events, "arrive events"):eq(0)
    expect(worst, "largest distance from the square in the first 5 s"):le(1.3)
  end)

  it("follows a figure eight in order: the lobes alternate", function()
    -- x = A cos t, y = A sin t cos t crosses itself at the origin; an agent
    -- that jumped to the other branch there would go round one lobe again
    local A, pts = 10, {}
    for i = 0, 39 do
      local t = 2 * math.pi * i / 40
      pts[#pts + 1] = { A * math.cos(t), A * math.sin(t) * math.cos(t) }
    end
    local _, _, a, w = follow({ path = pts, radius = 1, loop = true }, 0)
    local lobes, last = {}, nil
    for _ = 1, 80 * 60 do
      w:step()
      local x = a:xy()
      local side = x > A / 2 and "R" or x < -A / 2 and "L" or nil
      if side and side ~= last then
        lobes[#lobes + 1] = side
        last = side
      end
    end
    -- a lap is about 61 m: 80 s at 3 m/s are 3.5+ laps, 7+ lobes
    local seq = table.concat(lobes)
    expect(#seq, "lobes visited in 80 s"):ge(7)
    expect(seq:find("RR", 1, true) or seq:find("LL", 1, true), "a lobe repeated in " .. seq):falsy()
    expect(seq:sub(1, 1), "first lobe"):eq("R")
  end)

  it("retraces a path that doubles back on itself (the cursor never jumps back)", function()
    -- out and back along the same line: every point of the way back is
    -- also on the way out, where a nearest-point search would send it
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 3, max_force = 6,
                       brain = steer.follow_path{ path = { { 0, 0 }, { 10, 0 }, { 0, 0 } }, radius = 0.5 } }
    local events, far = 0, -math.huge
    w:on("arrive", function() events = events + 1 end)
    for _ = 1, 20 * 60 do
      w:step()
      far = math.max(far, (a:xy()))
    end
    expect(far, "furthest x reached"):ge(9.5)
    expect(a.position:dist({ 0, 0 }), "final distance to the end (the start point)"):le(0.1)
    expect(events, "arrive events"):eq(1)
    -- a loop of two points shuttles between them
    local w2 = steer.world{ seed = 1 }
    local b = w2:spawn{ position = { 0, 0 }, max_speed = 3, max_force = 6,
                        brain = steer.follow_path{ path = { { 0, 0 }, { 10, 0 } }, loop = true, radius = 0.5 } }
    local turns, side = 0, "left"
    for _ = 1, 40 * 60 do
      w2:step()
      local x = b:xy()
      if side == "left" and x > 9 then side, turns = "right", turns + 1 end
      if side == "right" and x < 1 then side, turns = "left", turns + 1 end
    end
    expect(turns, "ends of the shuttle reached in 40 s"):ge(6)
  end)

  it("follows a path across the seam of a wrapping world", function()
    local w = steer.world{ seed = 1, size = { 40, 40 }, wrap = true }
    local pts = { { 30, 20 }, { 36, 20 }, { 4, 20 }, { 8, 20 } } -- 18 m eastward, through x = 40 = 0
    local a = w:spawn{ position = pts[1], max_speed = 3, max_force = 6,
                       brain = steer.follow_path{ path = pts, radius = 0.5 } }
    local events, middle = 0, 0
    w:on("arrive", function() events = events + 1 end)
    for _ = 1, 15 * 60 do
      w:step()
      local x = a:xy()
      if x > 10 and x < 29 then middle = middle + 1 end
    end
    expect(middle, "ticks spent going the long way (10 < x < 29)"):eq(0)
    expect(a.position:dist(pts[4]), "final distance to the end"):le(0.1)
    expect(events, "arrive events"):eq(1)
  end)

  it("joins at the nearest point with join = \"nearest\", at the start by default", function()
    -- a U: up, across, down; the agent starts just below the end
    local pts = { { 0, 0 }, { 0, 20 }, { 10, 20 }, { 10, 0 } }
    local function run(join)
      local w = steer.world{ seed = 1 }
      local a = w:spawn{ position = { 10, -2 }, max_speed = 3, max_force = 6,
                         brain = steer.follow_path{ path = pts, radius = 0.5, join = join } }
      local top, arrived = -math.huge, nil
      w:on("arrive", function() arrived = arrived or w.time end)
      for _ = 1, 30 * 60 do
        w:step()
        local _, y = a:xy()
        top = math.max(top, y)
      end
      return top, arrived, a
    end
    local top, arrived, a = run("nearest")
    expect(top, "nearest: highest y (never went round the U)"):lt(1)
    expect(arrived, "nearest: time of arrival (s)"):le(6)
    expect(a.position:dist(pts[4]), "nearest: final distance to the end"):le(0.1)
    top, arrived, a = run(nil)
    expect(top, "start: highest y (went round the U)"):gt(19)
    expect(arrived, "start: time of arrival (s)"):gt(15)
    expect(a.position:dist(pts[4]), "start: final distance to the end"):le(0.1)
  end)

  it("serves many agents from one brain, each with its own cursor", function()
    local pts = semicircle(10, 25)
    local brain = steer.follow_path{ path = pts, radius = 1 }
    local w = steer.world{ seed = 1 }
    local agents = {}
    for i = 1, 5 do
      agents[i] = w:spawn{ position = pts[1], max_speed = 1 + i * 0.5, max_force = 6, brain = brain }
    end
    w:step(30 * 60)
    for i, a in ipairs(agents) do
      expect(a.position:dist(pts[#pts]), "agent " .. i .. ": distance to the end"):le(0.1)
    end
  end)

  it("gives finite forces on degenerate paths (repeated points)", function()
    local cases = {
      { { 0, 0 }, { 0, 0 } },
      { { 3, 3 }, { 3, 3 }, { 3, 3 } },
      { { 0, 0 }, { 0, 0 }, { 5, 0 }, { 5, 0 }, { 5, 0 }, { 10, 0 } },
    }
    for ci, pts in ipairs(cases) do
      for _, loop in ipairs{ false, true } do
        local w = steer.world{ seed = 1 }
        local a = w:spawn{ position = { 1, 2 }, max_speed = 3, max_force = 6,
                           brain = steer.follow_path{ path = pts, loop = loop } }
        local label = "case " .. ci .. (loop and " (loop)" or " (open)")
        for _ = 1, 10 * 60 do
          w:step()
          local fx, fy = a:force():len(), a.speed
          if not (fx == fx and fy == fy) then spec.fail(label .. ": NaN at tick " .. w.tick) end
        end
        local x, y = a:xy()
        expect(x, label .. ": x"):finite()
        expect(y, label .. ": y"):finite()
        if ci < 3 or not loop then
          -- a path without length, or an open path's end: the agent comes to rest there
          expect(a.position:dist(pts[#pts]), label .. ": distance to the last point"):le(0.1)
        end
      end
    end
  end)
end)

-- ---- bad input -------------------------------------------------------------

describe("path and patrol arguments", function()
  it("refuse fewer than 2 points, naming the field", function()
    expect(function() steer.follow_path{ path = { { 0, 0 } } } end):raises("steer.follow_path", "path", "2 points")
    expect(function() steer.follow_path{ path = {} } end):raises("steer.follow_path", "path")
    expect(function() steer.follow_path{ radius = 1 } end):raises("steer.follow_path", "path", "2 points")
    expect(function() steer.patrol{ points = { { 0, 0 } } } end):raises("steer.patrol", "points", "2 points")
    expect(function() steer.patrol{ pause = 1 } end):raises("steer.patrol", "points")
  end)

  it("refuse non-finite or malformed points, naming the field and the point", function()
    expect(function() steer.follow_path{ path = { { 0, 0 }, { 0 / 0, 1 } } } end)
      :raises("steer.follow_path", "path", "point 2")
    expect(function() steer.follow_path{ path = { { 0, 0 }, { 1, math.huge } } } end)
      :raises("steer.follow_path", "path", "point 2")
    expect(function() steer.patrol{ points = { { 0, 0 }, "x" } } end):raises("steer.patrol", "points", "point 2")
    expect(function() steer.follow_path{ path = "abc" } end):raises("steer.follow_path", "path")
  end)

  it("refuse bad numbers and choices, naming the field", function()
    expect(function() steer.follow_path{ path = SQUARE, radius = -1 } end):raises("steer.follow_path", "radius")
    expect(function() steer.follow_path{ path = SQUARE, predict = -0.5 } end):raises("steer.follow_path", "predict")
    expect(function() steer.follow_path{ path = SQUARE, ahead = 0 / 0 } end):raises("steer.follow_path", "ahead")
    expect(function() steer.follow_path{ path = SQUARE, loop = 1 } end):raises("steer.follow_path", "loop")
    expect(function() steer.follow_path{ path = SQUARE, join = "middle" } end):raises("steer.follow_path", "join")
    expect(function() steer.follow_path{ path = SQUARE, slow_radius = 1, stop_radius = 2 } end)
      :raises("steer.follow_path", "stop_radius", "slow_radius")
    expect(function() steer.patrol{ points = SQUARE, pause = -1 } end):raises("steer.patrol", "pause")
    expect(function() steer.patrol{ points = SQUARE, mode = "circle" } end):raises("steer.patrol", "mode")
    expect(function() steer.patrol{ points = SQUARE, slow_radius = 3, stop_radius = 5 } end)
      :raises("steer.patrol", "stop_radius", "slow_radius")
    expect(function() steer.patrol{ points = SQUARE, slow_radius = -1 } end):raises("steer.patrol", "slow_radius")
    expect(function() steer.patrol{ points = SQUARE, typo = 1 } end):raises("steer.patrol", "typo")
  end)

  it("accept radius 0 and pause 0", function()
    expect(function() steer.follow_path{ path = SQUARE, radius = 0 } end):succeeds()
    expect(function() steer.patrol{ points = SQUARE, pause = 0 } end):succeeds()
  end)
end)
