-- SPDX-License-Identifier: MIT
-- directed_seek_spec.lua — steer.directed_seek (Jakob) as a user sees it:
-- a turn-limited craft arrives at W travelling along d_W, by a path close
-- to the shortest Dubins CSC path; the stages the plan reports; 3D; blended
-- with obstacle avoidance; point-mass agents; bad input.
--
-- The crafts here fly at 10 m/s with a 5 m turn radius (2 rad/s) and
-- max_force 50 N, more than the 20 N a 5 m turn at 10 m/s needs, so the
-- radius is the only turn limit.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect
local random = require "steer.random"
local atan2 = math.atan2 or math.atan -- atan(y, x): Lua 5.1 and LuaJIT's math.atan takes one argument

local R, SPEED = 5, 10
local TAU = 2 * math.pi

local function mod2pi(a) return a - TAU * math.floor(a / TAU) end

-- The shortest CSC path (LSL, RSR, LSR, RSL) from pose (x0, y0, th0) to
-- (x1, y1, th1) with radius r, by the textbook construction: independent
-- of the engine, which plans in a rotated frame with its own code.
local function dubins_csc(x0, y0, th0, x1, y1, th1, r)
  local function left(x, y, th) return x - r * math.sin(th), y + r * math.cos(th) end
  local function right(x, y, th) return x + r * math.sin(th), y - r * math.cos(th) end
  local best = math.huge
  -- LSL and RSR: the straight part joins the centres
  for _, turn in ipairs{ 1, -1 } do
    local c = turn == 1 and left or right
    local ax, ay = c(x0, y0, th0)
    local bx, by = c(x1, y1, th1)
    local dx, dy = bx - ax, by - ay
    local phi = atan2(dy, dx)
    local arcs = turn == 1 and mod2pi(phi - th0) + mod2pi(th1 - phi) or mod2pi(th0 - phi) + mod2pi(phi - th1)
    best = math.min(best, r * arcs + math.sqrt(dx * dx + dy * dy))
  end
  -- LSR and RSL: the straight part crosses between the circles
  for _, turn in ipairs{ 1, -1 } do
    local ax, ay, bx, by
    if turn == 1 then
      ax, ay = left(x0, y0, th0); bx, by = right(x1, y1, th1)
    else
      ax, ay = right(x0, y0, th0); bx, by = left(x1, y1, th1)
    end
    local dx, dy = bx - ax, by - ay
    local d2 = dx * dx + dy * dy
    if d2 > 4 * r * r then
      local s = math.sqrt(d2 - 4 * r * r)
      local phi = atan2(dy, dx) + turn * atan2(2 * r, s)
      local arcs = turn == 1 and mod2pi(phi - th0) + mod2pi(phi - th1) or mod2pi(th0 - phi) + mod2pi(th1 - phi)
      best = math.min(best, r * arcs + s)
    end
  end
  return best
end

-- A random stream of its own (steer.random's, which the engine's agents
-- never draw from), so the random starts never change with the engine.
local function stream(seed)
  local r = random.new(seed)
  return function() return random.float(r) end
end

local function angle_between(ax, ay, az, bx, by, bz)
  local la = math.sqrt(ax * ax + ay * ay + az * az)
  local lb = math.sqrt(bx * bx + by * by + bz * bz)
  local c = (ax * bx + ay * by + az * bz) / (la * lb)
  return math.acos(math.max(-1, math.min(1, c)))
end

