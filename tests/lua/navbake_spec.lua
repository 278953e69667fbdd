-- SPDX-License-Identifier: MIT
-- navbake_spec.lua — steer.navmesh{ vertices = ..., triangles = ... } and
-- steer.navmesh{ obj = ... }: a mesh baked from level geometry (issue 33)
-- is walked around a box, is the same whether the soup comes as tables or
-- as an OBJ file (y up), saves and loads back to the same hash, and bad
-- input raises naming steer.navmesh, the field and what was expected. In a
-- build without Recast (meson's STEER_RECAST=0) a bake says so, plainly.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local root = debug.getinfo(1, "S").source:match("^@(.*)/tests/lua/[^/]*$") or "."
local data = root .. "/tests/lua/data/"

local function raises(f, ...)
  local ok, err = pcall(f)
  expect(ok, "raised"):eq(false)
  for _, s in ipairs({ ... }) do expect(tostring(err):find(s, 1, true) ~= nil, err .. " has '" .. s .. "'"):eq(true) end
end

-- a 20 m floor with a 4 m box, 2 m tall, in its middle (tests/lua/data/bake_box.obj is the same, y up)
local function floor_box()
  local v = { { 0, 0, 0 }, { 20, 0, 0 }, { 20, 20, 0 }, { 0, 20, 0 },
    { 8, 8, 0 }, { 12, 8, 0 }, { 12, 12, 0 }, { 8, 12, 0 }, { 8, 8, 2 }, { 12, 8, 2 }, { 12, 12, 2 }, { 8, 12, 2 } }
  local t = { { 1, 2, 3 }, { 1, 3, 4 }, { 9, 10, 11 }, { 9, 11, 12 } }
  for i = 0, 3 do
    local j = (i + 1) % 4
    t[#t + 1] = { 5 + i, 5 + j, 9 + j }
    t[#t + 1] = { 5 + i, 9 + j, 9 + i }
  end
  return v, t
end

local agent = { height = 2, climb = 0.4, slope = 45 }
local bakes = os.getenv("STEER_RECAST")
if bakes == nil then -- busted, or another runner: ask the build
  local v, t = floor_box()
  local ok, err = pcall(steer.navmesh, { vertices = v, triangles = t })
  bakes = (ok or not tostring(err):find("no baking", 1, true)) and "1" or "0"
end

describe("steer.navmesh baked from level geometry", function()
  if bakes ~= "1" then
    it("says this build has no baking, and which package to install", function()
      local v, t = floor_box()
      raises(function() steer.navmesh{ vertices = v, triangles = t, agent = agent } end, "steer.navmesh",
        "this build has no baking (Recast)", "librecast-dev")
      raises(function() steer.navmesh{ obj = data .. "bake_box.obj" } end, "steer.navmesh", "no baking")
      -- a mesh built from rings, or loaded, is the same as anywhere
      expect(steer.navmesh{ outline = { { 0, 0 }, { 1, 0 }, { 1, 1 } } }.hash):eq(
        steer.navmesh{ outline = { { 1, 0 }, { 1, 1 }, { 0, 0 } } }.hash)
    end)
    return
  end

  it("walks around a box on a floor, and a saved bake loads back the same", function()
    local v, t = floor_box()
    local nm = steer.navmesh{ vertices = v, triangles = t, agent = agent }
    local p = assert(nm:path({ 1, 10 }, { 19, 10 }))
    expect(#p, "path points"):ge(3)
    for i = 1, #p - 1 do
      for k = 0, 50 do
        local q = p[i] + (p[i + 1] - p[i]) * (k / 50)
        expect(q.x > 8 and q.x < 12 and q.y > 8 and q.y < 12, "the path crosses the box"):eq(false)
      end
    end
    expect(nm:contains({ 3, 3 }, 0.5)):eq(true)
    local back = steer.navmesh_load(nm:save())
    expect(back.hash):eq(nm.hash)
    -- triangles as a flat list of indices: the same mesh
    local flat = {}
    for _, tri in ipairs(t) do for _, k in ipairs(tri) do flat[#flat + 1] = k end end
    expect(steer.navmesh{ vertices = v, triangles = flat, agent = agent }.hash):eq(nm.hash)
  end)

  it("reads an OBJ file (y up, quads fanned) to the same mesh", function()
    local v, t = floor_box()
    local nm = steer.navmesh{ vertices = v, triangles = t, agent = agent }
    expect(steer.navmesh{ obj = data .. "bake_box.obj", agent = agent }.hash):eq(nm.hash)
    expect(steer.navmesh{ obj = data .. "bake_box.obj", up = "y", agent = agent }.hash):eq(nm.hash)
    -- read z up, the floor stands on its edge (and the box's sides lie flat): another mesh
    expect(steer.navmesh{ obj = data .. "bake_box.obj", up = "z", agent = agent }.hash ~= nm.hash):eq(true)
  end)

  -- demos/building.obj: two storeys, a stair in the atrium up to a bridge
  -- across it (issue 33 item 2); the stair's 0.25 m steps need a 0.5 m climb
  local up = { height = 2, climb = 0.5, slope = 45 }
  it("bakes a building of two floors: the stair climbs, the bridge is over the atrium", function()
    local nm = steer.navmesh{ obj = root .. "/demos/building.obj", agent = up }
    expect(nm.layer_count, "layers"):eq(2)
    -- under the bridge and on it, in a room and over it: each floor's true
    -- height, to the centimetre
    local z, layer = nm:height({ 20, 19.2, 0 })
    expect(math.abs(z) < 0.01 and layer == 1, "under the bridge: " .. z):eq(true)
    z, layer = nm:height({ 20, 19.2, 3.5 })
    expect(math.abs(z - 3.5) < 0.01 and layer == 2, "on the bridge: " .. z):eq(true)
    expect(math.abs(nm:height({ 5, 5 }, { layer = 2 }) - 3.5) < 0.01, "the room over the room"):eq(true)
    for _, q in ipairs({ { 5, 5 }, { 35, 5 }, { 20, 12 }, { 7, 20 }, { -3, -3 }, { 23.5, 14.3 }, { 23.7, 15 }, { 27, 14.5 },
      { 24.75, 13.8 } }) do -- rooms, the corridor, the plaza, the ground beside the stair's foot
      z = nm:height({ q[1], q[2], 0 })
      expect(math.abs(z) < 0.01, ("the ground at (%g, %g): %g"):format(q[1], q[2], z)):eq(true)
    end
    -- the stair (14 steps of 0.25 m rise, 0.3 m run, north from y 14): within a step
    for y = 14.05, 18.15, 0.1 do
      local step = 0.25 * math.ceil((y - 14) / 0.3)
      z = nm:height({ 24.75, y, step })
      expect(math.abs(z - step) <= 0.25, ("the stair at y %g: %g, the step %g"):format(y, z, step)):eq(true)
    end
    -- from a ground floor room to the room over the one beside it: up the stair
    local p = assert(nm:path({ 5, 5, 0 }, { 35, 5, 3.5 }))
    expect(p[1].z < 0.5 and p[#p].z > 3, "from the ground up"):eq(true)
    local on_stair = 0
    for i = 2, #p do
      expect(p[i].z >= p[i - 1].z - 1e-9, "heights never fall on the way up"):eq(true)
      if p[i].x > 24 and p[i].x < 25.5 and p[i].y > 14 and p[i].y < 18.2 then
        on_stair = on_stair + 1
        local step = 0.25 * math.ceil((p[i].y - 14) / 0.3)
        expect(math.abs(p[i].z - step) <= 0.25, ("a corner on the stair: %g, the step %g"):format(p[i].z, step)):eq(true)
      elseif p[i].y < 14 or p[i].y > 18.2 then
        expect(math.abs(p[i].z) < 0.01 or math.abs(p[i].z - 3.5) < 0.01, "off the stair, a floor: " .. p[i].z):eq(true)
      end
    end
    expect(on_stair, "corners on the stair"):ge(1)
    -- the same ends on one floor each: no stair
    local flat = assert(nm:path({ 5, 5, 0 }, { 35, 5, 0 }))
    for _, q in ipairs(flat) do expect(math.abs(q.z) < 0.01, "the ground floor all the way"):eq(true) end
    local upper = assert(nm:path({ 5, 5 }, { 35, 5 }, { layer = 2 }))
    for _, q in ipairs(upper) do expect(math.abs(q.z - 3.5) < 0.01, "the first floor all the way"):eq(true) end
    -- saved and loaded: the same mesh, the same bytes
    local s = nm:save()
    local back = steer.navmesh_load(s)
    expect(back.hash):eq(nm.hash)
    expect(back:save() == s, "the same bytes"):eq(true)
    expect(back.layer_count):eq(2)
  end)

  it("loads the bytes of a mesh saved before height grids (version 2): heights are its triangles' planes", function()
    local f = assert(io.open(data .. "navmesh-v2-deck.bin", "rb"))
    local s = f:read("a")
    f:close()
    -- a deck 3 m up (x 10 .. 30, y 2 .. 8) and a ramp to it from x -10, baked and saved by steer before grids
    local nm = steer.navmesh_load(s)
    expect(nm.hash):eq("88fa387825997575")
    expect(nm.layer_count):eq(2)
    local z, layer = nm:height({ 20, 5, 3 })
    expect(layer):eq(2)
    expect(z > 2 and z < 3.2, "the plane through the deck's corners: " .. z):eq(true)
    expect(nm:save() == s, "saved again: the same bytes, version 2"):eq(true)
    -- baked today: the grids, the deck's own height
    local v, t = {}, {}
    local function quad(a, b, c, d)
      local n = #v
      for _, q in ipairs({ a, b, c, d }) do v[#v + 1] = q end
      t[#t + 1] = { n + 1, n + 2, n + 3 }
      t[#t + 1] = { n + 1, n + 3, n + 4 }
    end
    quad({ -20, -5, 0 }, { 40, -5, 0 }, { 40, 15, 0 }, { -20, 15, 0 })
    quad({ 10, 2, 3 }, { 30, 2, 3 }, { 30, 8, 3 }, { 10, 8, 3 })
    quad({ -10, 2, 0 }, { 10, 2, 3 }, { 10, 8, 3 }, { -10, 8, 0 })
    local baked = steer.navmesh{ vertices = v, triangles = t, agent = agent }
    expect(math.abs(baked:height({ 20, 5, 3 }) - 3) < 0.01, "the deck"):eq(true)
    local back = steer.navmesh_load(baked:save())
    expect(back.hash):eq(baked.hash)
    expect(back:height({ 20, 5, 3 })):eq(baked:height({ 20, 5, 3 }))
    expect(back:height({ 0, 5, 1.5 })):eq(baked:height({ 0, 5, 1.5 }))
  end)

  it("refuses bad input, naming the field and what was expected", function()
    local v, t = floor_box()
    raises(function() steer.navmesh{ vertices = {} } end, "steer.navmesh", "field 'vertices'")
    raises(function() steer.navmesh{ vertices = 3, triangles = t } end, "steer.navmesh", "field 'vertices'",
      "a list of points")
    raises(function() steer.navmesh{ vertices = v } end, "steer.navmesh", "field 'triangles'")
    local bad = { table.unpack(v) }
    bad[2] = { 0 / 0, 0, 0 }
    raises(function() steer.navmesh{ vertices = bad, triangles = t } end, "steer.navmesh", "vertices[2]")
    bad[2] = { 1e7, 0, 0 }
    raises(function() steer.navmesh{ vertices = bad, triangles = t } end, "steer.navmesh", "vertices[2]", "1e6")
    raises(function() steer.navmesh{ vertices = v, triangles = { { 1, 2, 13 } } } end, "steer.navmesh",
      "triangles[1][3]", "a vertex index from 1 to 12")
    raises(function() steer.navmesh{ vertices = v, triangles = { 1, 2, 0 } } end, "steer.navmesh", "triangles[3]")
    raises(function() steer.navmesh{ vertices = v, triangles = { 1, 2.5, 3 } } end, "steer.navmesh", "triangles[2]")
    raises(function() steer.navmesh{ vertices = v, triangles = { 1, 2, 3, 4 } } end, "steer.navmesh",
      "field 'triangles'", "3 vertex indices each")
    raises(function() steer.navmesh{ vertices = v, triangles = t, agent = { slope = 95 } } end, "steer.navmesh",
      "agent.slope")
    raises(function() steer.navmesh{ vertices = v, triangles = t, agent = { height = 0 / 0 } } end, "steer.navmesh",
      "agent.height")
    raises(function() steer.navmesh{ vertices = v, triangles = t, agent = { radius = 1 } } end, "steer.navmesh",
      "radius")
    raises(function() steer.navmesh{ vertices = v, triangles = t, cell = -1 } end, "steer.navmesh", "cell")
    raises(function() steer.navmesh{ vertices = v, triangles = t, up = "y" } end, "steer.navmesh", "field 'up'",
      "goes with 'obj'")
    raises(function() steer.navmesh{ vertices = v, triangles = t, outline = { { 0, 0 }, { 1, 0 }, { 1, 1 } } } end,
      "steer.navmesh", "field 'outline' cannot go with baking")
    raises(function() steer.navmesh{ obj = data .. "bake_box.obj", vertices = v } end, "steer.navmesh",
      "field 'vertices' cannot go with 'obj'")
    raises(function() steer.navmesh{ obj = data .. "bake_box.obj", up = "x" } end, "steer.navmesh", "field 'up'")
    raises(function() steer.navmesh{ obj = 3 } end, "steer.navmesh", "field 'obj'", "a string")
    raises(function() steer.navmesh{ obj = data .. "missing.obj" } end, "steer.navmesh", "missing.obj: cannot open")
    raises(function() steer.navmesh{ obj = data .. "bake_bad.obj" } end, "steer.navmesh",
      "bake_bad.obj:5: face corner '7' refers to a missing vertex")
    -- floors: a layer the mesh does not have
    local nm = steer.navmesh{ vertices = v, triangles = t, agent = agent }
    raises(function() nm:height({ 3, 3 }, { layer = 2 }) end, "steer.navmesh:height", "field 'layer'",
      "an integer from 1 to 1")
    raises(function() nm:path({ 3, 3 }, { 5, 5 }, { layer = 1.5 }) end, "steer.navmesh:path", "field 'layer'")
    raises(function() nm:path({ 3, 3 }, { 5, 5 }, { to_layer = 0 }) end, "steer.navmesh:path", "field 'to_layer'")
    raises(function() nm:raycast({ 3, 3 }, { 5, 5 }, { layer = 2 }) end, "steer.navmesh:raycast", "field 'layer'")
  end)
end)
