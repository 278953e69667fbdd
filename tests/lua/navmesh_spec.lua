-- SPDX-License-Identifier: MIT
-- navmesh_spec.lua — navigation meshes as a user sees them: a level of
-- rooms, pillars and gaps gives paths that stay on the mesh and keep the
-- agent's radius from every wall; a gap narrower than the agent is closed
-- to it and open to a smaller one, on the same mesh; areas cost what
-- they are given and excluded ones are never entered; touching, crossing
-- and overlapping obstacles carve exactly their union; the same input in
-- any order gives the same mesh; a saved mesh loads back the same, bit for
-- bit; a grid becomes a mesh with any-angle paths; bad input raises naming
-- the function and the argument.
local steer = require "steer"
local spec = require "spec"
local random = require "steer.random"
local describe, it, expect = spec.describe, spec.it, spec.expect

local function box(x0, y0, x1, y1) return { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } } end
local function len(p) return math.sqrt(p.x * p.x + p.y * p.y) end

-- Every consecutive pair of points has a clear ray on the mesh, and every
-- point along the way (sampled each 5 cm) keeps at least r from the walls.
local function check_clear(nm, path, r)
  for i = 1, #path - 1 do
    local a, b = path[i], path[i + 1]
    expect(nm:raycast(a, b), "segment " .. i .. " hits a wall"):eq(nil)
    local n = math.max(1, math.ceil(len(b - a) / 0.05))
    for k = 0, n do
      local p = a + (b - a) * (k / n)
      expect(nm:distance_to_wall(p), "clearance along segment " .. i):ge(r - 1e-6)
    end
  end
end

-- A 30 x 20 hall split by a wall at x = 15 with one gap of `gap` metres
-- around y = 10, and a pillar in the left half.
local function hall(gap)
  return steer.navmesh{
    outline = box(0, 0, 30, 20),
    obstacles = {
      box(14.5, 0, 15.5, 10 - gap / 2),
      box(14.5, 10 + gap / 2, 15.5, 20),
      box(6, 8, 8, 12),
    },
  }
end