-- Fly every agent until it has come within `near` of W and moved away
-- again (or `ticks` run out). Per agent: the closest approach, the heading
-- error there, and the length flown to it.
local function fly(w, agents, W, dW, ticks, near)
  local dim = w.dim
  local rec = {}
  for i, a in ipairs(agents) do
    local x, y, z = a:xy()
    rec[i] = { best = math.huge, flown = 0, at_flown = 0, err = math.pi, x = x, y = y, z = z or 0, done = false }
  end
  for _ = 1, ticks do
    w:step()
    local open = false
    for i, a in ipairs(agents) do
      local r = rec[i]
      if not r.done then
        local x, y, z = a:xy()
        z = z or 0
        r.flown = r.flown + math.sqrt((x - r.x) ^ 2 + (y - r.y) ^ 2 + (z - r.z) ^ 2)
        r.x, r.y, r.z = x, y, z
        local d = math.sqrt((x - W[1]) ^ 2 + (y - W[2]) ^ 2 + (z - (W[3] or 0)) ^ 2)
        if d < r.best then
          r.best, r.at_flown = d, r.flown
          local vx, vy, vz = a:vxy()
          r.err = angle_between(vx, vy, dim == 3 and vz or 0, dW[1], dW[2], dW[3] or 0)
        elseif r.best < near and d > r.best + 1 then
          r.done = true
        end
        open = open or not r.done
      end
    end
    if not open then break end
  end
  return rec
end

local function craft(w, fields)
  fields.model, fields.min_turn_radius = "craft", fields.min_turn_radius or R
  fields.max_speed, fields.max_force = fields.max_speed or SPEED, fields.max_force or 50
  return w:spawn(fields)
end

