-- SPDX-License-Identifier: MIT
-- navigate_spec.lua — steer.navigate{ navmesh = nm, ... }: agents that
-- find their own way on a navigation mesh. Agents of two sizes cross a
-- level of rooms with 1 m and 3 m doors and all arrive, never leaving the
-- mesh; an agent too big for the only gap is told why ("unreachable")
-- and stands still while a small one arrives; the plan follows a moved
-- target and a teleported agent; a thousand requests at once are served
-- within the path budget, a bounded number each tick; the same bits on 1
-- and 4 threads and after a save and a load.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local function box(x0, y0, x1, y1) return { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } } end
local function dist(a, b) return math.sqrt((a.x - b.x) ^ 2 + (a.y - b.y) ^ 2) end

-- Three rooms in a 40 x 20 hall: two walls, each with a 1 m and a 3 m door
-- at opposite ends, so the small agents' shortest way and the big ones'
-- differ.
local function rooms()
  return steer.navmesh{
    outline = box(0, 0, 40, 20),
    obstacles = {
      box(13, 0, 14, 3), box(13, 4, 14, 15), box(13, 18, 14, 20), -- 1 m door at y 3..4, 3 m at y 15..18
      box(26, 0, 27, 2), box(26, 5, 27, 16), box(26, 17, 27, 20), -- 3 m door at y 2..5, 1 m at y 16..17
    },
  }
end

-- The hall of navmesh_spec: a wall at x = 15 with one gap of `gap` metres.
local function hall(gap)
  return steer.navmesh{
    outline = box(0, 0, 30, 20),
    obstacles = { box(14.5, 0, 15.5, 10 - gap / 2), box(14.5, 10 + gap / 2, 15.5, 20) },
  }
end

local function count_events(w, names)
  local n = {}
  for _, name in ipairs(names) do
    n[name] = 0
    w:on(name, function(a, why)
      n[name] = n[name] + 1
      n[name .. "_by"] = n[name .. "_by"] or {}
      n[name .. "_by"][a] = (n[name .. "_by"][a] or 0) + 1
      if why then n.why = why end
    end)
  end
  return n
end

-- A 40 x 20 field with a pond of mud (x 8..16) and one of water (x 24..32),
-- both y 4..16, across the way from (2, 10) to (38, 10).
local MUD, WATER = { 8, 4, 16, 16 }, { 24, 4, 32, 16 }
local function ponds()
  return steer.navmesh{
    outline = box(0, 0, 40, 20),
    areas = { { polygon = box(table.unpack(MUD)), area = "mud" }, { polygon = box(table.unpack(WATER)), area = "water" } },
  }
end

-- How deep the point p is inside the box b (x0, y0, x1, y1): <= 0 outside.
local function depth(p, b) return math.min(p.x - b[1], b[3] - p.x, p.y - b[2], b[4] - p.y) end

-- One agent from (2, 10) to (38, 10) on the ponds with `brain`: the
-- deepest its centre went into the mud and the water, and its events.
local function cross_ponds(brain, ticks)
  local w = steer.world{ seed = 9 }
  local a = w:spawn{ position = { 2, 10 }, radius = 0.4, max_speed = 2, max_force = 4, brain = brain,
                     target = { 38, 10 } }
  local ev = count_events(w, { "path_found", "arrive", "unreachable" })
  local mud, water = -math.huge, -math.huge
  for _ = 1, ticks or 60 * 40 do
    w:step()
    mud, water = math.max(mud, depth(a.position, MUD)), math.max(water, depth(a.position, WATER))
  end
  return mud, water, ev, a
end

-- w saved and loaded: the loaded world runs on to the hashes of w, never stopped.
local function runs_on_after_load(w)
  local l = steer.load(w:save())
  for _ = 1, 10 do
    w:step(60)
    l:step(60)
    expect(l:hash(), "the loaded world"):eq(w:hash())
  end
end