describe("navmesh paths", function()
  it("go round obstacles on the mesh, corners rounded by the radius", function()
    local nm = hall(2)
    expect(nm.area):near(30 * 20 - 2 * 9 - 8, 1e-6)
    for _, r in ipairs { 0, 0.3, 0.9 } do
      local path, length = nm:path({ 2, 10 }, { 28, 10 }, { radius = r })
      expect(path, "a path for radius " .. r):type("table")
      expect(path[1]):eq(steer.vec(2, 10))
      expect(path[#path]):eq(steer.vec(28, 10))
      expect(#path):ge(3) -- the pillar is in the way
      local sum = 0
      for i = 1, #path - 1 do sum = sum + len(path[i + 1] - path[i]) end
      expect(length):near(sum, 1e-9)
      expect(length):gt(26)
      expect(length):lt(30)
      check_clear(nm, path, r)
    end
  end)

  it("never squeeze through a gap narrower than the agent, on one mesh for every size", function()
    local nm = hall(2)
    local path, why = nm:path({ 2, 3 }, { 28, 3 }, { radius = 1.6 }) -- a 3.2 m agent, a 2 m gap
    expect(path):eq(nil)
    expect(why):eq("no way wide enough")
    path = nm:path({ 2, 3 }, { 28, 3 }, { radius = 0.9 }) -- 1.8 m passes
    expect(path):type("table")
    check_clear(nm, path, 0.9)
  end)

  it("say why there is none", function()
    local nm = hall(2)
    local p, why = nm:path({ -5, 3 }, { 28, 3 })
    expect(p):eq(nil)
    expect(why):eq("start off the mesh")
    p, why = nm:path({ 2, 3 }, { 7, 10 }) -- inside the pillar
    expect(p):eq(nil)
    expect(why):eq("target off the mesh")
    local two = steer.navmesh{ outline = { box(0, 0, 10, 10), box(20, 0, 30, 10) } }
    p, why = two:path({ 5, 5 }, { 25, 5 })
    expect(p):eq(nil)
    expect(why):eq("no way")
  end)

  it("weigh areas by their cost, and never enter excluded ones", function()
    -- a 20 x 10 field; a mud strip across x 9..11 except a 1 m dry lane at the top
    local nm = steer.navmesh{
      outline = box(0, 0, 20, 10),
      areas = { { polygon = box(9, 0, 11, 9), area = "mud" } },
      costs = { mud = 10 },
    }
    expect(nm.areas.mud):eq(10)
    expect(nm.areas.default):eq(1)
    local function top(path)
      local y = -1
      for _, p in ipairs(path) do y = math.max(y, p.y) end
      return y
    end
    local dear = nm:path({ 1, 2 }, { 19, 2 })
    expect(top(dear), "the detour by the dry lane"):ge(9)
    local cheap = nm:path({ 1, 2 }, { 19, 2 }, { costs = { mud = 1 } })
    expect(top(cheap), "straight through the mud"):lt(2.01)
    local dry = nm:path({ 1, 2 }, { 19, 2 }, { exclude = { "mud" } })
    expect(top(dry)):ge(9)
    local walled = steer.navmesh{
      outline = box(0, 0, 20, 10),
      areas = { { polygon = box(9, 0, 11, 10), area = "water" } },
    }
    local none, why = walled:path({ 1, 2 }, { 19, 2 }, { exclude = { "water" } })
    expect(none):eq(nil)
    expect(why):eq("no way")
  end)

  it("turn at an excluded area's corner near the start for any radius, never across the area", function()
    -- a pond in a field; the start 3 cm from its corner (10, 5), on the dry side
    local nm = steer.navmesh{ outline = box(0, 0, 30, 20), areas = { { polygon = box(10, 5, 20, 15), area = "mud" } } }
    local dry = { exclude = { "mud" } }
    for _, r in ipairs{ 0, 0.4 } do
      dry.radius = r
      local path = nm:path({ 9.97, 5.02 }, { 28, 10 }, dry)
      expect(#path, "radius " .. r .. ": by both corners"):eq(4)
      expect(path[2].x):eq(10)
      expect(path[2].y):eq(5)
      for i = 1, #path - 1 do -- (a raycast from the pond's corner starts in the pond)
        for k = 0, 100 do
          local p = path[i] + (path[i + 1] - path[i]) * (k / 100)
          local inside = math.min(p.x - 10, 20 - p.x, p.y - 5, 15 - p.y)
          expect(inside, "radius " .. r .. ": segment " .. i .. " stays dry"):le(1e-9)
        end
      end
    end
  end)
end)

describe("navmesh building", function()
  it("carves the union of touching, overlapping and crossing obstacles", function()
    local nm = steer.navmesh{
      outline = box(0, 0, 10, 10),
      obstacles = {
        box(1, 1, 3, 3), box(3, 1, 5, 3), -- touching along x = 3
        box(6, 6, 8, 8), box(7, 7, 9, 9), -- overlapping by 1 x 1
        box(-2, 4, 2, 5),                  -- crossing the outline
        { { 5, 5 }, { 5, 5 }, { 6, 5 }, { 5.5, 5 } }, -- a sliver of collinear and duplicate points
      },
    }
    expect(nm.area):near(100 - 8 - 7 - 2, 1e-6)
    expect(nm:contains({ 3, 2 })):eq(false)
    expect(nm:contains({ 7.5, 7.5 })):eq(false)
    expect(nm:contains({ 0.5, 4.5 })):eq(false)
    expect(nm:contains({ 5.5, 5.2 })):eq(true)
  end)

  it("carves a figure-eight obstacle's both lobes, and what overlaps either, built or added later", function()
    -- the lobes wind opposite ways: a square over either one is still carved
    local eight = { { 1, 1 }, { 3, 3 }, { 3, 1 }, { 1, 3 } }
    for _, sq in ipairs({ box(0.5, 0.5, 2, 3.5), box(2, 0.5, 3.5, 3.5) }) do
      local nm = steer.navmesh{ outline = box(0, 0, 10, 10), obstacles = { eight, sq } }
      expect(nm.area):near(100 - 4.5 - 1, 1e-6)
      for _, p in ipairs({ { 1.5, 2 }, { 2.5, 2 }, { 1.2, 1.5 }, { 2.8, 2.5 } }) do
        expect(nm:contains(p)):eq(false)
      end
      local live = steer.navmesh{ outline = box(0, 0, 10, 10) }
      live:add_obstacle{ polygon = eight }
      live:add_obstacle{ polygon = sq }
      expect(live.area):near(100 - 4.5 - 1, 1e-6)
      for _, p in ipairs({ { 1.5, 2 }, { 2.5, 2 }, { 1.2, 1.5 }, { 2.8, 2.5 } }) do
        expect(live:contains(p)):eq(false)
      end
    end
  end)

  it("gives the same mesh for the same input in any order, bit for bit", function()
    local a = steer.navmesh{ outline = box(0, 0, 10, 10), obstacles = { box(1, 1, 2, 2), box(5, 5, 7, 6) } }
    local b = steer.navmesh{
      outline = { { 10, 10 }, { 0, 10 }, { 0, 0 }, { 10, 0 } }, -- another start, the other winding
      obstacles = { { { 7, 6 }, { 5, 6 }, { 5, 5 }, { 7, 5 } }, box(1, 1, 2, 2) },
    }
    expect(a.hash):eq(b.hash)
    expect(a.triangle_count):eq(b.triangle_count)
    local pa = a:path({ 0.5, 0.5 }, { 9, 9 }, { radius = 0.2 })
    local pb = b:path({ 0.5, 0.5 }, { 9, 9 }, { radius = 0.2 })
    expect(#pa):eq(#pb)
    for i = 1, #pa do expect(pa[i]):eq(pb[i]) end
  end)

  it("treats a ring inside an outline ring as a hole and one inside that as an island", function()
    local nm = steer.navmesh{ outline = { box(0, 0, 10, 10), box(2, 2, 8, 8), box(4, 4, 6, 6) } }
    expect(nm.area):near(100 - 36 + 4, 1e-6)
    expect(nm:contains({ 3, 3 })):eq(false)
    expect(nm:contains({ 5, 5 })):eq(true)
  end)

  it("turns a grid into a mesh with any-angle paths", function()
    local g = steer.grid{ cell = 1, map = {
      "..........",
      "..####....",
      "..#..#..2.",
      "..#.......",
      "..........",
    } }
    local nm = steer.navmesh{ grid = g }
    expect(nm.area):near(50 - 7, 1e-6)
    expect(nm.areas.cost2):eq(2)
    local gp = g:path({ 0.5, 0.5 }, { 9.5, 4.5 })
    local mp, length = nm:path({ 0.5, 0.5 }, { 9.5, 4.5 })
    expect(mp):type("table")
    local glen = 0
    for i = 1, #gp - 1 do glen = glen + len(gp[i + 1] - gp[i]) end
    expect(length):le(glen + 1e-9)
    check_clear(nm, mp, 0)
  end)
end)

describe("navmesh queries", function()
  local nm = hall(2)
  it("raycast stops at the first wall with its normal", function()
    local hit, normal, frac = nm:raycast({ 2, 2 }, { 28, 2 })
    expect(hit.x):near(14.5, 1e-9)
    expect(hit.y):near(2, 1e-9)
    expect(normal):eq(steer.vec(-1, 0))
    expect(frac):near(12.5 / 26, 1e-9)
    expect(nm:raycast({ 2, 10 }, { 5, 10 })):eq(nil)
  end)

  it("move_along slides along walls and stays on the mesh", function()
    local p = nm:move_along({ 13, 2 }, { 17, 4 })
    expect(p.x):le(14.5 + 1e-9)
    expect(p.y):gt(2) -- slid up along the wall
    expect(nm:contains(p)):eq(true)
    local q = nm:move_along({ 13, 2 }, { 13, 3 }, 0.5)
    expect(q):eq(steer.vec(13, 3))
  end)

  it("nearest, distance_to_wall and contains agree", function()
    local p, d = nm:nearest({ 7, 10 }) -- inside the pillar
    expect(d):near(1, 1e-9)
    expect(nm:contains(p)):eq(true)
    local q = nm:nearest({ 7, 10 }, 0.5)
    expect(nm:distance_to_wall(q)):ge(0.5 - 1e-9)
    expect(nm:distance_to_wall({ 3, 10 })):near(3, 1e-9)
    expect(nm:contains({ 3, 10 }, 2.9)):eq(true)
    expect(nm:contains({ 3, 10 }, 3.1)):eq(false)
  end)

  it("random points cover the mesh evenly, the same from the same stream", function()
    local s = random.new(7)
    local left, n = 0, 4000
    local first
    for i = 1, n do
      local p = nm:random_point(s)
      if i == 1 then first = p end
      expect(nm:contains(p)):eq(true)
      if p.x < 15 then left = left + 1 end
    end
    -- the left half holds (15 * 20 - 8 - 9) / (600 - 26) of the area
    expect(left / n):near((300 - 8 - 9) / 574, 0.03)
    expect(nm:random_point(random.new(7))):eq(first)
  end)
end)

describe("w:add_navmesh", function()
  it("makes the mesh's walls the world's: raycasts hit them, and agents stay on the mesh", function()
    local nm = hall(2)
    local w = steer.world{ collide = true }
    w:add_navmesh(nm)
    w:add_navmesh(nm) -- again: nothing
    local hit = w:raycast({ 2, 2 }, { 1, 0 }, 26)
    expect(hit, "a wall in the way"):type("table")
    expect(hit.point.x):near(14.5, 1e-5)
    local brain = steer.blend{ { steer.seek{ target = steer.vec(40, 2) }, 1 }, { steer.avoid_walls{}, 2 } }
    local agents = {}
    for i = 1, 10 do agents[i] = w:spawn{ position = { 2 + i, 1 + i }, radius = 0.3, max_speed = 3, brain = brain } end
    for _ = 1, 600 do
      w:step(1)
      for _, a in ipairs(agents) do expect(nm:contains(a.position), "agent on the mesh"):eq(true) end
    end
    -- in a 3D world: walls from the ground (z 0) up `height`: a ray over them passes
    local w3 = steer.world{ dim = 3 }
    w3:add_navmesh(nm, { height = 1 })
    expect(w3:raycast({ 2, 2, 0.5 }, { 1, 0, 0 }, 26).point.x):near(14.5, 1e-5)
    expect(w3:raycast({ 2, 2, 1.5 }, { 1, 0, 0 }, 26), "over the walls"):eq(nil)
    expect(function() w3:add_navmesh(nm, { height = 0 }) end):raises("steer.world:add_navmesh", "height")
    expect(function() w3:add_navmesh(nm, { layer = 2 }) end):raises("steer.world:add_navmesh", "layer")
  end)
end)

describe("navmesh bytes", function()
  it("load back to the same mesh and the same paths, bit for bit", function()
    local nm = hall(2)
    local bytes = nm:save()
    local back = steer.navmesh_load(bytes)
    expect(back.hash):eq(nm.hash)
    expect(back:save()):eq(bytes)
    local a = nm:path({ 2, 10 }, { 28, 4 }, { radius = 0.4 })
    local b = back:path({ 2, 10 }, { 28, 4 }, { radius = 0.4 })
    for i = 1, #a do expect(b[i]):eq(a[i]) end
  end)

  it("refuse damaged bytes with a message", function()
    local bytes = hall(2):save()
    local function load(s) return function() steer.navmesh_load(s) end end
    expect(load(bytes:sub(1, 40))):raises("steer.navmesh_load")
    expect(load("nonsense")):raises("steer.navmesh_load", "not a navigation mesh")
    local flipped = bytes:sub(1, 60) .. string.char((bytes:byte(61) + 1) % 256) .. bytes:sub(62)
    expect(load(flipped)):raises("steer.navmesh_load")
    expect(load(bytes .. "x")):raises("steer.navmesh_load", "past the end")
  end)
end)

describe("navmesh errors", function()
  local function raises(fn, ...) expect(fn):raises_here(...) end
  it("name the function and the argument", function()
    raises(function() steer.navmesh{} end, "steer.navmesh", "field 'outline'")
    raises(function() steer.navmesh(3) end, "steer.navmesh", "a table")
    raises(function() steer.navmesh{ outline = { { 0, 0 }, { 1, 0 } } } end, "steer.navmesh", "at least 3 points")
    raises(function() steer.navmesh{ outline = { { 0, 0 }, { 1, 0 }, { 0 / 0, 1 } } } end, "steer.navmesh",
      "outline[3]")
    raises(function() steer.navmesh{ outline = box(0, 0, 1, 1), obstacles = { 3 } } end, "steer.navmesh",
      "obstacles[1]")
    raises(function() steer.navmesh{ outline = box(0, 0, 1, 1), costs = { mud = 2 } } end, "steer.navmesh",
      "costs.mud")
    raises(function() steer.navmesh{ outline = box(0, 0, 1, 1), obstacles = { box(-1, -1, 2, 2) } } end,
      "steer.navmesh", "nothing is walkable")
    raises(function() steer.navmesh{ outline = box(0, 0, 1, 1), bogus = 1 } end, "steer.navmesh", "bogus")
    local nm = steer.navmesh{ outline = box(0, 0, 10, 10) }
    raises(function() nm:path({ 1, 1 }, "x") end, "steer.navmesh:path", "to")
    raises(function() nm:path({ 1, 1 }, { 2, 2 }, { radius = -1 }) end, "steer.navmesh:path", "radius")
    raises(function() nm:path({ 1, 1 }, { 2, 2 }, { exclude = { "lava" } }) end, "steer.navmesh:path", "exclude[1]")
    raises(function() nm:random_point() end, "steer.navmesh:random_point", "stream")
    raises(function() nm:raycast({ -1, -1 }, { 2, 2 }) end, "steer.navmesh:raycast", "off the mesh")
  end)
end)

spec.report()