describe("directed_seek in 2D", function()
  it("brings 500 random starts (4 to 40 radii away) to W along d_W, close to the shortest Dubins path", function()
    local w = steer.world{ seed = 3 }
    local rnd = stream(20261123)
    local W, dW = { 0, 0 }, { 1, 0 }
    local brain = steer.directed_seek{ target = W, heading = dW }
    local agents, starts = {}, {}
    for i = 1, 500 do
      local dist = R * (4 + 36 * rnd())
      local bearing, th = TAU * rnd(), TAU * rnd()
      local x, y = dist * math.cos(bearing), dist * math.sin(bearing)
      starts[i] = { x, y, th }
      agents[i] = craft(w, { position = { x, y }, velocity = { SPEED * math.cos(th), SPEED * math.sin(th) },
        min_speed = SPEED, brain = brain })
    end
    local rec = fly(w, agents, W, dW, 60 * 60, 0.5)
    local good, short, worst_ratio = 0, 0, 0
    local ratios = {}
    for i, r in ipairs(rec) do
      local s = starts[i]
      local best = dubins_csc(s[1], s[2], s[3], 0, 0, 0, R)
      local ratio = r.at_flown / best
      ratios[#ratios + 1] = ratio
      if r.best < 0.5 and math.deg(r.err) < 5 then
        good = good + 1
        if ratio <= 1.10 then short = short + 1 end
        worst_ratio = math.max(worst_ratio, ratio)
      end
    end
    table.sort(ratios)
    print(string.format("# 2D: %d/500 arrive within 0.5 m and 5 deg; %d of those within 10%% of Dubins CSC; "
      .. "median flown/Dubins %.4f, worst %.4f", good, short, ratios[250], worst_ratio))
    expect(good, "arrivals within 0.5 m and 5 degrees"):ge(475)
    expect(short, "arrivals within 10% of the shortest CSC length"):ge(475)
  end)

  it("reports stage II on the tangent line and stage III at W along d_W", function()
    -- W at the origin heading +x, r = 5: k_W is centred at (0, 5). An agent at
    -- (-5, 25) heading -y has k_A+ centred at (0, 25): the direct tangent
    -- is the line x = -5 it flies along.
    local plan = steer.directed_seek_plan{ position = { -5, 25 }, direction = { 0, -1 }, target = { 0, 0 },
      heading = { 1, 0 }, min_turn_radius = 5, speed = SPEED }
    expect(plan.stage, "stage on the tangent line"):eq(2)
    expect(plan.path, "path"):eq("direct")
    expect(plan.to:dist(steer.vec(-5, 5)), "tangent point on k_W"):lt(1e-4)
    expect(plan.waypoint_circle.center:dist(steer.vec(0, 5)), "k_W centre"):lt(1e-4)
    expect(math.abs(plan.total_angle - math.pi / 2), "total angle: the quarter turn at the end"):lt(1e-4)
    -- anywhere on that segment, too
    plan = steer.directed_seek_plan{ position = { -5, 12 }, direction = { 0, -1 }, target = { 0, 0 },
      heading = { 1, 0 }, min_turn_radius = 5, speed = SPEED }
    expect(plan.stage, "stage further down the tangent"):eq(2)
    -- at W along d_W
    plan = steer.directed_seek_plan{ position = { 0, 0 }, direction = { 1, 0 }, target = { 0, 0 },
      heading = { 1, 0 }, min_turn_radius = 5, speed = SPEED }
    expect(plan.stage, "stage at W"):eq(3)
    expect(plan.aim:dist(steer.vec(1, 0)), "aim at W"):lt(1e-6)
    -- on k_W a quarter turn before W: stage III, turning left toward d_W
    plan = steer.directed_seek_plan{ position = { -5, 5 }, direction = { 0, -1 }, target = { 0, 0 },
      heading = { 1, 0 }, min_turn_radius = 5, speed = SPEED }
    expect(plan.stage, "stage on k_W"):eq(3)
    -- turned away from the tangent: stage I, turning toward it
    plan = steer.directed_seek_plan{ position = { -5, 25 }, direction = { 1, 0 }, target = { 0, 0 },
      heading = { 1, 0 }, min_turn_radius = 5, speed = SPEED }
    expect(plan.stage, "stage heading across the tangent"):eq(1)
    -- every tangent a plan reports touches both circles with the right turn
    for _, pose in ipairs{ { { 30, -40 }, { 0, 1 } }, { { -60, 10 }, { -1, 0.3 } }, { { 12, 3 }, { 1, 1 } } } do
      local p = steer.directed_seek_plan{ position = pose[1], direction = pose[2], target = { 0, 0 },
        heading = { 1, 0 }, min_turn_radius = 5 }
      local t = (p.to - p.from):normalized()
      for _, c in ipairs{ { p.agent_circle, p.from }, { p.waypoint_circle, p.to } } do
        local centre, touch = c[1].center, c[2]
        expect(math.abs(centre:dist(touch) - 5), "tangent point on its circle"):lt(1e-3)
        -- the centre lies to the left of the travel direction for a +1 (counter-clockwise) turn
        local side = t.x * (centre.y - touch.y) - t.y * (centre.x - touch.x)
        expect(side * c[1].turn * p.normal.z, "circle on the side of its turn"):gt(0)
      end
    end
  end)

  it("finishes along d_W with the plan's stages in order I, II, III", function()
    local w = steer.world{ seed = 1 }
    local ds = steer.directed_seek{ target = { 0, 0 }, heading = { 0, 1 } }
    local a = craft(w, { position = { 60, 20 }, velocity = { 0, -SPEED }, min_speed = SPEED, brain = ds })
    local seen, last, best, err = {}, 0, math.huge, nil
    for _ = 1, 600 do
      local p = steer.directed_seek_plan(a, ds)
      w:step()
      local d = a.position:len()
      if d > best then break end
      best, err = d, math.deg(math.acos(math.min(1, a.heading:dot(steer.vec(0, 1)))))
      if p.stage ~= last then seen[#seen + 1] = p.stage; last = p.stage end
    end
    expect(table.concat(seen, ","), "stage sequence"):eq("1,2,3")
    expect(best, "closest approach to W"):lt(0.3)
    expect(err, "heading error there, degrees"):lt(3)
  end)

  it("takes the opposite waypoint circle when that turns less", function()
    -- just above the line through W along d_W, diving across it: the waypoint
    -- circle on the agent's side needs almost a full loop; k'_W below the
    -- line is a short S-bend
    local args = { position = { -20, 1 }, direction = { 1, -1 }, target = { 0, 0 }, heading = { 1, 0 },
      min_turn_radius = 5 }
    local with = steer.directed_seek_plan(args)
    args.opposite = false
    local without = steer.directed_seek_plan(args)
    expect(with.opposite, "uses k'_W"):eq(true)
    expect(without.opposite, "without the extension"):eq(false)
    expect(with.total_angle, "total angle with k'_W"):lt(1)
    expect(without.total_angle, "total angle without"):gt(5)
  end)
end)

describe("directed_seek in 3D", function()
  it("brings 200 random 3D starts to W within 1 m and 8 degrees of d_W", function()
    local w = steer.world{ dim = 3, seed = 4 }
    local rnd = stream(777)
    local W, dW = { 0, 0, 0 }, { 0.6, 0, 0.8 }
    local brain = steer.directed_seek{ target = W, heading = dW }
    local agents = {}
    local function unit()
      local z, phi = 2 * rnd() - 1, TAU * rnd()
      local s = math.sqrt(1 - z * z)
      return s * math.cos(phi), s * math.sin(phi), z
    end
    for i = 1, 200 do
      local dist = R * (4 + 36 * rnd())
      local x, y, z = unit()
      local hx, hy, hz = unit()
      agents[i] = craft(w, { position = { dist * x, dist * y, dist * z },
        velocity = { SPEED * hx, SPEED * hy, SPEED * hz }, min_speed = SPEED, brain = brain })
    end
    local rec = fly(w, agents, W, dW, 60 * 60, 1)
    local good = 0
    for _, r in ipairs(rec) do
      if r.best < 1 and math.deg(r.err) < 8 then good = good + 1 end
    end
    print(string.format("# 3D: %d/200 arrive within 1 m and 8 deg", good))
    expect(good, "3D arrivals within 1 m and 8 degrees"):ge(180)
  end)

  it("banks into its turns: up rolls toward the turn and stays perpendicular to the heading", function()
    local w = steer.world{ dim = 3, seed = 1 }
    local ds = steer.directed_seek{ target = { 0, -80, 0 }, heading = { -1, 0, 0 } }
    local a = craft(w, { position = { 0, 0, 0 }, velocity = { SPEED, 0, 0 }, min_speed = SPEED, brain = ds })
    w:step(20)
    local side = a.heading:cross(a.up)    -- the right wing
    -- turning right (toward -y): the right wing dips, up leans toward the turn
    expect(a.up.z, "up.z while turning"):lt(0.95)
    expect(a.up:dot(a.heading), "up stays perpendicular to heading"):lt(1e-4)
    expect(side.z, "right wing low"):lt(-0.2)
  end)
end)

describe("directed_seek with other behaviours and vehicles", function()
  it("still arrives with obstacle avoidance blended in and an obstacle on the straight segment", function()
    local w = steer.world{ seed = 2 }
    local W, dW = { 0, 0 }, { 1, 0 }
    -- from (-80, 0) heading +x the path is one straight line: block its middle
    w:add_obstacle{ position = { -40, 0 }, radius = 4 }
    local brain = steer.blend{
      { steer.avoid_obstacles{ lookahead = 1.5 }, 3 },
      { steer.directed_seek{ target = W, heading = dW }, 1 },
    }
    local a = craft(w, { position = { -80, 0.5 }, velocity = { SPEED, 0 }, min_speed = SPEED, radius = 1,
      max_force = 60, brain = brain })
    local rec = fly(w, { a }, W, dW, 60 * 60, 1)[1]
    local hit = false
    -- a second run to watch the clearance
    local w2 = steer.world{ seed = 2 }
    w2:add_obstacle{ position = { -40, 0 }, radius = 4 }
    local b = craft(w2, { position = { -80, 0.5 }, velocity = { SPEED, 0 }, min_speed = SPEED, radius = 1,
      max_force = 60, brain = brain })
    for _ = 1, 600 do
      w2:step()
      if b.position:dist(steer.vec(-40, 0)) < 5 then hit = true end
    end
    expect(hit, "touched the obstacle"):eq(false)
    expect(rec.best, "closest approach to W"):lt(1)
    expect(math.deg(rec.err), "heading error at W, degrees"):lt(8)
  end)

  it("steers a point-mass agent by its own min_turn_radius parameter", function()
    local w = steer.world{ seed = 1 }
    local W, dW = { 0, 0 }, { 0, -1 }
    local ds = steer.directed_seek{ target = W, heading = dW, min_turn_radius = 8 }
    local a = w:spawn{ position = { -50, -30 }, velocity = { 0, 6 }, max_speed = 6, max_force = 30, brain = ds }
    expect(a.model, "model"):eq("point")
    local rec = fly(w, { a }, W, dW, 60 * 60, 0.5)[1]
    expect(rec.best, "closest approach"):lt(0.5)
    expect(math.deg(rec.err), "heading error, degrees"):lt(5)
    local best = dubins_csc(-50, -30, math.pi / 2, 0, 0, -math.pi / 2, 8)
    expect(rec.at_flown / best, "flown / Dubins CSC (radius 8)"):lt(1.1)
    -- and a point mass that carries a turn radius of its own
    local b = w:spawn{ position = { 50, 30 }, velocity = { 6, 0 }, max_speed = 6, max_force = 30, min_turn_radius = 8,
      brain = steer.directed_seek{ target = W, heading = dW } }
    expect(b.turn_radius, "b.turn_radius"):eq(8)
    rec = fly(w, { b }, W, dW, 60 * 60, 0.5)[1]
    expect(rec.best, "closest approach of the agent with its own radius"):lt(0.5)
  end)

  it("plans with max(r(v_A), r(v_W)) for a speed-dependent radius", function()
    local w = steer.world{ seed = 1 }
    -- radius v^2 / 10: 2.5 m at 5 m/s, 10 m at 10 m/s
    local ds = steer.directed_seek{ target = { 0, 0 }, heading = { 1, 0 }, speed = 10 }
    local a = craft(w, { position = { -60, 30 }, velocity = { 5, 0 }, min_turn_radius = 1, max_turn_accel = 10,
      max_speed = 10, brain = ds })
    expect(a.turn_radius, "radius at 5 m/s"):eq(2.5)
    expect(steer.directed_seek_plan(a, ds).radius, "plan radius (at the wanted 10 m/s)"):eq(10)
    local rec = fly(w, { a }, { 0, 0 }, { 1, 0 }, 60 * 60, 0.5)[1]
    expect(rec.best, "closest approach"):lt(0.5)
    expect(math.deg(rec.err), "heading error, degrees"):lt(5)
  end)

  it("uses the target agent's direction of travel when no heading is given", function()
    local w = steer.world{ seed = 1 }
    local lead = w:spawn{ position = { 0, 0 }, velocity = { 0, 3 }, max_speed = 3 }
    local ds = steer.directed_seek{ target = lead }
    local a = craft(w, { position = { -30, -30 }, velocity = { 8, 0 }, max_speed = 8, min_speed = 4, brain = ds })
    local p = steer.directed_seek_plan(a, ds)
    expect(p.axis_x:dist(steer.vec(0, 1)), "plan heading = the leader's"):lt(1e-6)
  end)

  it("settles `behind` metres on a straight-flying leader's tail", function()
    local w = steer.world{ seed = 1 }
    local lead = w:spawn{ position = { 0, 0 }, velocity = { 0, 3 }, max_speed = 3 }
    local a = craft(w, { position = { 40, -30 }, velocity = { 0, 8 }, max_speed = 8, min_speed = 3,
      brain = steer.directed_seek{ target = lead, behind = 10 } })
    w:step(60 * 40)
    local back = lead.position - a.position
    expect(math.abs(back.y - 10), "distance behind the leader"):lt(1)
    expect(math.abs(back.x), "off the leader's track"):lt(0.5)
    expect(a.heading:dot(steer.vec(0, 1)), "cos of heading error"):gt(math.cos(math.rad(3)))
  end)
end)

describe("directed_seek input", function()
  it("raises clear errors for bad arguments", function()
    expect(function() steer.directed_seek{ target = { 1, 2 } } end):raises("steer.directed_seek: field 'heading'")
    expect(function() steer.directed_seek{ target = { 1, 2 }, heading = "north" } end)
      :raises("steer.directed_seek: field 'heading' expected a vector")
    expect(function() steer.directed_seek{ target = { 1, 2 }, heading = { 1, 0 }, min_turn_radius = -1 } end)
      :raises("field 'min_turn_radius' expected 0 or a number of metres >= 1e-6 and <= 1e30")
    expect(function() steer.directed_seek{ heading = { 1, 0 }, opposite = 1 } end)
      :raises("field 'opposite' expected a boolean")
    expect(function() return steer.directed_seek_plan{ position = { 0, 0 }, direction = { 0, 0 }, target = { 1, 1 },
      heading = { 1, 0 }, min_turn_radius = 2 } end):raises("steer.directed_seek_plan: field 'direction' expected a non-zero vector")
    expect(function() return steer.directed_seek_plan{ position = { 0, 0 }, direction = { 1, 0 }, target = { 1, 1 },
      heading = { 1, 0 } } end):raises("field 'min_turn_radius' expected a number of metres >= 1e-6")
    local w = steer.world{}
    local a = w:spawn{}
    expect(function() steer.directed_seek_plan(a, steer.seek{ target = { 1, 1 } }) end)
      :raises("argument 2 expected a steer.directed_seek behaviour")
  end)

  it("gives a finite force, never NaN, on degenerate poses", function()
    local w = steer.world{ dim = 3 }
    local ds = steer.directed_seek{ target = { 0, 0, 0 }, heading = { 0, 0, 1 } }
    -- on W, on the line through W along d_W (ahead and behind), heading across the plane
    local poses = { { { 0, 0, 0 }, { 0, 0, 1 } }, { { 0, 0, 10 }, { 0, 0, 1 } }, { { 0, 0, -10 }, { 0, 0, 1 } },
      { { 0, 0, -10 }, { 0, 0, -1 } }, { { 5, 0, 0 }, { 0, 1, 0 } } }
    for i, pose in ipairs(poses) do
      local a = craft(w, { position = pose[1], velocity = steer.vec(pose[2][1], pose[2][2], pose[2][3]) * SPEED,
        min_speed = SPEED, brain = ds })
      w:step(3)
      local f = a:force()
      expect(f.x == f.x and f.y == f.y and f.z == f.z, "finite force for pose " .. i):truthy()
      expect(a.position.x == a.position.x, "finite position for pose " .. i):truthy()
    end
  end)
end)

-- Poses across the whole range of a float: coordinates up to 3.4e38 with
-- radii from 1e-6 to 1e30 (issue 29: A and W at opposite ends of the range
-- are over 3.4e38 apart, and the plan's squares overflowed into NaN).
describe("directed_seek far away", function()
  local FLT = 3.4e38
  local function finite(v) return v.x == v.x and v.y == v.y and v.z == v.z and math.abs(v.x) <= 1e300 and
    math.abs(v.y) <= 1e300 and math.abs(v.z) <= 1e300 end
  local function pose(rnd)
    local dim3 = rnd() < 0.5
    local function coord(e) return math.max(-FLT, math.min(FLT, (2 * rnd() - 1) * 10 ^ e)) end
    local function vec(e) return { coord(e), coord(e), dim3 and coord(e) or 0 } end
    local ea, ew = rnd() * 47 - 8, rnd() < 0.5 and rnd() * 47 - 8 or nil
    return {
      position = vec(ea), target = vec(ew or ea), direction = vec(0), heading = vec(0),
      min_turn_radius = 10 ^ (rnd() * 36 - 6), opposite = rnd() < 0.5,
      speed = rnd() < 0.5 and rnd() * 20 or 10 ^ (rnd() * 36 - 6), dt = rnd() < 0.5 and 1 / 60 or rnd(),
    }
  end

  it("plans a finite path with a unit aim for 50,000 random poses", function()
    local rnd = stream(29015)
    local bad, planned = {}, 0
    for _ = 1, 50000 do
      local t = pose(rnd)
      local ok, p = pcall(steer.directed_seek_plan, t)
      if ok then
        planned = planned + 1
        local c = p.circles
        local good = finite(p.aim) and math.abs(p.aim:len() - 1) < 1e-3 and finite(p["from"]) and finite(p.to) and
          finite(p.agent_circle.center) and finite(p.waypoint_circle.center) and finite(c.agent_left) and
          finite(c.agent_right) and finite(c.waypoint) and finite(c.opposite) and p.total_angle == p.total_angle
        if not good and #bad < 3 then
          bad[#bad + 1] = ("position {%.17g, %.17g, %.17g} target {%.17g, %.17g, %.17g} r %.17g: aim %s from %s")
            :format(t.position[1], t.position[2], t.position[3], t.target[1], t.target[2], t.target[3],
              t.min_turn_radius, tostring(p.aim), tostring(p["from"]))
        end
      end
    end
    expect(planned, "poses planned (the rest have a zero direction or heading)"):gt(49000)
    expect(table.concat(bad, "\n"), "plans with NaN, infinite or zero parts"):eq("")
  end)

  it("plans a pose 2^90 times as large as the same pose near the origin", function()
    local rnd = stream(29115)
    local k, same = 2 ^ 90, 0
    for _ = 1, 1000 do
      local function v() return { (2 * rnd() - 1) * 50, (2 * rnd() - 1) * 50, 0 } end
      local near = { position = v(), target = v(), direction = v(), heading = v(), min_turn_radius = 1 + rnd() * 9 }
      local far = { direction = near.direction, heading = near.heading, min_turn_radius = near.min_turn_radius * k,
        position = { near.position[1] * k, near.position[2] * k, 0 },
        target = { near.target[1] * k, near.target[2] * k, 0 } }
      local p, q = steer.directed_seek_plan(near), steer.directed_seek_plan(far)
      if p.stage == q.stage and p.path == q.path and p.aim:dist(q.aim) < 1e-5 and
        p.to:dist(q.to * (1 / k)) < 1e-4 then
        same = same + 1
      end
    end
    -- (the tolerances have an absolute part, 1 mm: a pose at a stage's edge may differ)
    expect(same, "poses planned alike"):ge(995)
  end)

  it("steers an agent whose waypoint is more than 3.4e38 m away", function()
    local w = steer.world{}
    local ds = steer.directed_seek{ target = { -1.5e38, 2.0e38 }, heading = { 1, 0 } }
    local a = w:spawn{ position = { 1.7e38, -6.9e37 }, velocity = { 0, -5 }, max_speed = 10, max_force = 50,
      min_turn_radius = 5, brain = ds }
    local p = steer.directed_seek_plan(a, ds)
    expect(finite(p.aim) and finite(p.to), "a finite plan"):truthy()
    w:step()
    local f = a:force()
    expect(finite(f), "a finite force"):truthy()
    expect(f:len(), "the force that turns the agent"):gt(1)
    local v = a.velocity
    expect(math.abs(v.x), "the velocity turned by speed * dt / r (5 / 60 / 5 rad at 5 m/s)"):gt(0.05)
  end)
end)

describe("demos/directed_seek.lua", function()
  it("draws the circles, the chosen path and the stage, and its fliers arrive", function()
    local here = debug.getinfo(1, "S").source:match("^@(.*)/tests/lua/[^/]*$") or "."
    local demo = dofile(here .. "/demos/directed_seek.lua")
    local w = steer.world(demo.world)
    demo.setup(w)
    local quiet, arrivals_printed = print, 0
    _G.print = function() arrivals_printed = arrivals_printed + 1 end -- the demo prints its arrivals
    for _ = 1, 1200 do
      w:step()
      demo.update(w, w.dt)
    end
    local lines, circles, texts = 0, 0, {}
    local d = {
      line = function(_, x1, _, _, y2, c) lines = lines + 1; assert(x1 == x1 and y2 == y2 and #c == 3) end,
      circle = function(_, x, _, r, c) circles = circles + 1; assert(x == x and r > 0 and #c == 3) end,
      text = function(_, x, _, s, c) texts[#texts + 1] = s; assert(x == x and #c == 3) end,
    }
    demo.draw(d, w)
    _G.print = quiet
    expect(arrivals_printed, "arrivals printed"):ge(2)
    -- per flier: the waypoint, 4 plan circles and the path's 2
    expect(circles, "circles drawn"):eq(2 * 7)
    expect(lines, "lines drawn"):gt(10)
    local all = table.concat(texts, "\n")
    expect(all:find("[I]+  %a+") ~= nil, "a stage label in " .. all):truthy()
    local arrivals = tonumber(all:match("craft: (%d+) arrivals"))
    expect(arrivals, "craft arrivals in 20 s"):ge(1)
    demo.reload(w)
    w:step()
    demo.update(w, w.dt)
    demo.draw(d, w)
  end)
end)
