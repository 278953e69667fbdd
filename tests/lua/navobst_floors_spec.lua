-- SPDX-License-Identifier: MIT
-- navobst_floors_spec.lua — obstacles on a baked mesh of two floors
-- (demos/building.obj, issue 33 item 4): a crate in a first floor door
-- closes that door on that floor only (the ground floor's door under it
-- stays open, its paths the same); the obstacle stands on the layer named,
-- or on the ground under its centre nearest below its z; a crate pushed
-- along the first floor's corridor forty times leaves the mesh it would
-- have with the crate put there at once, its new vertices on the floor's
-- ground; crates by the stair's foot on both of its layers keep the stair
-- open; one across the stair's seam is refused, the mesh as it was; the
-- bytes (version 6) load back with the obstacles on their layers. A
-- world's walls from the mesh (w:add_navmesh) follow its obstacles from the
-- next tick on: an agent seeking through a crate put there later is held
-- by it, in a 3D world on its floor only; a snapshot taken between a move
-- and the next tick goes on as the run never stopped; after an in-place
-- w:restore the script's nm and obstacle handles change the world's mesh.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local root = debug.getinfo(1, "S").source:match("^@(.*)/tests/lua/[^/]*$") or "."
if os.getenv("STEER_RECAST") == "0" then
  describe("obstacles on floors", function() it("needs a build that bakes (Recast)", function() end) end)
  return
end
local function bake()
  return steer.navmesh{ obj = root .. "/demos/building.obj", agent = { height = 2, climb = 0.5, slope = 45 } }
end
local nm0 = bake()
local UP = nm0:height({ 35, 5 }, { layer = 2 }) -- the first floor's ground, 3.5 m
local R = { radius = 0.3 }
local DOOR = { min = { 14.2, 9.4 }, max = { 15.8, 10.6 } } -- the door of the second south room, x 14.4 .. 15.6

local function same_path(a, b)
  if #a ~= #b then return false end
  for i = 1, #a do
    if a[i].x ~= b[i].x or a[i].y ~= b[i].y or a[i].z ~= b[i].z then return false end
  end
  return true
end

