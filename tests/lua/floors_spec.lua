-- SPDX-License-Identifier: MIT
-- floors_spec.lua — agents on several floors (issue 33 item 2): in a 3D
-- world, navigate climbs demos/building.obj's stair and its agent's height
-- follows the mesh; w:add_navmesh's walls stand on their own floor (an
-- agent under the bridge walks on); a 2D world keeps an agent's ground in
-- its row and can aim at a layer; the queries take a floor; the same bits
-- on 1 and 4 threads, and after a snapshot taken mid-climb.
local steer = require "steer"
local random = require "steer.random"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local root = debug.getinfo(1, "S").source:match("^@(.*)/tests/lua/[^/]*$") or "."
if os.getenv("STEER_RECAST") == "0" then
  describe("floors", function() it("needs a build that bakes (Recast)", function() end) end)
  return
end
local nm = steer.navmesh{ obj = root .. "/demos/building.obj", agent = { height = 2, climb = 0.5, slope = 45 } }
local UP = nm:height({ 35, 5 }, { layer = 2 }) -- the first floor's ground, 3.6 m

local function on_stair(p) return p.x > 23.9 and p.x < 25.7 and p.y > 14 and p.y < 18.2 end

-- a world of dim with the mesh's walls (opts: w:add_navmesh's, false: none)
-- and n agents walking from[i] to to[i]; ticks: how long
local function walkers(dim, threads, opts, ends, layer)
  local w = steer.world{ dim = dim, seed = 5, threads = threads }
  if opts ~= false then w:add_navmesh(nm, opts) end
  local brain = steer.reciprocal{ steer.navigate{ navmesh = nm, stop_radius = 0.3, layer = layer } }
  local agents, arrived = {}, {}
  for i, e in ipairs(ends) do
    agents[i] = w:spawn{ position = e[1], radius = 0.3, max_speed = 2, max_force = 6, brain = brain, target = e[2] }
  end
  w:on("arrive", function(a) arrived[a] = arrived[a] or w.tick end)
  return w, agents, arrived
end