-- 20 agents, small (r 0.3) and big (r 0.6), from the left room to the right one.
local function crossing(opts)
  opts = opts or {}
  local nm = rooms()
  local w = steer.world{ seed = 3, threads = opts.threads }
  local brain = steer.navigate{ navmesh = nm, slow_radius = 2, stop_radius = 0.3 }
  local agents, goals = {}, {}
  for i = 1, 20 do
    local small = i % 2 == 1
    local row, col = (i - 1) % 5, (i - 1) // 5
    local goal = steer.vec(30 + col * 2.2, 2 + row * 4)
    local a = w:spawn{ position = { 2 + col * 2.5, 2 + row * 4 }, radius = small and 0.3 or 0.6, max_speed = 2,
                       max_force = 4, brain = brain, target = goal }
    agents[i], goals[i] = a, goal
  end
  return w, nm, agents, goals
end

describe("navigate", function()
  it("brings 20 agents of two sizes through rooms with 1 m and 3 m doors, all inside stop_radius, never off the mesh",
    function()
      local w, nm, agents, goals = crossing()
      local ev = count_events(w, { "path_found", "unreachable", "arrive" })
      local off, narrow = 0, 0
      -- the 1 m doors: x 13..14, y 3..4 and x 26..27, y 16..17
      local function in_narrow_door(p)
        return (p.x > 13 and p.x < 14 and p.y > 3 and p.y < 4) or (p.x > 26 and p.x < 27 and p.y > 16 and p.y < 17)
      end
      for _ = 1, 60 * 60 do
        w:step(1)
        for i, a in ipairs(agents) do
          if not nm:contains(a.position, 0) then off = off + 1 end
          if i % 2 == 0 and in_narrow_door(a.position) then narrow = narrow + 1 end
        end
        if ev.arrive >= 20 then break end
      end
      expect(off, "agent-ticks off the mesh"):eq(0)
      expect(ev.unreachable, "unreachable events"):eq(0)
      expect(ev.arrive, "arrive events"):eq(20)
      for i, a in ipairs(agents) do expect(dist(a.position, goals[i]), "agent " .. i):le(0.3) end
      expect(narrow, "big agents in a 1 m door (they take the 3 m ones)"):eq(0)
    end)

  it("tells a big agent facing only a 2 m gap 'no way wide enough' and it stands still; a small one arrives",
    function()
      local nm = hall(2)
      local w = steer.world{ seed = 4 }
      local brain = steer.navigate{ navmesh = nm, stop_radius = 0.2 }
      local big = w:spawn{ position = { 3, 10 }, radius = 1.6, max_speed = 2, max_force = 4, brain = brain,
                           target = { 27, 10 } }
      local small = w:spawn{ position = { 3, 4 }, radius = 0.4, max_speed = 2, max_force = 4, brain = brain,
                             target = { 27, 4 } }
      local why, arrived = {}, {}
      w:on("unreachable", function(a, reason) why[#why + 1] = { a, reason } end)
      w:on("arrive", function(a) arrived[a] = true end)
      w:step(60 * 30)
      expect(#why, "one unreachable event"):eq(1)
      expect(why[1][1] == big, "for the big agent"):eq(true)
      expect(why[1][2]):eq("no way wide enough")
      expect(dist(big.position, steer.vec(3, 10)), "the big agent stood still"):lt(1e-6)
      expect(big:path(), "no corridor"):eq(nil)
      expect(arrived[small], "the small one arrived"):eq(true)
      expect(dist(small.position, steer.vec(27, 4))):le(0.2)
    end)

  it("plans again when the target moves mid-way, and arrives at the new one", function()
    local nm = hall(4)
    local w = steer.world{ seed = 5 }
    local a = w:spawn{ position = { 3, 3 }, radius = 0.4, max_speed = 2, max_force = 4,
                       brain = steer.navigate{ navmesh = nm }, target = { 27, 3 } }
    local ev = count_events(w, { "path_found", "arrive" })
    w:step(60 * 5)
    local p = a:path()
    expect(p, "a corridor"):type("table")
    expect(#p):ge(3)
    expect(dist(p[#p], steer.vec(27, 3)), "it ends at the target"):lt(1e-4)
    expect(ev.path_found):eq(1)
    a.target = steer.vec(27, 17)
    w:step(60 * 25)
    expect(ev.path_found, "path_found twice"):eq(2)
    expect(ev.arrive):eq(1)
    expect(dist(a.position, steer.vec(27, 17))):le(0.2)
  end)

  it("plans again from where a teleported agent lands", function()
    local nm = rooms()
    local w = steer.world{ seed = 6 }
    local a = w:spawn{ position = { 2, 10 }, radius = 0.4, max_speed = 2, max_force = 4,
                       brain = steer.navigate{ navmesh = nm }, target = { 38, 10 } }
    local ev = count_events(w, { "path_found", "arrive" })
    w:step(60 * 3)
    expect(a.position.x, "still in the first room"):lt(13)
    a.position = steer.vec(33, 10) -- in the last room: its next corner (by a door of the first wall) out of sight
    a.velocity = steer.vec(0, 0)
    w:step(2)
    expect(ev.path_found, "a second plan at once"):eq(2)
    local p = a:path()
    expect(dist(p[1], steer.vec(33, 10)), "the corridor starts where it landed"):lt(0.1)
    expect(#p, "straight to the target now"):eq(2)
    w:step(60 * 10)
    expect(ev.arrive):eq(1)
    expect(dist(a.position, steer.vec(38, 10))):le(0.2)
  end)

  it("serves 1,000 requests at once within the path budget: a bounded number a tick, all within bounded ticks",
    function()
      local nm = rooms()
      local w = steer.world{ seed = 7 }
      w.path_budget = 300
      expect(w.path_budget):eq(300)
      local brain = steer.navigate{ navmesh = nm }
      for i = 1, 1000 do
        w:spawn{ position = { 1 + (i % 11), 1 + (i // 11) % 18 }, radius = 0.3, brain = brain,
                 target = { 29 + (i % 9), 1 + (i * 7) % 18 } }
      end
      local found, per_tick, most, ticks = 0, 0, 0, 0
      w:on("path_found", function() per_tick = per_tick + 1 end)
      while found < 1000 and ticks < 2000 do
        per_tick = 0
        w:step(1)
        ticks = ticks + 1
        found = found + per_tick
        if per_tick > most then most = per_tick end
      end
      print(string.format("    1000 requests, budget 300: %d ticks, at most %d searches a tick", ticks, most))
      expect(found, "every agent got a plan"):eq(1000)
      expect(most, "searches in a tick (each costs at least one unit)"):le(300)
      expect(most, "the budget spreads them"):lt(1000)
      expect(ticks, "ticks to serve them all"):le(1000)
    end)

  it("gives the same bits on 1 and 4 threads", function()
    local w1 = crossing{ threads = 1 }
    local w4 = crossing{ threads = 4 }
    for _ = 1, 12 do
      w1:step(60)
      w4:step(60)
      expect(w4:hash(), "4 threads vs 1"):eq(w1:hash())
    end
  end)

  it("saved mid-way and loaded, runs on to the same hash as the run never stopped", function()
    local w = crossing()
    w:step(150) -- plans made, some pending (a re-plan after the first corners)
    runs_on_after_load(w)
  end)

  it("charges a search the same work after a load: a world loaded mid-drain serves its requests on the same ticks",
     function()
    -- a 144 m level of 2 m boxes, and in its far corner a room whose one
    -- door (0.6 m) no agent of radius 0.5 passes: each search for the room
    -- goes long before it is told NARROW
    local obstacles, c = {}, 128
    for i = 0, 21 do
      for j = 0, 21 do
        if i < 18 or j < 18 then obstacles[#obstacles + 1] = box(5 + 6 * i, 5 + 6 * j, 7 + 6 * i, 7 + 6 * j) end
      end
    end
    for _, b in ipairs{ { c - 6, c - 6, c + 6, c - 5 }, { c - 6, c + 5, c + 6, c + 6 }, { c - 6, c - 5, c - 5, c + 5 },
                        { c + 5, c - 5, c + 6, c - 0.3 }, { c + 5, c + 0.3, c + 6, c + 5 } } do
      obstacles[#obstacles + 1] = box(table.unpack(b))
    end
    local nm = steer.navmesh{ outline = box(0, 0, 144, 144), obstacles = obstacles }
    local w = steer.world{ seed = 5 }
    local brain = steer.navigate{ navmesh = nm }
    local ev = count_events(w, { "unreachable" })
    for i = 1, 8 do w:spawn{ position = { 1 + i, 2 }, radius = 0.5, max_speed = 1, brain = brain, target = { c, c } } end
    w:step() -- the first searches served, the tick's budget spent
    expect(ev.unreachable, "told at once"):lt(8)
    local l = steer.load(w:save())
    local lev = count_events(l, { "unreachable" })
    local told = ev.unreachable
    for t = 1, 20 do
      w:step()
      l:step()
      expect(lev.unreachable, "tick " .. t .. ": told in the loaded world"):eq(ev.unreachable - told)
      expect(l:hash(), "the loaded world"):eq(w:hash())
    end
    expect(ev.unreachable, "all told"):eq(8)
  end)

  it("refuses what is not a navigation mesh, naming the field", function()
    local ok, err = pcall(steer.navigate, { navmesh = 3 })
    expect(ok):eq(false)
    expect(err):contains("navmesh")
    ok, err = pcall(steer.navigate, { navmesh = rooms(), slow_radius = 1, stop_radius = 2 })
    expect(ok):eq(false)
    expect(err):contains("stop_radius")
    ok, err = pcall(function() steer.world{}.path_budget = 0 end)
    expect(ok):eq(false)
    expect(err):contains("path_budget")
  end)

  it("takes the agent's own area costs: costs = { mud = 10 } goes round the mud, exclude = { 'water' } never " ..
     "enters the water", function()
    local nm = ponds()
    local mud, water, ev = cross_ponds(steer.navigate{ navmesh = nm })
    expect(mud, "the mesh's costs: straight through the mud"):gt(3)
    expect(water, "and the water"):gt(3)
    expect(ev.arrive):eq(1)
    mud, water, ev = cross_ponds(steer.navigate{ navmesh = nm, costs = { mud = 10 } })
    -- (its corners are the pond's corners: the centre passes them within rounding)
    expect(mud, "costs mud = 10: round the mud"):le(0.01)
    expect(water, "through the water"):gt(3)
    expect(ev.arrive):eq(1)
    mud, water, ev = cross_ponds(steer.navigate{ navmesh = nm, exclude = { "water" } })
    -- (the way round the water's near corner crosses the mud: the shortest
    -- 3.1 m deep, the search's corridor 2.4 m, to the mud's far corner)
    expect(mud, "exclude water: through the mud"):gt(2)
    expect(water, "never into the water"):le(0.01)
    expect(ev.arrive):eq(1)
    expect(ev.unreachable):eq(0)
    expect(ev.path_found, "one plan: passing the water's corners asks for no other"):eq(1)
    mud, water, ev = cross_ponds(steer.navigate{ navmesh = nm, costs = { mud = 10, default = 1 }, exclude = { "water" } })
    expect(math.max(mud, water), "both: round both"):le(0.01)
    expect(ev.arrive):eq(1)
    -- an agent's costs leave the mesh's and the other agents' alone
    expect(nm.areas.mud):eq(1)
  end)

  it("raises 'unreachable' with the reason when the agent or its target stands in an area it excludes", function()
    local nm = ponds()
    local w = steer.world{ seed = 10 }
    local brain = steer.navigate{ navmesh = nm, exclude = { "water" } }
    local wet = w:spawn{ position = { 28, 10 }, radius = 0.4, max_speed = 2, max_force = 4, brain = brain,
                         target = { 38, 10 } }
    local dry = w:spawn{ position = { 2, 10 }, radius = 0.4, max_speed = 2, max_force = 4, brain = brain,
                         target = { 28, 12 } }
    local why = {}
    w:on("unreachable", function(a, reason) why[a] = reason end)
    w:step(60)
    expect(why[wet]):eq("start in an excluded area")
    expect(why[dry]):eq("target in an excluded area")
    expect(dist(wet.position, steer.vec(28, 10)), "it stands still"):lt(1e-6)
    expect(dist(dry.position, steer.vec(2, 10))):lt(1e-6)
    -- the target out of the water: a way again
    dry.target = steer.vec(38, 10)
    w:step(60 * 30)
    expect(dist(dry.position, steer.vec(38, 10))):le(0.2)
  end)

  it("refuses unknown area names and bad costs, naming steer.navigate, the argument and the mesh's areas", function()
    local nm = ponds()
    local function refused(args)
      args.navmesh = nm
      local ok, err = pcall(steer.navigate, args)
      expect(ok):eq(false)
      return err
    end
    local err = refused{ costs = { swamp = 2 } }
    expect(err):contains("steer.navigate: field 'costs.swamp'")
    expect(err):contains("'default', 'mud', 'water'")
    err = refused{ exclude = { "mud", "swamp" } }
    expect(err):contains("steer.navigate: field 'exclude[2]'")
    expect(err):contains("'default', 'mud', 'water'")
    expect(err):contains('"swamp"')
    for _, bad in ipairs{ 0, -1, 0 / 0, 1e-4, "2" } do
      err = refused{ costs = { mud = bad } }
      expect(err):contains("steer.navigate: field 'costs.mud' expected a cost multiplier >= 0.001")
    end
    expect(refused{ exclude = "water" }):contains("field 'exclude' expected a list of area names")
    expect(refused{ costs = { 10 } }):contains("field 'costs' expected area names as keys")
    expect(refused{ costs = { mud = 2 }, excluded = { "water" } }):contains("excluded")
    -- what nm:path takes, navigate takes (the same reader): math.huge never enters
    local _, water = cross_ponds(steer.navigate{ navmesh = nm, costs = { water = math.huge } }, 60 * 25)
    expect(water):le(0.01)
  end)

  it("keeps out of a costly area when its way runs along the area's edge and turns off at its corner", function()
    -- the agent starts on the mud's edge: its centre on ground of both
    -- costs, the look ahead that skips the corner at (16, 4) must not cut
    -- across the mud (the ground under its disc is the cheap ground)
    for _, start in ipairs{ { 9, 4 }, { 12, 4 }, { 9, 16 } } do
      local nm = steer.navmesh{ outline = box(0, 0, 40, 20), areas = { { polygon = box(table.unpack(MUD)), area = "mud" } } }
      local w = steer.world{ seed = 9 }
      local a = w:spawn{ position = start, radius = 0.4, max_speed = 2, max_force = 4,
                         brain = steer.navigate{ navmesh = nm, costs = { mud = 10 } },
                         target = { 38, start[2] == 16 and 14 or 6 } }
      local ev = count_events(w, { "arrive" })
      local mud = -math.huge
      for _ = 1, 60 * 30 do
        w:step()
        mud = math.max(mud, depth(a.position, MUD))
      end
      expect(mud, "round the mud from " .. start[1] .. ", " .. start[2]):le(0.01)
      expect(ev.arrive):eq(1)
    end
  end)

  it("plans again with the new costs when a hot reload redefines the brain", function()
    local nm = ponds()
    local function define(costs)
      return steer.archetype{ name = "navfilter_walker", vehicle = { radius = 0.4, max_speed = 2, max_force = 4 },
                              brain = steer.navigate{ navmesh = nm, costs = costs } }
    end
    local w = steer.world{ seed = 11 }
    local a = w:spawn(define{ mud = 1 }, { position = { 2, 10 }, target = { 38, 10 } })
    local ev = count_events(w, { "path_found", "arrive" })
    w:step(30)
    expect(ev.path_found):eq(1)
    local function widest(path)
      local y = 0
      for _, p in ipairs(path) do y = math.max(y, math.abs(p.y - 10)) end
      return y
    end
    expect(widest(a:path()), "straight through"):lt(0.01)
    define{ mud = 10 } -- what a hot reload of the scenario does
    local mud = -math.huge
    for _ = 1, 60 * 30 do
      w:step()
      mud = math.max(mud, depth(a.position, MUD))
    end
    expect(ev.path_found, "a new plan"):ge(2)
    expect(mud, "round the mud now"):le(0.01)
    expect(ev.arrive):eq(1)
  end)

  it("carries the costs through a snapshot: the loaded run is the run never stopped", function()
    local nm = ponds()
    local w = steer.world{ seed = 12 }
    local brain = steer.navigate{ navmesh = nm, costs = { mud = 10 }, exclude = { "water" } }
    for i = 1, 6 do
      w:spawn{ position = { 2, 3 + 2 * i }, radius = 0.3 + 0.05 * i, max_speed = 2, max_force = 4, brain = brain,
               target = { 38, 3 + 2 * i } }
    end
    w:step(100)
    runs_on_after_load(w)
  end)

  it("honours an area excluded mid-run, then allowed again, at the next plan, also in a world loaded between", function()
    -- (the look ahead past a corner of the water asks for no new plan only
    -- when the agent's sight knows the water excluded: its costs, not
    -- scanned each tick, follow the brain, here and after a load)
    local nm = ponds()
    local open, dry = steer.navigate{ navmesh = nm }, steer.navigate{ navmesh = nm, exclude = { "water" } }
    local function off_line(a) -- how far the way ahead strays from y = 10
      local y = 0
      for _, p in ipairs(a:path()) do y = math.max(y, math.abs(p.y - 10)) end
      return y
    end
    local function walk(w, a, ticks)
      local water = -math.huge
      for _ = 1, ticks do
        w:step()
        water = math.max(water, depth(a.position, WATER))
      end
      return water
    end
    local w = steer.world{ seed = 13 }
    local a = w:spawn{ position = { 2, 10 }, radius = 0.4, max_speed = 2, max_force = 4, brain = open,
                       target = { 38, 10 } }
    local ev = count_events(w, { "path_found" })
    w:step(60)
    expect(off_line(a), "the mesh's costs: straight through both ponds"):lt(0.01)
    a.brain = dry -- the water excluded mid-run
    w:step(1)
    expect(off_line(a), "round the water (by its corners)"):ge(5.99)
    expect(walk(w, a, 60 * 10), "not into the water"):le(0.01)
    expect(a.position.x, "at the water's near side"):gt(20)
    expect(a.position.x):lt(24)
    local l = steer.load(w:save())
    local b
    for x in l:agents() do if x.id == a.id then b = x end end
    local lev = count_events(l, { "path_found" })
    expect(l:hash(), "the loaded world"):eq(w:hash())
    expect(off_line(b), "loaded: round the water"):ge(5.99)
    expect(walk(l, b, 60 * 2), "loaded: not into the water"):le(0.01)
    expect(walk(w, a, 60 * 2)):le(0.01)
    expect(a.position.x, "past the water's near corner"):gt(24.5)
    expect(l:hash(), "the loaded world, on"):eq(w:hash())
    expect(ev.path_found, "a plan for each brain, none at the water's corner"):eq(2)
    expect(lev.path_found, "loaded: none at the water's corner"):eq(0)
    -- allowed again: the next plan crosses it, in both worlds alike
    a.brain, b.brain = open, open
    w:step(1)
    l:step(1)
    expect(#a:path(), "allowed again: straight on, through the water"):eq(2)
    expect(#b:path()):eq(2)
    local ww, lw = walk(w, a, 60 * 10), walk(l, b, 60 * 10)
    expect(ww, "allowed again: into the water"):gt(1)
    expect(lw):eq(ww)
    expect(l:hash(), "the loaded world, allowed again"):eq(w:hash())
    expect(dist(a.position, steer.vec(38, 10)), "arrived"):le(0.2)
  end)

  it("a:path() is nil for an agent that does not navigate", function()
    local w = steer.world{}
    local a = w:spawn{ position = { 0, 0 }, brain = steer.seek{ target = { 1, 1 } } }
    expect(a:path()):eq(nil)
  end)
end)
