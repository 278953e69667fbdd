-- SPDX-License-Identifier: MIT
-- context_spec.lua — steer.context (context steering, Fray): the children
-- write interest and danger maps over a ring of directions, danger masks,
-- interest picks. Between a wall and a threat it keeps moving away along
-- the wall where a blend of the same children runs through the wall or
-- slows; it goes round an obstacle to its target; the chosen direction is
-- interpolated between slots; smoothing steadies the heading; snapshots,
-- threads and repeated runs give the same bits; bad input raises naming
-- steer.context and the argument, at the caller's line.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect
local atan2 = math.atan2 or math.atan -- atan(y, x): Lua 5.1 and LuaJIT's math.atan takes one argument

-- An agent 1 m above a long wall (y = 0), a threat 2 m above it, moving
-- toward the wall: fleeing pushes it into the wall, the wall pushes back.
local function wall_and_threat(make)
  local w = steer.world{ seed = 3 }
  w:add_wall{ from = { -30, 0 }, to = { 30, 0 } }
  local threat = { 0, 3 }
  local flee = steer.flee{ target = threat, panic_radius = 15 }
  local walls = steer.avoid_walls{ length = 2 }
  local a = w:spawn{ position = { 0, 1 }, velocity = { 0, -2 }, max_speed = 3, max_force = 6, radius = 0.5,
                     brain = make(flee, walls) }
  local speed, lowest, slowest = 0, math.huge, math.huge
  for t = 1, 120 do
    w:step()
    speed = speed + a.velocity:len() / 120
    lowest = math.min(lowest, a.position.y)
    if t > 30 then slowest = math.min(slowest, a.velocity:len()) end
  end
  return a.position:dist(threat) - 2, speed, lowest, slowest
end