describe("navigate on floors", function()
  it("climbs from a ground floor room to a first floor room in a 3D world, its height on the mesh", function()
    local w, agents, arrived = walkers(3, 1, nil, { { { 5, 5, 0 }, { 35, 5, UP } } })
    local a, climbed, worst = agents[1], false, 0
    for _ = 1, 3000 do
      w:step()
      local p = a.position
      climbed = climbed or on_stair(p)
      worst = math.max(worst, math.abs(p.z - nm:height(p)))
      if arrived[a] then break end
    end
    expect(arrived[a] ~= nil, "arrived"):eq(true)
    expect(climbed, "by the stair"):eq(true)
    expect(math.abs(a.position.z - UP), "upstairs, on the first floor's ground"):le(1e-3)
    expect(worst, "every tick on the ground under it (m)"):le(1e-3)
  end)

  it("walks under the bridge: the bridge's walls stand on the bridge", function()
    local under = { { { 20, 16, 0 }, { 20, 22, 0 } } }
    local w, agents, arrived = walkers(3, 1, nil, under)
    local top = 0
    for _ = 1, 600 do
      w:step()
      top = math.max(top, agents[1].position.z)
    end
    expect(arrived[agents[1]] ~= nil, "under the bridge, in a 3D world"):eq(true)
    expect(top, "on the ground all the way"):lt(0.5)
    -- a 2D world is a plan: the walls of every layer in one, unless one layer's are chosen
    local flat = { { { 20, 16 }, { 20, 22 } } }
    w, agents, arrived = walkers(2, 1, nil, flat)
    w:step(600)
    expect(arrived[agents[1]] == nil and agents[1].position.y < 18.5, "every layer's walls: held at the bridge's edge")
      :eq(true)
    w, agents, arrived = walkers(2, 1, { layer = 1 }, flat)
    w:step(600)
    expect(arrived[agents[1]] ~= nil, "the ground floor's walls only"):eq(true)
  end)

  it("in a 2D world, keeps the agent's ground in its row and aims at a layer", function()
    local function run(layer)
      local w, agents, arrived = walkers(2, 1, false, { { { 5, 5 }, { 35, 5 } } }, layer)
      local climbed = false
      for _ = 1, 3000 do
        w:step()
        climbed = climbed or on_stair(agents[1].position)
        if arrived[agents[1]] then break end
      end
      return arrived[agents[1]] ~= nil, climbed
    end
    local there, climbed = run(2)
    expect(there and climbed, "to layer 2: up the stair"):eq(true)
    there, climbed = run(nil)
    expect(there and not climbed, "to the ground under the target: no stair"):eq(true)
  end)

  -- eight people from ground floor rooms to first floor rooms and back down a room
  local ends = {}
  for i = 0, 7 do
    local x = 3 + (i % 4) * 10 + (i // 4) * 2
    ends[#ends + 1] = { { x, 4, 0 }, { 38 - (i % 4) * 10, 6, UP } }
  end

  it("gives the same bits on 1 and 4 threads", function()
    local hashes = {}
    for _, threads in ipairs({ 1, 4 }) do
      local w = walkers(3, threads, nil, ends)
      w:step(900)
      hashes[threads] = w:hash()
    end
    expect(hashes[4], "4 threads"):eq(hashes[1])
  end)

  it("runs on after a snapshot taken mid-climb as if never stopped", function()
    local w, agents = walkers(3, 1, nil, ends)
    local mid = false
    for _ = 1, 3000 do
      w:step()
      for _, a in ipairs(agents) do
        local z = a.position.z
        mid = mid or (on_stair(a.position) and z > 1 and z < 3)
      end
      if mid then break end
    end
    expect(mid, "someone half way up the stair"):eq(true)
    local l = steer.load(w:save())
    for _ = 1, 6 do
      w:step(60)
      l:step(60)
      expect(l:hash(), "the loaded world"):eq(w:hash())
    end
  end)
end)

describe("paths over the stair", function()
  -- the walls of the other floor over the same plan (the first floor's
  -- edge over the stair's foot, the ground floor's walls under the
  -- bridge) are no walls to a path on this one
  local pairs_ = {
    { { 5, 5, 0 }, { 35, 5, UP } }, -- a ground floor room to a first floor room
    { { 20, 22, 0 }, { 7, 19, UP } }, -- the atrium to the north-west room upstairs
    { { 33, 19, 0 }, { 20, 19.2, UP } }, -- the north-east room to the bridge
  }
  local function keeps(p, r)
    local worst = math.huge
    for i = 1, #p - 1 do
      local a, b = p[i], p[i + 1]
      for k = 0, 9 do
        local x = { a.x + (b.x - a.x) * k / 10, a.y + (b.y - a.y) * k / 10, a.z + (b.z - a.z) * k / 10 }
        worst = math.min(worst, nm:distance_to_wall(x))
      end
    end
    return worst >= r - 1e-6, worst
  end
  for _, r in ipairs({ 0, 0.3, 0.5 }) do
    it(("are found up and down for radius %g, by the stair, r from the walls of their floor"):format(r), function()
      for _, e in ipairs(pairs_) do
        for _, way in ipairs({ { e[1], e[2], "up" }, { e[2], e[1], "down" } }) do
          local p, why = nm:path(way[1], way[2], { radius = r })
          expect(p ~= nil, way[3] .. " from " .. table.concat(way[1], ",") .. ": " .. tostring(why)):eq(true)
          local stair = false
          for _, q in ipairs(p) do stair = stair or on_stair(q) end
          expect(stair, way[3] .. ": by the stair"):eq(true)
          expect(math.abs(p[#p].z - way[2][3]), way[3] .. ": ends on the goal's floor"):le(1e-3)
          local ok, worst = keeps(p, r)
          expect(ok, way[3] .. (": keeps %g from the walls (worst %g)"):format(r, worst)):eq(true)
        end
      end
    end)
  end

  it("takes people down the stair as well as up, in a 3D world", function()
    local down = {}
    for i = 0, 3 do
      down[#down + 1] = { { 35 - 10 * i, 5, UP }, { 5 + 10 * i, 6, 0 } }
    end
    local w, agents, arrived = walkers(3, 1, nil, down)
    for _ = 1, 3000 do
      w:step()
      local all = true
      for _, a in ipairs(agents) do all = all and arrived[a] ~= nil end
      if all then break end
    end
    for i, a in ipairs(agents) do
      expect(arrived[a] ~= nil, "person " .. i .. " arrived downstairs"):eq(true)
      expect(a.position.z, "on the ground floor"):lt(0.1)
    end
  end)
end)

describe("queries on a floor", function()
  it("place a point by its height or a layer, and count that floor's walls", function()
    -- over the south rooms: the ground floor and the first floor have the same walls in plan
    local low = nm:nearest({ 5, 5, 0 })
    local high = nm:nearest({ 5, 5, 5 })
    expect(low.z < 0.5 and high.z > 3, "nearest keeps the height"):eq(true)
    expect(nm:nearest({ 5, 5 }, { layer = 2 }).z > 3, "or the layer"):eq(true)
    -- under the bridge, the bridge's edges are no walls; on it they are
    expect(nm:distance_to_wall({ 20, 19.2, 0 }), "under the bridge"):gt(1.5)
    expect(nm:distance_to_wall({ 20, 19.2, UP }), "on the bridge"):lt(1.1)
    expect(nm:raycast({ 20, 16, 0 }, { 20, 22, 0 }) == nil, "a ray under the bridge"):eq(true)
    local hit = nm:raycast({ 20, 19.2, UP }, { 20, 22, UP })
    expect(hit ~= nil and hit.z > 3, "a ray on the bridge meets its edge"):eq(true)
    expect(nm:contains({ 20, 19.2, 0 }, 1), "room under the bridge"):eq(true)
    expect(nm:contains({ 20, 19.2, UP }, 1.5), "not on the bridge"):eq(false)
    local to = nm:move_along({ 20, 19.2, UP }, { 20, 23, UP })
    expect(to.y < 20.3 and to.z > 3, "sliding stops at the bridge's edge"):eq(true)
    expect(nm:move_along({ 20, 19.2, 0 }, { 20, 23, 0 }).y, "under it, on"):gt(22.9)
    local s = random.new(7)
    local up = 0
    for _ = 1, 200 do
      local p = nm:random_point(s)
      expect(math.abs(nm:height(p) - p.z), "on the ground"):le(1e-9)
      if p.z > 3 then up = up + 1 end
    end
    expect(up, "points on the first floor too"):gt(20)
  end)
end)
