-- SPDX-License-Identifier: MIT
-- navlink_spec.lua — off-mesh links (nm:add_link, nm:add_jump_links, nm:add_drop_links):
-- two islands 2 m apart are joined only by a link; paths take it (its
-- ends among the points, and said which), not when it is disabled or too
-- narrow an end for the radius; an agent crossing raises exactly one
-- "link" event and arrives; a:hold_link() keeps it until the script puts
-- it at the far end; the links and their state are in the mesh's bytes
-- and in snapshots (a run loaded mid-crossing is the run never stopped,
-- on 1 and 4 threads); jump links join two islands on their own; drop
-- links take a path down from demos/building.obj's bridge; bad
-- input is refused naming the function and the argument.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local function box(x0, y0, x1, y1) return { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } } end
local function dist(a, b) return math.sqrt((a.x - b.x) ^ 2 + (a.y - b.y) ^ 2) end

-- Two 10 x 10 islands, x 0..10 and 12..22: a 2 m gap between.
local function islands() return steer.navmesh{ outline = { box(0, 0, 10, 10), box(12, 0, 22, 10) } } end
local function bridged()
  local nm = islands()
  return nm, nm:add_link{ from = { 9.5, 5 }, to = { 12.5, 5 }, name = "bridge" }
end

local function count_events(w)
  local n = { link = 0, arrive = 0, unreachable = 0, path_found = 0 }
  for name in pairs(n) do
    w:on(name, function(a, x)
      n[name] = n[name] + 1
      if name == "link" then n.last_link, n.at = x, a.position end
    end)
  end
  return n
end

local function walker(nm, opts)
  opts = opts or {}
  local w = steer.world{ seed = 1, threads = opts.threads }
  local brain = steer.navigate{ navmesh = nm, slow_radius = 2, stop_radius = 0.3 }
  local a = w:spawn{ position = { 2, 2 }, radius = 0.3, max_speed = 2, max_force = 4, brain = brain,
                     target = steer.vec(20, 8) }
  return w, a
end