describe("obstacles on a baked mesh of two floors", function()
  it("close a first floor door on the first floor only", function()
    local nm = bake()
    local up0, lup0 = nm:path({ 15, 5, UP }, { 15, 12, UP }, R)
    local down0 = nm:path({ 15, 5, 0 }, { 15, 12, 0 }, R)
    expect(lup0, "through the door, upstairs"):near(7, 1e-9)
    local crate = nm:add_obstacle{ box = DOOR, z = UP }
    expect(crate.layer, "on the ground under its centre nearest below z: the first floor"):eq(2)
    local up, why = nm:path({ 15, 5, UP }, { 15, 12, UP }, R)
    expect(up, "the room's one door is shut: " .. tostring(why)):eq(nil)
    local down = nm:path({ 15, 5, 0 }, { 15, 12, 0 }, R)
    expect(same_path(down, down0), "the ground floor's door under it: the same path"):eq(true)
    -- the room upstairs is still reached from inside, at the first floor's height
    local inside = nm:path({ 12, 3, UP }, { 18, 7, UP }, R)
    expect(inside ~= nil, "inside the room"):eq(true)
    for _, p in ipairs(inside) do expect(math.abs(p.z - UP), "on the first floor"):le(1e-9) end
    crate:remove()
    local again = nm:path({ 15, 5, UP }, { 15, 12, UP }, R)
    expect(same_path(again, up0), "open again once removed"):eq(true)
    expect(nm.hash, "the mesh it was"):eq(nm0.hash)
  end)

  it("stands on the layer named, or by default on the lowest ground under its centre", function()
    local nm = bake()
    local low = nm:add_obstacle{ box = DOOR }
    expect(low.layer, "no layer nor z: the lowest ground there"):eq(1)
    expect(nm:path({ 15, 5, 0 }, { 15, 12, 0 }, R), "the ground floor's door shut"):eq(nil)
    expect(nm:path({ 15, 5, UP }, { 15, 12, UP }, R) ~= nil, "the first floor's open"):eq(true)
    local high = nm:add_obstacle{ box = DOOR, layer = 2 }
    expect(high.layer):eq(2)
    expect(nm:path({ 15, 5, UP }, { 15, 12, UP }, R), "both shut"):eq(nil)
  end)

  it("pushed forty times along the first floor's corridor, gives the mesh of the crate put there at once", function()
    local nm = bake()
    local crate = nm:add_obstacle{ box = { min = { 2, 11.5 }, max = { 3, 12.5 } }, layer = 2 }
    local door = nm:add_obstacle{ box = DOOR, layer = 2 }
    for _ = 1, 40 do crate:move(0.5, 0) end
    local fresh = bake()
    fresh:add_obstacle{ box = { min = { 22, 11.5 }, max = { 23, 12.5 } }, layer = 2 }
    fresh:add_obstacle{ box = DOOR, layer = 2 }
    expect(nm.hash, "the same mesh, bit for bit"):eq(fresh.hash)
    -- the crate's corners are new vertices: on the first floor's ground
    for _, c in ipairs({ { 22, 11.5 }, { 23, 11.5 }, { 23, 12.5 }, { 22, 12.5 } }) do
      expect(nm:height(c, { layer = 2 }), "a corner's height"):near(UP, 1e-9)
    end
    local p, l = nm:path({ 5, 12, UP }, { 35, 12, UP }, R)
    expect(p ~= nil and l > 30, "round the crate"):eq(true)
    for _, q in ipairs(p) do expect(math.abs(q.z - UP), "upstairs all the way"):le(1e-9) end
    local pd, ld = nm:path({ 5, 12, 0 }, { 35, 12, 0 }, R)
    local p0, l0 = nm0:path({ 5, 12, 0 }, { 35, 12, 0 }, R)
    expect(ld, "the ground floor's corridor as it was"):eq(l0)
    expect(same_path(pd, p0)):eq(true)
    crate:remove()
    door:remove()
    expect(nm.hash, "all removed: the mesh as baked"):eq(nm0.hash)
  end)

  it("keeps the stair open with crates by its foot on both its layers, and refuses one across the seam", function()
    local nm = bake()
    local _, l0 = nm:path({ 5, 12, 0 }, { 35, 5, UP }, R)
    -- the stair's foot: layer 1 up to y 14.4, layer 2 from there
    local a = nm:add_obstacle{ box = { min = { 24.3, 14.1 }, max = { 24.6, 14.39 } }, layer = 1 }
    local b = nm:add_obstacle{ box = { min = { 24.3, 14.41 }, max = { 24.6, 14.7 } }, layer = 2 }
    expect(a.layer .. b.layer, "one on each side of the seam"):eq("12")
    local p, l = nm:path({ 5, 12, 0 }, { 35, 5, UP }, R)
    expect(p ~= nil and l >= l0, "up the stair, past the crates"):eq(true)
    expect(math.abs(p[#p].z - UP), "to the first floor"):le(1e-9)
    -- the same obstacles added the other way round: the same mesh
    local other = bake()
    other:add_obstacle{ box = { min = { 24.3, 14.41 }, max = { 24.6, 14.7 } }, layer = 2 }
    other:add_obstacle{ box = { min = { 24.3, 14.1 }, max = { 24.6, 14.39 } }, layer = 1 }
    expect(other.hash):eq(nm.hash)
    local hash = nm.hash
    local ok, err = pcall(nm.add_obstacle, nm, { box = { min = { 24, 13.5 }, max = { 25.5, 16 } }, layer = 2 })
    expect(ok, "across the seam"):eq(false)
    expect(err):contains("add_obstacle: its footprint cuts where its floor meets another layer's ground")
    expect(nm.hash, "the mesh as it was"):eq(hash)
    expect(#nm:obstacles()):eq(2)
    ok, err = pcall(b.move, b, 0, -0.2)
    expect(ok, "moved onto the seam"):eq(false)
    expect(err):contains("obstacle:move: its footprint cuts")
    expect(nm.hash, "still as it was"):eq(hash)
  end)

  it("saves and loads with the obstacles on their layers, and goes on the same", function()
    local nm = bake()
    nm:add_obstacle{ box = DOOR, layer = 2 }
    local crate = nm:add_obstacle{ box = { min = { 2, 11.5 }, max = { 3, 12.5 } }, layer = 2 }
    crate:move(3, 0)
    local bytes = nm:save()
    expect(string.unpack("<I4", bytes, 5), "version 8: obstacles with their layers"):eq(8)
    local l = steer.navmesh_load(bytes)
    expect(l.hash):eq(nm.hash)
    local obs = l:obstacles()
    expect(#obs):eq(2)
    expect(obs[1].layer .. obs[2].layer):eq("22")
    obs[2]:move(10, 0)
    crate:move(10, 0)
    expect(l.hash, "moved alike after the load"):eq(nm.hash)
    -- a world navigating it, saved and loaded mid-run
    local w = steer.world{ dim = 3, seed = 3 }
    w:add_navmesh(nm)
    local brain = steer.reciprocal{ steer.navigate{ navmesh = nm, stop_radius = 0.3 } }
    for i = 0, 3 do
      w:spawn{ position = { 3 + 2 * i, 12, UP }, target = { 36 - i, 12, UP }, radius = 0.3, max_speed = 2,
        max_force = 6, brain = brain }
    end
    w:step(120)
    local w2 = steer.load(w:save())
    for _ = 1, 3 do
      w:step(60)
      w2:step(60)
      expect(w2:hash(), "the loaded world"):eq(w:hash())
    end
  end)

  it("refuses a bad layer naming the field", function()
    local nm = bake()
    local ok, err = pcall(nm.add_obstacle, nm, { box = DOOR, layer = 3 })
    expect(ok):eq(false)
    expect(err):contains("add_obstacle: field 'layer' expected a layer of the mesh (an integer from 1 to 2)")
    ok, err = pcall(nm.add_obstacle, nm, { box = DOOR, layer = 2, z = 1 })
    expect(ok):eq(false)
    expect(err):contains("expected 'layer' or 'z'")
    ok, err = pcall(nm.add_obstacle, nm, { box = DOOR, z = 0 / 0 })
    expect(ok):eq(false)
    expect(err):contains("field 'z'")
  end)
end)

describe("a world's walls from a mesh with obstacles", function()
  -- a crate across the first floor's corridor (y 10 .. 14), x 20 .. 21
  local CRATE = { min = { 20, 9.8 }, max = { 21, 14.2 } }
  local function world(nm)
    local w = steer.world{ dim = 3, seed = 2, collide = true }
    w:add_navmesh(nm)
    local brain = steer.blend{ { steer.avoid_walls{}, 1 }, { steer.seek{}, 1 } }
    local up = w:spawn{ position = { 15, 12, UP }, target = { 30, 12, UP }, radius = 0.3, max_speed = 2,
      max_force = 6, brain = brain }
    local down = w:spawn{ position = { 15, 12, 0 }, target = { 30, 12, 0 }, radius = 0.3, max_speed = 2,
      max_force = 6, brain = brain }
    return w, up, down
  end

  it("hold an agent at a crate added after w:add_navmesh, on its floor only", function()
    local nm = bake()
    local w, up, down = world(nm)
    w:step()
    local crate = nm:add_obstacle{ box = CRATE, layer = 2 }
    local most = 0
    for _ = 1, 600 do
      w:step()
      most = math.max(most, up.position.x)
    end
    expect(most, "upstairs: held before the crate"):lt(20)
    expect(down.position.x, "downstairs: under it, walked on"):gt(29)
    expect(w:raycast({ 15, 12, UP + 0.5 }, { 1, 0, 0 }, 15) ~= nil, "a ray upstairs hits it"):eq(true)
    crate:remove()
    w:step(600)
    expect(up.position.x, "removed: walked on"):gt(29)
  end)

  it("goes on after a snapshot taken between a move and the next tick as if never stopped", function()
    local nm = bake()
    local w = world(nm)
    local crate = nm:add_obstacle{ box = CRATE, layer = 2 }
    w:step(60)
    crate:move(1, 0)
    local l = steer.load(w:save())
    for _ = 1, 4 do
      w:step(30)
      l:step(30)
      expect(l:hash(), "the loaded world"):eq(w:hash())
    end
  end)

  it("after w:restore, move the world's mesh through the script's nm and obstacle handles", function()
    local nm = bake()
    local w, up = world(nm)
    local crate = nm:add_obstacle{ box = CRATE, layer = 2 }
    local nav = steer.navigate{ navmesh = nm, stop_radius = 0.3 } -- a tree the script holds
    w:step(10)
    local saved, held = w:save(), nm.hash
    crate:remove()
    w:step(10)
    expect(crate.alive, "removed before the restore"):eq(false)
    w:restore(saved)
    expect(crate.alive, "the handle names the world's crate again"):eq(true)
    expect(nm.hash, "nm is the world's mesh, as saved"):eq(held)
    expect(#nm:obstacles()):eq(1)
    -- the crate shuts the corridor: the way round is through the north-west
    -- door, its room, the bridge and the north-east room (on a mesh without
    -- the crate the tree would lead straight along the corridor, y 11)
    local a = w:spawn{ position = { 15, 11, UP }, target = { 30, 11, UP }, radius = 0.3, max_speed = 2,
      max_force = 6, brain = nav }
    local north = 0
    for _ = 1, 480 do
      w:step()
      north = math.max(north, a.position.y)
      local inside = a.position.x > 19.7 and a.position.x < 21.3 and a.position.y < 14.5
      expect(inside, "the script's tree plans on the world's mesh: never at the crate"):eq(false)
    end
    expect(north, "the script's tree plans on the world's mesh: round by the north rooms"):gt(14.5)
    expect(up.position.x, "held by the crate"):lt(20)
    crate:remove()
    expect(nm.hash, "removed from the world's mesh"):eq(nm0.hash)
    w:step(600)
    expect(up.position.x, "the world's walls follow: walked on"):gt(29)
  end)
end)
