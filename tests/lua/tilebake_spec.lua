-- SPDX-License-Identifier: MIT
-- tilebake_spec.lua — a bake in tiles (issue 33: large levels): a level
-- made here, 60 x 40 m, baked in 10 m tiles (6 x 4), with a corridor wall
-- and a deck 3 m up, over the ground, reached by a ramp, both across tile
-- lines. Paths, rays and slides cross the lines in both directions on
-- both floors as if there were none, no wall stands on a tile line, an
-- agent walking across them stays on the mesh (on the deck at its
-- height), a floor is one layer across the tiles it spans (as in a bake
-- of the whole) and `layer = k` picks all of it, two bakes give the same
-- bytes, the default bakes a level this
-- small in one tile, and a tile too small raises naming the field.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

if os.getenv("STEER_RECAST") == "0" then
  describe("a bake in tiles", function() it("needs a build that bakes (Recast)", function() end) end)
  return
end

-- the soup: v (z up), t (1-based, a top counter-clockwise seen from above)
local v, t = {}, {}
local function quad(a, b, c, d)
  local n = #v
  v[n + 1], v[n + 2], v[n + 3], v[n + 4] = a, b, c, d
  t[#t + 1] = { n + 1, n + 2, n + 3 }
  t[#t + 1] = { n + 1, n + 3, n + 4 }
end
-- a box: its top and four sides
local function box(x0, y0, z0, x1, y1, z1)
  quad({ x0, y0, z1 }, { x1, y0, z1 }, { x1, y1, z1 }, { x0, y1, z1 })
  local c = { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } }
  for i = 1, 4 do
    local p, q = c[i], c[i % 4 + 1]
    quad({ p[1], p[2], z0 }, { q[1], q[2], z0 }, { q[1], q[2], z1 }, { p[1], p[2], z1 })
  end
end
quad({ 0, 0, 0 }, { 60, 0, 0 }, { 60, 40, 0 }, { 0, 40, 0 }) -- the ground
box(0, 17.3, 0, 48, 17.7, 2.5)                               -- a wall: the corridor south of it, open at its east end
box(15, 25, 2.8, 45, 35, 3)                                  -- the deck, 3 m up, over the ground
quad({ 5, 25, 0 }, { 15, 25, 3 }, { 15, 35, 3 }, { 5, 35, 0 }) -- the ramp up to it

local agent = { height = 2, climb = 0.5, slope = 45 }
local TILE = 10
local function bake(tile) return steer.navmesh{ vertices = v, triangles = t, agent = agent, tile = tile } end
local nm, one = bake(TILE), bake()

local function length(p)
  local s = 0
  for i = 2, #p do s = s + math.sqrt((p[i].x - p[i - 1].x) ^ 2 + (p[i].y - p[i - 1].y) ^ 2) end
  return s
end

describe("a bake in tiles", function()
  it("has the ground of a bake in one tile, a floor one layer across its tiles", function()
    expect(one.layer_count, "one tile: the ground and the deck (ramp)"):le(3)
    -- (in tiles, two more: the strips a cell wide on the wall's top and
    -- inside it, which one bake's contours simplify away; 46 layers when
    -- each tile's floors were layers of their own)
    expect(nm.layer_count, "the layers of 24 tiles"):le(one.layer_count + 2)
    expect(math.abs(nm.area - one.area) / one.area, "the walkable area, against one tile's"):le(0.01)
    local function layer_at(x, y, z)
      local h, k = nm:height({ x, y, z })
      expect(h ~= nil and math.abs(h - z) < 0.01, "ground at (" .. x .. ", " .. y .. ", " .. z .. ")"):eq(true)
      return k
    end
    local ground, deck = layer_at(2, 2, 0), layer_at(16, 26, 3)
    for x = 1, 59, 6 do
      for y = 1, 39, 4.5 do
        if math.abs(y - 17.5) > 0.5 and not (x > 4 and x < 46 and y > 24 and y < 36) then
          expect(layer_at(x, y, 0), "the ground at (" .. x .. ", " .. y .. ") on one layer"):eq(ground)
        end
      end
    end
    for x = 16, 44, 4 do
      for y = 26, 34, 4 do expect(layer_at(x, y, 3), "the deck at (" .. x .. ", " .. y .. ") on one layer"):eq(deck) end
    end
    expect(deck ~= ground, "the deck over the ground is a layer of its own"):eq(true)
  end)

  it("picks a whole floor across tiles with layer = k, and no layer lies over itself", function()
    local _, deck = nm:height({ 16, 26, 3 })
    for _, p in ipairs({ { 16, 26 }, { 25, 30 }, { 35, 34 }, { 44, 26 } }) do -- the deck's four tiles along x
      local z = nm:height({ p[1], p[2], 0 }, { layer = deck })
      expect(z and math.abs(z - 3) < 0.01, "layer " .. deck .. " at (" .. p[1] .. ", " .. p[2] .. ") is the deck"):eq(true)
      local q = nm:nearest({ p[1], p[2], 0 }, { layer = deck })
      expect(math.abs(q.z - 3), "the nearest point on the deck's layer, on the deck (m)"):le(0.01)
    end
    local p = assert(nm:path({ 17, 28, 0 }, { 43, 33, 0 }, { layer = deck, to_layer = deck }))
    for _, q in ipairs(p) do expect(math.abs(q.z - 3), "a path on the deck's layer keeps to the deck (m)"):le(0.01) end
    -- planar: no point lies in two triangles of one layer
    local tris = nm:triangles()
    local function inside(tri, x, y)
      local a, b, c = tri[1], tri[2], tri[3]
      local d1 = (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x)
      local d2 = (c.x - b.x) * (y - b.y) - (c.y - b.y) * (x - b.x)
      local d3 = (a.x - c.x) * (y - c.y) - (a.y - c.y) * (x - c.x)
      return d1 > 1e-9 and d2 > 1e-9 and d3 > 1e-9
    end
    local twice = 0
    for x = 0.37, 60, 1.1 do
      for y = 0.29, 40, 0.9 do
        local seen = {}
        for _, tri in ipairs(tris) do
          if inside(tri, x, y) then
            if seen[tri.layer] then twice = twice + 1 end
            seen[tri.layer] = true
          end
        end
      end
    end
    expect(twice, "points in two triangles of one layer"):eq(0)
  end)

  it("stands no wall on a line between tiles", function()
    local function on_line(a, b, k) return a[k] == b[k] and a[k] % TILE == 0 and a[k] > 0 and a[k] < (k == "x" and 60 or 40) end
    local n = 0
    for _, w in ipairs(nm:walls()) do
      if on_line(w[1], w[2], "x") or on_line(w[1], w[2], "y") then n = n + 1 end
    end
    expect(n, "walls along tile lines"):eq(0)
  end)

  it("finds paths across tile lines in both directions on the ground", function()
    for _, e in ipairs({ { { 2, 5, 0 }, { 58, 5, 0 }, 56 }, { { 55, 2, 0 }, { 55, 38, 0 }, 36 } }) do
      for dir = 1, 2 do
        local a, b = e[dir], e[3 - dir]
        local p = assert(nm:path(a, b))
        expect(length(p), "a straight way, no detour at a seam (m)"):le(e[3] + 1e-6)
        expect(nm:raycast(a, b), "a clear ray along it"):eq(nil)
        local q = nm:move_along(a, b)
        expect(math.abs(q.x - b[1]) + math.abs(q.y - b[2]), "a slide reaches its end"):le(1e-6)
      end
    end
  end)

  it("finds paths across tile lines in both directions on the deck, at its height", function()
    for _, e in ipairs({ { { 17, 28, 3 }, { 43, 28, 3 } }, { { 25, 26, 3 }, { 25, 34, 3 } } }) do
      for dir = 1, 2 do
        local a, b = e[dir], e[3 - dir]
        local p = assert(nm:path(a, b))
        expect(length(p), "straight (m)"):le(math.sqrt((a[1] - b[1]) ^ 2 + (a[2] - b[2]) ^ 2) + 1e-6)
        for _, q in ipairs(p) do expect(math.abs(q.z - 3), "on the deck (m)"):le(0.01) end
        expect(nm:raycast(a, b), "a clear ray on the deck"):eq(nil)
      end
    end
    -- from the ground up the ramp (across x = 10) onto the deck, and down again
    local up = assert(nm:path({ 2, 30, 0 }, { 40, 28, 3 }))
    expect(math.abs(up[#up].z - 3), "ends on the deck"):le(0.01)
    local down = assert(nm:path({ 40, 28, 3 }, { 2, 30, 0 }))
    expect(math.abs(down[#down].z), "ends on the ground"):le(0.01)
    expect(math.abs(length(up) - length(down)), "the same way both directions (m)"):le(0.01)
  end)

  it("walks an agent across tile lines on the ground and on the deck, on the mesh every tick", function()
    local w = steer.world{ dim = 3, seed = 3 }
    local brain = steer.navigate{ navmesh = nm, stop_radius = 0.3 }
    local runs = { { { 2, 5, 0 }, { 58, 12, 0 } }, { { 17, 28, 3 }, { 43, 33, 3 } }, { { 58, 14, 0 }, { 3, 3, 0 } } }
    local agents, arrived = {}, {}
    for i, r in ipairs(runs) do
      agents[i] = w:spawn{ position = r[1], radius = 0.3, max_speed = 3, max_force = 8, brain = brain, target = r[2] }
    end
    w:on("arrive", function(a) arrived[a] = true end)
    local off, deck = 0, 0
    for _ = 1, 1500 do
      w:step()
      for i, a in ipairs(agents) do
        if not nm:contains(a.position) then off = off + 1 end
        if i == 2 then deck = math.max(deck, math.abs(a.position.z - 3)) end
      end
    end
    for i, a in ipairs(agents) do expect(arrived[a], "agent " .. i .. " arrived"):eq(true) end
    expect(off, "ticks off the mesh"):eq(0)
    expect(deck, "on the deck's height all the way (m)"):le(0.01)
  end)

  it("gives the same bytes on two bakes, loads back the same, and bakes a small level in one tile by default", function()
    local s = nm:save()
    expect(bake(TILE):save() == s, "two bakes, the same bytes"):eq(true)
    expect(steer.navmesh_load(s).hash):eq(nm.hash)
    expect(one:save() == bake(1e6):save(), "the default: one tile, as a tile larger than the level"):eq(true)
    expect(one.hash ~= nm.hash, "tiles change the mesh"):eq(true)
  end)

  it("raises on a tile out of range, naming the field and what it expects", function()
    for _, bad in ipairs({ 1, -10, 0, "big", 1e7 }) do
      local ok, err = pcall(bake, bad)
      expect(ok, "tile = " .. tostring(bad)):eq(false)
      err = tostring(err)
      for _, s in ipairs({ "steer.navmesh", "tile", "32 cells" }) do
        expect(err:find(s, 1, true) ~= nil, err .. " has '" .. s .. "'"):eq(true)
      end
    end
  end)
end)