describe("off-mesh links: paths", function()
  it("crosses the gap only by the link, its two ends among the points", function()
    local nm = islands()
    local p, why = nm:path({ 2, 5 }, { 20, 5 })
    expect(p, "no link yet"):eq(nil)
    expect(why):eq("no way")
    local l
    nm, l = bridged()
    local pts, len, links = nm:path({ 2, 5 }, { 20, 5 })
    expect(#pts):eq(4)
    expect(#links):eq(1)
    expect(links[1].link == l, "the link add_link gave"):eq(true)
    local at = links[1].at
    expect(dist(pts[at], l.from)):le(1e-9)
    expect(dist(pts[at + 1], l.to)):le(1e-9)
    expect(len):near(18, 1e-9)
    -- a way that needs no link takes none
    local _, _, none = nm:path({ 2, 5 }, { 8, 5 })
    expect(#none):eq(0)
  end)

  it("stops using a disabled link (no way) and finds it again once enabled", function()
    local nm, l = bridged()
    l.enabled = false
    local p, why = nm:path({ 2, 5 }, { 20, 5 })
    expect(p):eq(nil)
    expect(why):eq("no way")
    l.enabled = true
    expect(#nm:path({ 2, 5 }, { 20, 5 })):eq(4)
  end)

  it("takes a one-way link only its way, and a link only when its ends leave room for the radius", function()
    local nm = islands()
    nm:add_link{ from = { 9.5, 5 }, to = { 12.5, 5 }, bidirectional = false }
    expect(nm:path({ 20, 5 }, { 2, 5 })):eq(nil)
    expect(#nm:path({ 2, 5 }, { 20, 5 }, { radius = 0.5 })):eq(4) -- its ends are 0.5 from the walls
    expect(nm:path({ 2, 5 }, { 20, 5 }, { radius = 0.6 })):eq(nil)
  end)

  it("prices a link by cost x length x its area's cost, and a filter excluding its area closes it", function()
    local nm = steer.navmesh{ outline = { box(0, 0, 10, 10), box(12, 0, 22, 10) },
                              areas = { { polygon = box(0, 0, 1, 1), area = "rope" } } }
    local cheap = nm:add_link{ from = { 9.5, 1 }, to = { 12.5, 1 }, cost = 1, area = "rope" }
    local dear = nm:add_link{ from = { 9.5, 5 }, to = { 12.5, 5 }, cost = 4 }
    local _, _, links = nm:path({ 8, 5 }, { 14, 5 })
    expect(links[1].link == cheap, "round by the cheap link (3 m x 1 + 8 m)"):eq(true)
    _, _, links = nm:path({ 8, 5 }, { 14, 5 }, { costs = { rope = 10 } })
    expect(links[1].link == dear, "the rope made dear: 3 m x 4"):eq(true)
    _, _, links = nm:path({ 8, 5 }, { 14, 5 }, { exclude = { "rope" } })
    expect(links[1].link == dear, "the rope excluded"):eq(true)
  end)

  it("keeps links and their state in its bytes (old bytes still load) and in its hash", function()
    local plain = islands()
    local old = plain:save()
    expect(old:sub(5, 5):byte(), "a mesh without links: version 1 bytes"):eq(1)
    local nm, l = bridged()
    expect(nm.hash ~= plain.hash, "links change the hash"):eq(true)
    local h = nm.hash
    l.enabled = false
    expect(nm.hash ~= h, "so does enabled"):eq(true)
    local back = steer.navmesh_load(nm:save())
    expect(back.hash):eq(nm.hash)
    local ls = back:links()
    expect(#ls):eq(1)
    expect(ls[1].enabled):eq(false)
    expect(ls[1].name):eq("bridge")
    expect(ls[1] == back:links()[1], "one userdata per link"):eq(true)
    expect(steer.navmesh_load(old).hash):eq(plain.hash)
  end)

  it("saves the links of a baked mesh with floors too (version 5 bytes: floors, height grids, links), which load the same", function()
    if os.getenv("STEER_RECAST") ~= "1" then return end -- a build without baking
    local root = debug.getinfo(1, "S").source:match("^@(.*)/tests/lua/[^/]*$") or "."
    local nm = steer.navmesh{ obj = root .. "/demos/building.obj", agent = { height = 2, climb = 0.5, slope = 45 } }
    local a, b = nm:random_point(require("steer.random").new(3)), nm:random_point(require("steer.random").new(5))
    nm:add_link{ from = a, to = b, name = "ladder" }
    local s = nm:save()
    expect(s:sub(5, 5):byte()):eq(5)
    local back = steer.navmesh_load(s)
    expect(back.hash):eq(nm.hash)
    expect(back.layer_count):eq(2)
    expect(back:save() == s, "the same bytes"):eq(true)
    expect(back:links()[1].name):eq("ladder")
  end)
end)

describe("off-mesh links: navigate", function()
  it("raises exactly one link event at the link's start, crosses and arrives", function()
    local nm, l = bridged()
    local w, a = walker(nm)
    local n = count_events(w)
    for _ = 1, 60 * 20 do
      w:step(1)
      if n.arrive > 0 then break end
    end
    expect(n.link):eq(1)
    expect(n.last_link == l, "the event's link"):eq(true)
    expect(dist(n.at, l.from)):le(0.1)
    expect(n.arrive):eq(1)
    expect(dist(a.position, steer.vec(20, 8))):le(0.3)
  end)

  it("holds an agent whose script called a:hold_link() until the script puts it at the far end", function()
    local nm, l = bridged()
    local w, a = walker(nm)
    local n = count_events(w)
    w:on("link", function(ag)
      n.link = n.link + 1
      ag:hold_link()
    end)
    local t = 0
    while n.link == 0 and t < 60 * 20 do
      w:step(1)
      t = t + 1
    end
    expect(n.link):eq(1)
    local held = a.position
    w:step(120)
    expect(dist(a.position, held), "held: it stands"):le(0.1)
    expect(a.position.x):lt(10.5)
    a.position = l.to -- the script's jump lands
    a.velocity = { 0, 0 }
    for _ = 1, 60 * 20 do
      w:step(1)
      if n.arrive > 0 then break end
    end
    expect(n.link, "no second event"):eq(1)
    expect(n.arrive):eq(1)
  end)

  it("refuses a:hold_link() outside a link event", function()
    local nm = bridged()
    local _, a = walker(nm)
    local ok, err = pcall(a.hold_link, a)
    expect(ok):eq(false)
    expect(err):matches("hold_link: the agent is not at a link's start")
  end)

  it("plans again when the link it is heading for is disabled, and finds no way", function()
    local nm, l = bridged()
    local w, a = walker(nm)
    local n = count_events(w)
    w:step(60)
    expect(n.path_found):eq(1)
    l.enabled = false
    w:step(60)
    expect(n.unreachable):eq(1)
    expect(n.link):eq(0)
    l.enabled = true
    a.target = steer.vec(20, 7) -- a new target: it asks again
    for _ = 1, 60 * 20 do
      w:step(1)
      if n.arrive > 0 then break end
    end
    expect(n.link):eq(1)
    expect(n.arrive):eq(1)
  end)

  it("saved mid-crossing and loaded, runs on to the same hash as the run never stopped; same bits on 1 and 4 threads",
    function()
      local nm = bridged()
      local w1 = walker(nm, { threads = 1 })
      local w4 = walker(nm, { threads = 4 })
      local n = count_events(w1)
      while n.link == 0 do
        w1:step(1)
        w4:step(1)
      end
      w1:step(20)
      w4:step(20)
      expect(w4:hash()):eq(w1:hash())
      local l = steer.load(w1:save())
      for _ = 1, 10 do
        w1:step(30)
        l:step(30)
        w4:step(30)
        expect(l:hash(), "the loaded world"):eq(w1:hash())
        expect(w4:hash(), "4 threads"):eq(w1:hash())
      end
    end)
end)

describe("off-mesh links: jump links and bad input", function()
  it("joins two islands across a narrow gap with jump links, none across a wide one", function()
    local nm = steer.navmesh{ outline = { box(0, 0, 10, 10), box(11.5, 0, 22, 10) } }
    local ls = nm:add_jump_links{ reach = 2, spacing = 2 }
    expect(#ls):eq(5)
    for _, l in ipairs(ls) do
      expect(l.name):eq("jump")
      expect(l.from.x):near(9.5, 1e-9)
      expect(l.to.x):near(12, 1e-9)
    end
    expect(#nm:path({ 2, 5 }, { 20, 5 })):ge(4)
    local wide = steer.navmesh{ outline = { box(0, 0, 10, 10), box(13, 0, 22, 10) } }
    expect(#wide:add_jump_links{ reach = 2 }):eq(0)
    -- the same links in the same order every time
    local again = steer.navmesh{ outline = { box(0, 0, 10, 10), box(11.5, 0, 22, 10) } }
    again:add_jump_links{ reach = 2, spacing = 2 }
    expect(again.hash):eq(nm.hash)
  end)

  it("refuses ends off the mesh, bad costs, areas, names and fields, naming the function and the argument", function()
    local nm = islands()
    local function err(t) local ok, e = pcall(nm.add_link, nm, t); expect(ok):eq(false); return e end
    expect(err{ from = { 11, 5 }, to = { 12.5, 5 } }):matches("add_link: field 'from' %(11.0+, 5.0+%) is off the mesh")
    expect(err{ from = { 9, 5 }, to = { 30, 5 } }):matches("add_link: field 'to' .* is off the mesh")
    expect(err{ from = { 9, 5 }, to = { 0 / 0, 5 } }):matches("add_link: field 'to'")
    expect(err{ from = { 9, 5 }, to = { 13, 5 }, cost = -1 }):matches("add_link: field 'cost'")
    expect(err{ from = { 9, 5 }, to = { 13, 5 }, area = "mud" }):matches("add_link: field 'area'")
    expect(err{ from = { 9, 5 }, to = { 13, 5 }, name = string.rep("x", 40) }):matches("add_link: field 'name'")
    expect(err{ from = { 9, 5 }, to = { 13, 5 }, speed = 3 }):matches("add_link")
    expect(#nm:links(), "nothing added"):eq(0)
    local ok, e = pcall(nm.add_jump_links, nm, { spacing = 1 })
    expect(ok):eq(false)
    expect(e):matches("add_jump_links: field 'reach'")
    local l = nm:add_link{ from = { 9, 5 }, to = { 13, 5 } }
    ok, e = pcall(function() l.enabled = 1 end)
    expect(ok):eq(false)
    expect(e):matches("field 'enabled' expected a boolean")
    ok, e = pcall(function() l.cost = 1 end)
    expect(ok):eq(false)
    expect(e):matches("only 'enabled' can")
  end)
end)

describe("off-mesh links: the path budget", function()
  it("caps a search over many links at a path budget of 8: partial ways, planned on, reach the goal", function()
    -- 12 islands 4 m wide in a row, each joined to the next by a link: a way over 11 links
    local rings = {}
    for i = 0, 11 do rings[#rings + 1] = box(5 * i, 0, 5 * i + 4, 4) end
    local nm = steer.navmesh{ outline = rings }
    for i = 0, 10 do nm:add_link{ from = { 5 * i + 3.5, 2 }, to = { 5 * i + 5.5, 2 } } end
    local function run(budget)
      local w = steer.world{ seed = 1 }
      w.path_budget = budget
      local a = w:spawn{ position = { 1, 2 }, radius = 0.3, max_speed = 3, max_force = 6, target = steer.vec(57, 2),
                         brain = steer.navigate{ navmesh = nm, stop_radius = 0.3 } }
      local n = count_events(w)
      for _ = 1, 60 * 60 do
        w:step(1)
        if n.arrive > 0 then break end
      end
      return n, a
    end
    -- (test_mesh_query.c's test_link_search_capped: each search stops near the cap, partial)
    local n, a = run(8)
    expect(n.unreachable):eq(0)
    expect(n.link):eq(11)
    expect(n.arrive):eq(1)
    expect(dist(a.position, steer.vec(57, 2))):le(0.3)
  end)
end)

describe("off-mesh links: drop links", function()
  local root = debug.getinfo(1, "S").source:match("^@(.*)/tests/lua/[^/]*$") or "."
  local function building()
    return steer.navmesh{ obj = root .. "/demos/building.obj", agent = { height = 2, climb = 0.5, slope = 45 } }
  end
  local bridge, hall = steer.vec(20, 19.2, 3.5), steer.vec(20, 16, 0) -- on the bridge, and the atrium's floor below
  local function took(links, name)
    for _, x in ipairs(links) do
      if x.link.name == name then return true end
    end
    return false
  end

  it("drops from the bridge to the hall below when that is shorter, one way, none through a wall", function()
    if os.getenv("STEER_RECAST") ~= "1" then return end -- a build without baking
    local nm = building()
    local _, stairs = nm:path(bridge, hall)
    local ls = nm:add_drop_links{ drop = 4 }
    expect(#ls > 0, "drops found"):eq(true)
    for _, l in ipairs(ls) do
      expect(l.name):eq("drop")
      expect(l.bidirectional):eq(false)
      local fall = l.from.z - l.to.z
      expect(fall >= 1 and fall <= 4, "a fall of 1 to 4 m"):eq(true)
      expect(nm:contains(l.from, 0.4) and nm:contains(l.to, 0.4), "both ends on their ground, off its walls"):eq(true)
      -- inside the building (no drop through its outer walls onto the plaza), on one side of
      -- the atrium's walls (x 14 and 26: none through a wall over a door of the floor below)
      for _, e in ipairs({ l.from, l.to }) do
        expect(e.x > 0.15 and e.x < 39.85 and e.y > 0.15 and e.y < 23.85, "inside the outer walls"):eq(true)
      end
      expect((l.from.x < 14) == (l.to.x < 14) and (l.from.x < 26) == (l.to.x < 26), "no wall crossed"):eq(true)
    end
    local pts, len, links = nm:path(bridge, hall)
    expect(took(links, "drop"), "the path drops"):eq(true)
    expect(len < stairs - 5, "shorter than down the stair"):eq(true)
    expect(pts[#pts].z):le(0.01)
    -- one way: back up is by the stair
    local _, _, up = nm:path(hall, bridge)
    expect(#up, "no link taken going up"):eq(0)
  end)

  it("takes a navigate agent in a 3D world down the drop to its target below", function()
    if os.getenv("STEER_RECAST") ~= "1" then return end
    local nm = building()
    nm:add_drop_links{ drop = 4 }
    local w = steer.world{ dim = 3, seed = 5 }
    w:add_navmesh(nm)
    local a = w:spawn{ position = bridge, radius = 0.3, max_speed = 2, max_force = 6, target = hall,
                       brain = steer.navigate{ navmesh = nm, stop_radius = 0.3 } }
    local n = count_events(w)
    for _ = 1, 600 do
      w:step()
      if n.arrive > 0 then break end
    end
    expect(n.link):eq(1)
    expect(n.last_link.name):eq("drop")
    expect(n.arrive):eq(1)
    expect(dist(a.position, hall)):le(0.5)
    expect(math.abs(a.position.z)):le(0.05)
  end)

  it("makes no drop higher than allowed: with drop = 3 the bridge (3.5 m) has none", function()
    if os.getenv("STEER_RECAST") ~= "1" then return end
    local nm = building()
    for _, l in ipairs(nm:add_drop_links{ drop = 3, name = "low" }) do
      expect(l.from.z - l.to.z):le(3)
      expect(l.name):eq("low")
    end
    -- (from the stair's side, where it is 3 m or less above the hall, it may drop)
    local _, _, links = nm:path(bridge, hall)
    for _, x in ipairs(links) do
      expect(x.link.from.z - x.link.to.z, "a fall the path takes"):le(3)
      expect(x.link.from.y < 18.2, "not off the bridge (y 18.2 .. 20.2)"):eq(true)
    end
  end)

  it("refuses bad input and a mesh without heights", function()
    local nm = islands()
    local ok, e = pcall(nm.add_drop_links, nm, { drop = 3 })
    expect(ok):eq(false)
    expect(e):matches("add_drop_links: the mesh has no heights")
    ok, e = pcall(nm.add_drop_links, nm, { reach = 1 })
    expect(ok):eq(false)
    expect(e):matches("add_drop_links: field 'drop'")
    ok, e = pcall(nm.add_drop_links, nm, { drop = 2, min_drop = 3 })
    expect(ok):eq(false)
    expect(e):matches("add_drop_links: field 'min_drop'")
    ok, e = pcall(nm.add_drop_links, nm, { drop = 2, jump = true })
    expect(ok):eq(false)
    expect(e):matches("add_drop_links")
    expect(#nm:links(), "nothing added"):eq(0)
  end)
end)

describe("links beside obstacles", function()
  it("a mesh with both keeps them in its bytes, the link's state included", function()
    local nm, l = bridged()
    local o = nm:add_obstacle{ box = { min = { 4, 3 }, max = { 5, 7 } } }
    local p = nm:path({ 1, 5 }, { 21, 5 })
    expect(p ~= nil):eq(true)
    local s = nm:save()
    local m2 = steer.navmesh_load(s)
    expect(m2.hash):eq(nm.hash)
    expect(m2:save()):eq(s)
    expect(#m2:path({ 1, 5 }, { 21, 5 })):eq(#p)
    l.enabled = false
    expect(nm:path({ 1, 5 }, { 21, 5 })):eq(nil)
    local m3 = steer.navmesh_load(nm:save())
    expect(m3:path({ 1, 5 }, { 21, 5 })):eq(nil)
    -- an obstacle moved keeps the link: enabled again, the way is there
    o:move(1, 0)
    l.enabled = true
    expect(nm:path({ 1, 5 }, { 21, 5 }) ~= nil):eq(true)
  end)
end)