describe("steer.context", function()
  it("moves away along the wall between a wall and a threat, where a blend runs through the wall", function()
    local gained, speed, lowest, slowest = wall_and_threat(function(flee, walls)
      return steer.context{ interest = { flee }, danger = { flee, walls } }
    end)
    expect(gained, "distance gained from the threat in 2 s"):gt(2.5)
    expect(speed, "mean speed (m/s)"):gt(2.2)
    expect(slowest, "slowest after the first 0.5 s"):gt(1.5)
    expect(lowest, "lowest y (the wall is y = 0, the radius 0.5; it starts at 2 m/s toward it)"):gt(0.25)
    -- the same children blended: the flee wins through the wall
    local _, bspeed, blowest = wall_and_threat(function(flee, walls) return steer.blend{ flee, walls } end)
    expect(blowest < 0 or bspeed < 2.0, "the blend crosses the wall or slows (lowest y " .. blowest .. ", speed "
      .. bspeed .. ")"):truthy()
  end)

  it("goes round a small obstacle to its target", function()
    local w = steer.world{ seed = 1 }
    w:add_obstacle{ position = { 5, 0 }, radius = 1 }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 3, max_force = 6, radius = 0.5,
                       brain = steer.context{ interest = { steer.arrive{ target = { 10, 0 } } },
                                              danger = { steer.avoid_obstacles{ lookahead = 1 } } } }
    local closest, arrived = math.huge, nil
    for t = 1, 600 do
      w:step()
      closest = math.min(closest, a.position:dist({ 5, 0 }))
      if not arrived and a.position:dist({ 10, 0 }) < 0.3 and a.velocity:len() < 0.3 then arrived = t end
    end
    expect(arrived, "arrived (within 0.3 m, slower than 0.3 m/s) within 10 s"):truthy()
    expect(closest, "closest to the obstacle's centre (radii 1 + 0.5)"):gt(1.5)
  end)

  it("takes every interest kind's wish: each steers its agent where the kind alone would", function()
    local function box(x0, y0, x1, y1) return { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } } end
    local nm = steer.navmesh{ outline = box(0, -10, 30, 10), obstacles = { box(14.5, -10, 15.5, 2) } }
    local g = steer.grid{ cell = 1, map = { "..........", "..........", "..........", ".........." } }
    local field = g:flow_field{ goal = { 9.5, 3.5 } }
    -- kind, the agent's start, the point it must end near (or, with far, be further than 8 m from)
    local cases = {
      { steer.seek{ target = { 10, 0 } }, { 0, 0 }, { 10, 0 } },
      { steer.arrive{ target = { 10, 0 } }, { 0, 0 }, { 10, 0 } },
      { steer.reciprocal{ steer.arrive{ target = { 10, 0 } } }, { 0, 0 }, { 10, 0 } },
      { steer.flee{ target = { 0, 0 } }, { 1, 0 }, { 0, 0 }, far = true },
      { steer.evade{ target = { 0, 0 } }, { 1, 0 }, { 0, 0 }, far = true },
      { steer.navigate{ navmesh = nm, target = { 25, -5 } }, { 5, -5 }, { 25, -5 } },
      { steer.follow_flow{ field = field }, { 0.5, 0.5 }, { 9.5, 3.5 } },
    }
    for i, case in ipairs(cases) do
      local w = steer.world{ seed = 1 }
      local a = w:spawn{ position = case[2], max_speed = 3, max_force = 6, radius = 0.3,
                         brain = steer.context{ interest = { case[1] }, danger = { steer.avoid_walls{} } } }
      w:step(20 * 60)
      local d = a.position:dist(case[3])
      if case.far then expect(d, i .. ": " .. case[1].kind .. ", distance from the threat"):gt(8)
      else expect(d, i .. ": " .. case[1].kind .. ", distance from the goal"):lt(1.5) end
    end
    -- pursue: closes on a target agent moving across
    local w = steer.world{ seed = 1 }
    local prey = w:spawn{ position = { 10, 0 }, velocity = { 0, 1 }, max_speed = 1, max_force = 0 }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 3, max_force = 6,
                       brain = steer.context{ interest = { steer.pursue{ target = prey } } } }
    local closest = math.huge
    for _ = 1, 600 do
      w:step()
      closest = math.min(closest, a.position:dist(prey.position))
    end
    expect(closest, "pursue: closest to the prey"):lt(1)
  end)

  it("keeps agents apart through avoid_agents and separation danger", function()
    local function run(danger)
      local w = steer.world{ seed = 4 }
      local brain = steer.context{ interest = { steer.arrive{} }, danger = danger }
      local a = w:spawn{ position = { 0, 0 }, target = { 10, 0.05 }, max_speed = 2, max_force = 4, radius = 0.5,
                         brain = brain }
      local b = w:spawn{ position = { 10, 0 }, target = { 0, -0.05 }, max_speed = 2, max_force = 4, radius = 0.5,
                         brain = brain }
      local closest = math.huge
      for _ = 1, 900 do
        w:step()
        closest = math.min(closest, a.position:dist(b.position))
      end
      return closest, a.position:dist({ 10, 0.05 }), b.position:dist({ 0, -0.05 })
    end
    local closest, da, db = run{ steer.avoid_agents{} }
    expect(closest, "avoid_agents: closest the two came (radii 0.5 + 0.5)"):gt(1)
    expect(math.max(da, db), "avoid_agents: both arrived"):lt(0.5)
    closest = run{ steer.separation{ radius = 3 } }
    expect(closest, "separation: closest the two came"):gt(0.9)
    expect(run{}, "no danger: they meet"):lt(0.5)
  end)

  it("interpolates the direction between slots", function()
    local function heading(slots, deg)
      local w = steer.world{ seed = 1 }
      local r = math.rad(deg)
      local a = w:spawn{ position = { 0, 0 }, max_speed = 3, max_force = 6,
                         brain = steer.context{ interest = { steer.seek{ target = { 10 * math.cos(r), 10 * math.sin(r) } } },
                                                slots = slots } }
      w:step()
      local f = a:force()
      return math.deg(atan2(f.y, f.x))
    end
    expect(math.abs(heading(8, 22.5) - 22.5), "8 slots, target at 22.5 deg: heading error"):lt(0.5)
    expect(math.abs(heading(8, 10) - 10), "8 slots, target at 10 deg: heading error"):lt(6)
    expect(math.abs(heading(16, 100) - 100), "16 slots, target at 100 deg: heading error"):lt(2)
  end)

  it("steadies the heading with smoothing", function()
    -- jitter: how much the turn rate changes from tick to tick (deg/s)
    local function jitter(smoothing)
      local w = steer.world{ seed = 5 }
      local a = w:spawn{ position = { 0, 0 }, velocity = { 2, 0 }, max_speed = 3, max_force = 6,
                         brain = steer.context{ interest = { steer.wander{ jitter = 40 } }, slots = 16,
                                                smoothing = smoothing } }
      local last, lastd, wobble = nil, nil, 0
      for _ = 1, 600 do
        w:step()
        local h = atan2(a.velocity.y, a.velocity.x)
        if last then
          local d = h - last
          if d > math.pi then d = d - 2 * math.pi elseif d < -math.pi then d = d + 2 * math.pi end
          if lastd then wobble = wobble + math.abs(d - lastd) end
          lastd = d
        end
        last = h
      end
      return math.deg(wobble) / 10
    end
    local rough, smooth = jitter(0), jitter(0.8)
    expect(smooth, "jitter with smoothing 0.8 against " .. rough .. " without"):lt(0.5 * rough)
  end)

  local function crowd(opts)
    local w = steer.world{ seed = 9, threads = opts and opts.threads or 1 }
    w:add_wall{ from = { -10, -10 }, to = { 10, -10 } }
    w:add_obstacle{ position = { 0, 0 }, radius = 1.5 }
    local brain = steer.context{
      interest = { steer.seek{}, { steer.wander{}, 0.3 } },
      danger = { steer.avoid_agents{}, steer.avoid_walls{}, { steer.separation{ radius = 1.5 }, 0.5 } },
      slots = 24, smoothing = 0.5,
    }
    for i = 0, 39 do
      local x, y = (i % 8) * 2 - 7, math.floor(i / 8) * 2 - 8
      w:spawn{ position = { x, y }, target = { -x, 9 - y }, max_speed = 2, max_force = 4, radius = 0.4,
               brain = brain }
    end
    return w
  end

  it("gives the same bits: twice, on 1 and 4 threads, and across save, load and restore", function()
    local a, b = crowd(), crowd()
    a:step(120)
    b:step(120)
    expect(b:hash(), "a second run"):eq(a:hash())
    local t4 = crowd{ threads = 4 }
    t4:step(120)
    expect(t4:hash(), "4 threads against 1"):eq(a:hash())
    local s = a:save()
    local loaded = steer.load(s)
    expect(loaded:hash(), "right after the load"):eq(a:hash())
    a:step(120)
    loaded:step(120)
    expect(loaded:hash(), "120 ticks after the load"):eq(a:hash())
    local back = crowd()
    back:step(7)
    back:restore(s)
    back:step(120)
    expect(back:hash(), "restored (rewound) and run again"):eq(a:hash())
  end)

  it("keeps the children's weights in a snapshot", function()
    local w = steer.world{ seed = 1 }
    w:spawn{ position = { 0, 0 }, brain = steer.context{ interest = { { steer.seek{ target = { 5, 0 } }, 0.5 } } } }
    w:step(30)
    local loaded = steer.load(w:save())
    w:step(30)
    loaded:step(30)
    expect(loaded:hash(), "half-weighted seek after a load"):eq(w:hash())
  end)

  it("keeps the world finite at extreme agent parameters", function()
    local w = steer.world{ seed = 2 }
    w:add_obstacle{ position = { 3, 0 }, radius = 1 }
    w:add_wall{ from = { -5, -2 }, to = { 5, -2 } }
    local brain = steer.context{
      interest = { steer.seek{ target = { 10, 0 } }, steer.wander{}, steer.arrive{ target = { 0, 5 } } },
      danger = { steer.avoid_obstacles{ lookahead = 1e4, stuck_window = 0 }, steer.avoid_walls{}, steer.avoid_agents{},
                 steer.separation{}, steer.flee{ target = { 0, 0 } } },
      smoothing = 0.9,
    }
    local agents = {
      w:spawn{ position = { 0, 0 }, max_speed = 1e30, max_force = 1e30, brain = brain },
      w:spawn{ position = { 0, 0 }, max_speed = 0, max_force = 0, brain = brain },
      w:spawn{ position = { 0, 0 }, max_speed = 3, max_force = 1e-6, mass = 1e-6, radius = 0, brain = brain },
      w:spawn{ position = { 3, 0 }, max_speed = 3, max_force = 6, radius = 5, brain = brain },
    }
    w:step(60)
    for i, a in ipairs(agents) do
      local p, v = a.position, a.velocity
      expect(p.x == p.x and p.y == p.y and v.x == v.x and v.y == v.y, "agent " .. i .. " is not NaN"):truthy()
    end
  end)

  it("raises on bad input, naming steer.context and the argument", function()
    local seek = steer.seek{}
    expect(function() steer.context{ interest = { seek }, slots = 3 } end)
      :raises_here("steer.context", "field 'slots'", ">= 4 and <= 64", "3")
    expect(function() steer.context{ interest = { seek }, slots = 65 } end):raises_here("steer.context", "field 'slots'")
    expect(function() steer.context{ interest = { seek }, slots = 8.5 } end)
      :raises_here("steer.context", "field 'slots'", "whole number")
    expect(function() steer.context{ interest = { seek }, threshold = 0 / 0 } end)
      :raises_here("steer.context", "field 'threshold'", "NaN")
    expect(function() steer.context{ interest = { seek }, threshold = -0.1 } end)
      :raises_here("steer.context", "field 'threshold'")
    expect(function() steer.context{ interest = { seek }, smoothing = 1 } end)
      :raises_here("steer.context", "field 'smoothing'", "1")
    expect(function() steer.context{ interest = { seek }, smoothing = 0 / 0 } end)
      :raises_here("steer.context", "field 'smoothing'", "NaN")
    expect(function() steer.context{ interest = { { seek, 0 / 0 } } } end)
      :raises_here("steer.context", "interest[1]", "finite weight >= 0")
    expect(function() steer.context{ interest = { seek, { seek, -1 } } } end)
      :raises_here("steer.context", "interest[2]", "finite weight >= 0")
    expect(function() steer.context{ interest = { seek }, danger = { { steer.avoid_walls{}, "much" } } } end)
      :raises_here("steer.context", "danger[1]", "finite weight")
    expect(function() steer.context{ interest = {} } end):raises_here("steer.context", "field 'interest'", "empty")
    expect(function() steer.context{ danger = { steer.avoid_walls{} } } end)
      :raises_here("steer.context", "field 'interest'", "nil")
    expect(function() steer.context{ interest = { seek, steer.alignment{} } } end)
      :raises_here("steer.context", "interest[2]", "steer.alignment", "seek, arrive, pursue", "reciprocal")
    expect(function() steer.context{ interest = { seek }, danger = { steer.seek{} } } end)
      :raises_here("steer.context", "danger[1]", "steer.seek", "separation, avoid_agents, avoid_walls")
    expect(function() steer.context{ interest = { seek }, danger = { steer.avoid_walls{} }, 3 } end)
      :raises_here("steer.context")
  end)
end)
