-- SPDX-License-Identifier: MIT
-- navobst_spec.lua — obstacles that come and go on a navigation mesh
-- (nm:add_obstacle): a crate in a door closes it and paths go round or
-- find none, and open again once it is removed; a crate pushed across a
-- corridor a hundred times leaves the mesh it would have with the crate
-- put there at once, and paths as long as a fresh build's; an agent whose
-- way the crate blocks plans again, one far away walks on bit for bit; a
-- saved mesh with obstacles loads back the same; a snapshot taken mid-run
-- goes on as the run never stopped; after w:restore a mesh the world's
-- brains alone hold is the script's nm again, as saved; bad input raises
-- naming the function and the field.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local function box(x0, y0, x1, y1) return { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } } end
local function dist(a, b) return math.sqrt((a.x - b.x) ^ 2 + (a.y - b.y) ^ 2) end

-- Two 20 x 20 rooms side by side, a wall at x = 20 with a 2 m door at y = 9 .. 11,
-- and a second door at y = 1 .. 3 far down.
local function rooms(second_door)
  local obstacles = { box(19.5, 11, 20.5, 20) }
  if second_door then
    obstacles[#obstacles + 1] = box(19.5, 3, 20.5, 9)
    obstacles[#obstacles + 1] = box(19.5, 0, 20.5, 1)
  else
    obstacles[#obstacles + 1] = box(19.5, 0, 20.5, 9)
  end
  return steer.navmesh{ outline = box(0, 0, 40, 20), obstacles = obstacles }
end

-- Every point of the path (sampled each 5 cm) at least r from every
-- obstacle polygon's inside (a point-in-box test grown by r).
local function keeps_off(path, b, r)
  for i = 1, #path - 1 do
    local a, c = path[i], path[i + 1]
    local n = math.max(1, math.ceil(dist(a, c) / 0.05))
    for k = 0, n do
      local p = a + (c - a) * (k / n)
      if p.x > b[1] - r + 1e-6 and p.x < b[3] + r - 1e-6 and p.y > b[2] - r + 1e-6 and p.y < b[4] + r - 1e-6 then
        return false
      end
    end
  end
  return true
end

describe("obstacles on a navmesh", function()
  it("close a door and open it again", function()
    local nm = rooms(true)
    local hash0 = nm.hash
    local p0, l0 = nm:path({ 5, 10 }, { 35, 10 }, { radius = 0.4 })
    expect(l0):near(30, 1e-9)
    local crate = nm:add_obstacle{ box = { min = { 19, 9.2 }, max = { 21, 10.8 } } }
    expect(crate.alive):eq(true)
    expect(crate.area):eq("blocked")
    local p1, l1 = nm:path({ 5, 10 }, { 35, 10 }, { radius = 0.4 })
    expect(p1, "a way round by the other door"):type("table")
    expect(l1):gt(l0 + 3)
    expect(keeps_off(p1, { 19, 9.2, 21, 10.8 }, 0.4)):eq(true)
    for _, p in ipairs(p1) do expect(p.y < 9 or p.y > 11 or p.x < 19 or p.x > 21):eq(true) end
    -- the crate in the only door: no way at all
    local one = rooms(false)
    one:add_obstacle{ box = { min = { 19, 8.5 }, max = { 21, 11.5 } } }
    local none, why = one:path({ 5, 10 }, { 35, 10 })
    expect(none):eq(nil)
    expect(why):eq("no way")
    crate:remove()
    expect(crate.alive):eq(false)
    local p2, l2 = nm:path({ 5, 10 }, { 35, 10 }, { radius = 0.4 })
    expect(l2):eq(l0)
    expect(#p2):eq(#p0)
    expect(nm.hash):eq(hash0)
  end)

  it("re-label the ground under them", function()
    local nm = steer.navmesh{ outline = box(0, 0, 40, 20), areas = { { polygon = box(0, 0, 1, 1), area = "mud" } },
                              costs = { mud = 10 } }
    local _, l0 = nm:path({ 2, 10 }, { 38, 10 })
    local spill = nm:add_obstacle{ circle = { center = { 20, 10 }, radius = 5 }, area = "mud" }
    expect(spill.area):eq("mud")
    local p1, l1 = nm:path({ 2, 10 }, { 38, 10 })
    expect(l1):gt(l0 + 1) -- round the mud, not through it
    local clear = true
    for i = 1, #p1 - 1 do
      local a, b = p1[i], p1[i + 1]
      for k = 0, 20 do
        local p = a + (b - a) * (k / 20)
        if dist(p, steer.vec(20, 10)) < 4.9 then clear = false end
      end
    end
    expect(clear, "the way keeps out of the spill"):eq(true)
    local _, through = nm:path({ 2, 10 }, { 38, 10 }, { costs = { mud = 1 } })
    expect(through):near(l0, 1e-9)
  end)

  it("moved a hundred times give the mesh of one put there at once", function()
    local function corridor() return steer.navmesh{ outline = box(0, 0, 60, 6) } end
    local nm, fresh = corridor(), corridor()
    local crate = nm:add_obstacle{ polygon = box(10, 1, 11, 2) }
    local x, y = 10, 1
    for i = 1, 100 do
      local dx, dy = 0.37, (i % 2 == 0) and 0.031 or -0.029
      crate:move(dx, dy)
      x, y = x + dx, y + dy
    end
    local at = crate.polygon
    expect(at[1].x):eq(x)
    expect(at[1].y):eq(y)
    fresh:add_obstacle{ polygon = at }
    expect(nm.hash, "the same triangles, bit for bit"):eq(fresh.hash)
    -- against a mesh built with the crate from the start: the same lengths
    local built = steer.navmesh{ outline = box(0, 0, 60, 6), obstacles = { at } }
    for _, r in ipairs { 0, 0.3, 0.5 } do
      for _, q in ipairs { { { 1, 1 }, { 59, 5 } }, { { 1, 5 }, { 59, 1 } }, { { 30, 0.5 }, { 55, 5.5 } } } do
        local _, a = nm:path(q[1], q[2], { radius = r })
        local _, b = built:path(q[1], q[2], { radius = r })
        expect(a, "path length for radius " .. r):near(b, 1e-9)
      end
    end
  end)

  it("are saved with the mesh and load back the same", function()
    local nm = rooms(true)
    nm:add_obstacle{ box = { min = { 19, 9.2 }, max = { 21, 10.8 } } }
    local spill = nm:add_obstacle{ polygon = { { 30, 2 }, { 34, 3 }, { 31, 6 } } }
    spill:move(1, 1)
    local back = steer.navmesh_load(nm:save())
    expect(back.hash):eq(nm.hash)
    local obs = back:obstacles()
    expect(#obs):eq(2)
    expect(obs[2].polygon[1]):eq(steer.vec(31, 3))
    obs[1]:remove()
    nm:obstacles()[1]:remove()
    expect(back.hash):eq(nm.hash)
  end)

  it("make agents whose way they block plan again, and leave others be", function()
    local function run(with_crate)
      local nm = rooms(true)
      local w = steer.world{ dim = 2 }
      w:add_navmesh(nm)
      local near = w:spawn{ position = { 5, 10 }, radius = 0.4, max_speed = 3,
                            brain = steer.navigate{ navmesh = nm, target = { 35, 10 } } }
      local far = w:spawn{ position = { 5, 18 }, radius = 0.4, max_speed = 3,
                           brain = steer.navigate{ navmesh = nm, target = { 15, 18 } } }
      local trail, plan, low = {}, nil, false
      for t = 1, 2400 do
        if t == 60 and with_crate then nm:add_obstacle{ box = { min = { 19, 9.2 }, max = { 21, 10.8 } } } end
        w:step(1)
        if t == 62 then plan = near:path() end
        if math.abs(near.position.x - 20) < 0.5 and near.position.y < 3 then low = true end
        trail[t] = string.format("%.17g %.17g", far.position.x, far.position.y)
      end
      return near, trail, plan, low
    end
    local near0, trail0, plan0, low0 = run(false)
    local near1, trail1, plan1, low1 = run(true)
    expect(dist(near0.position, steer.vec(35, 10)), "through the door"):lt(1.5)
    expect(low0):eq(false)
    expect(#plan0):eq(2) -- straight to the target
    expect(plan1, "a plan round the crate two ticks after it came"):type("table")
    expect(keeps_off(plan1, { 19, 9.2, 21, 10.8 }, 0.4)):eq(true)
    expect(low1, "through the other door"):eq(true)
    expect(dist(near1.position, steer.vec(35, 10)), "arrived all the same"):lt(1.5)
    for t = 1, #trail0 do expect(trail1[t], "the far agent at tick " .. t):eq(trail0[t]) end
  end)

  it("are in snapshots: a load goes on as the run never stopped", function()
    local function setup()
      local nm = rooms(true)
      local w = steer.world{ dim = 2 }
      w:add_navmesh(nm)
      for i = 1, 6 do
        w:spawn{ position = { 3 + i, 4 + 2 * i }, radius = 0.4, max_speed = 3,
                 brain = steer.navigate{ navmesh = nm, target = { 35, 3 + 2 * i } } }
      end
      return w, nm
    end
    local w, nm = setup()
    local crate = nm:add_obstacle{ box = { min = { 19, 9.2 }, max = { 21, 10.8 } } }
    for _ = 1, 20 do w:step(1) end
    crate:move(0, 0.5)
    for _ = 1, 10 do w:step(1) end
    local snap = w:save()
    for _ = 1, 60 do w:step(1) end
    local want = w:hash()
    local w2 = steer.load(snap)
    for _ = 1, 60 do w2:step(1) end
    expect(w2:hash()):eq(want)
  end)

  it("after w:restore, a mesh only the brains hold is the script's nm again, as saved", function()
    local nm = rooms(true) -- never given to w:add_navmesh: the world holds it through its brains alone
    local w = steer.world{ dim = 2 }
    local nav = steer.navigate{ navmesh = nm, stop_radius = 0.3 }
    for i = 1, 4 do
      w:spawn{ position = { 3 + i, 8 + i }, radius = 0.3, max_speed = 3, target = { 35, 8 + i }, brain = nav }
    end
    local crate = nm:add_obstacle{ box = { min = { 19, 9.2 }, max = { 21, 10.8 } } }
    w:step(20)
    local snap, held = w:save(), nm.hash
    crate:move(0, 5) -- after the save: the restore takes it back
    w:step(20)
    w:restore(snap)
    expect(nm.hash, "nm is the restored world's mesh, the crate where it was saved"):eq(held)
    w:step(30)
    local straight = w:hash()
    w:restore(snap)
    crate:remove() -- through the script's handle: the restored world's agents see it
    w:step(30)
    expect(w:hash() ~= straight, "the crate removed from the world's mesh"):eq(true)
    expect(w:restore(snap):save() == snap, "restored, then saved: the same bytes"):eq(true)
  end)

  it("refuse bad input, naming the function and the field", function()
    local nm = rooms(true)
    local function err(f) local ok, e = pcall(f); expect(ok):eq(false); return e end
    expect(err(function() nm:add_obstacle{ polygon = { { 0, 0 }, { 1, 0 } } } end))
      :matches("steer.navmesh:add_obstacle: field 'polygon' expected at least 3 points")
    expect(err(function() nm:add_obstacle{ polygon = { { 0, 0 }, { 1, 0 / 0 }, { 1, 1 } } } end))
      :matches("field 'polygon%[2%]' expected a point")
    expect(err(function() nm:add_obstacle{ polygon = { { 0, 0 }, { 1, 1 }, { 2, 2 } } } end))
      :matches("all on one line")
    expect(err(function() nm:add_obstacle{ box = { min = { 0, 0 }, max = { 1, 1 } }, area = "lava" } end))
      :matches("field 'area' expected \"blocked\" or the name of one of the mesh's areas")
    expect(err(function() nm:add_obstacle{ circle = { center = { 1, 1 }, radius = 0 / 0 } } end))
      :matches("field 'circle.radius'")
    expect(err(function() nm:add_obstacle{ box = { min = { 0, 0 }, max = { 1, 1 } }, circle = { { 1, 1 }, 1 } } end))
      :matches("exactly one of")
    expect(err(function() nm:add_obstacle{} end)):matches("exactly one of")
    expect(err(function() nm:add_obstacle{ polygon = box(1, 1, 2, 2), colour = "red" } end)):matches("colour")
    local c = nm:add_obstacle{ box = { min = { 1, 1 }, max = { 2, 2 } } }
    expect(err(function() c:move(0 / 0, 0) end)):matches("steer.obstacle:move: .*'dx'")
    expect(err(function() c:move(1) end)):matches("'dy'")
    c:remove()
    expect(err(function() c:remove() end)):matches("steer.obstacle:remove: obstacle %d+ was removed already")
    expect(err(function() c:move(1, 1) end)):matches("steer.obstacle:move: obstacle %d+ was removed already")
    expect(nm:path({ 5, 10 }, { 35, 10 })):type("table")
  end)
end)

describe("bytes of a mesh with obstacles from before its triangles kept their numbers", function()
  local function read(name) return spec.read("tests/lua/data/" .. name) end
  local function version(s) -- u32 at byte 5, little-endian (no string.unpack in Lua 5.1)
    local a, b, c, d = s:byte(5, 8)
    return a + 256 * (b + 256 * (c + 256 * d))
  end

  -- navobst-v4.bin (flat: a room, a wall with a door, a crate in the door, a
  -- disc, a mud area) and navobst-v6.bin (demos/building.navmesh, a box on
  -- the first floor's door), as steer at adcca09 saved them
  it("load, with their obstacles, and save again in today's version", function()
    local s = read("navobst-v4.bin")
    expect(version(s)):eq(4)
    local nm = steer.navmesh_load(s)
    expect(#nm:obstacles()):eq(2)
    expect(nm:contains({ 10, 5 }), "the crate still shuts the door"):eq(false)
    expect(nm:contains({ 5, 5 }), "and the disc is carved"):eq(false)
    expect(nm:path({ 1, 1 }, { 19, 9 }, { radius = 0.3 }), "0.5 m each side of the crate: shut for r 0.3"):eq(nil)
    expect(nm:path({ 1, 1 }, { 19, 9 }, { radius = 0.2 }), "open for r 0.2"):type("table")
    local again = nm:save()
    expect(version(again)):eq(7)
    expect(steer.navmesh_load(again).hash):eq(nm.hash)
    nm:obstacles()[1]:remove()
    expect(nm:path({ 1, 1 }, { 19, 9 }, { radius = 0.3 }), "the crate removed: through the door"):type("table")

    local b = steer.navmesh_load(read("navobst-v6.bin"))
    expect(#b:obstacles()):eq(1)
    local up = b:height({ 35, 5 }, { layer = 2 })
    expect(b:contains({ 15, 10, up }, { layer = 2 }), "the box stands in the first floor's door"):eq(false)
    expect(b:contains({ 15, 10, 0 }, { layer = 1 }), "the ground floor's door under it stays open"):eq(true)
    local b2 = b:save()
    expect(version(b2)):eq(8)
    expect(steer.navmesh_load(b2).hash):eq(b.hash)
  end)

  it("refuse them damaged", function()
    local s = read("navobst-v4.bin")
    for _, at in ipairs({ 40, 200 }) do -- the base's vertices, its triangles (its own hash is checked)
      local bad = s:sub(1, at - 1) .. string.char((s:byte(at) + 1) % 256) .. s:sub(at + 1)
      local ok, err = pcall(steer.navmesh_load, bad)
      expect(ok, "byte " .. at .. " changed: refused"):eq(false)
      expect(err):contains("navmesh_load")
    end
  end)
end)
