-- SPDX-License-Identifier: MIT
-- building_spec.lua — demos/building.lua as a person watching it would
-- judge it (issue 33 item 6): people arrive in rooms on both floors;
-- nobody stands in a wall or in the crate; everyone's height is the
-- ground's under them, so nobody drops off the bridge or floats off the
-- stair; every door shuts, soon after it starts to (it waits for nobody
-- to stand where its leaf goes, not for the crowd to stop: those about to
-- go through plan round it), and nobody passes a door while it is shut;
-- the player pushes the
-- crate metres east and back, never into a wall. And
-- demos/building.navmesh is what baking demos/building.obj gives (where
-- this build bakes).
local steer = require "steer"
local spec = require "spec"
local demo = require "demo_run"
local describe, it, expect = spec.describe, spec.it, spec.expect

local TICKS = 1800

describe("the building demo", function()
  it("people reach rooms on both floors, in no wall, crate or shut door, on the ground", function()
    local w, sc = demo.start("building")
    local S, nm, doors = steer.state, sc.navmesh, sc.doors
    local UP = nm:height({ 35, 5 }, { layer = 2 })
    local side = {} -- side[i][agent]: which side of door i's wall the agent was on, in its doorway
    for i = 1, #doors do side[i] = {} end
    local crossed, in_wall, in_crate, off_ground, mid_air, shut_ticks = 0, 0, 0, 0, 0, 0
    local shut_each, waited, closing_for = {}, {}, {} -- ticks each door was shut; the longest it took to shut
    for i = 1, #doors do shut_each[i], waited[i] = 0, 0 end
    local crate0 = { S.crate[1], S.crate[2] }
    -- the ground as shipped, without the crate's own hole: the crate's
    -- footprint must stay on it (not in a wall, the stair or the planter)
    local f = assert(io.open(demo.root .. "/demos/building.navmesh", "rb"))
    local ground = steer.navmesh_load(f:read("a"))
    f:close()
    local east, back, crate_off = 0, 0, 0 -- the farthest east it went, how far back west from there
    for t = 1, TICKS do
      demo.advance(w, sc, 1)
      for i, d in ipairs(doors) do
        if S.closed[i] then shut_ticks, shut_each[i] = shut_ticks + 1, shut_each[i] + 1 end
        closing_for[i] = S.closing[i] and (closing_for[i] or 0) + 1 or nil
        waited[i] = math.max(waited[i], closing_for[i] or 0)
        local along_x = d.max[1] - d.min[1] > d.max[2] - d.min[2] -- the wall runs along x
        local z = d.floor == 2 and UP or 0
        for a in w:agents() do
          local p = a.position
          local u, v = along_x and p.x or p.y, along_x and p.y or p.x
          local lo, hi = along_x and d.min[1] or d.min[2], along_x and d.max[1] or d.max[2]
          local mid = along_x and (d.min[2] + d.max[2]) / 2 or (d.min[1] + d.max[1]) / 2
          if u >= lo and u <= hi and math.abs(v - mid) < 1 and math.abs(p.z - z) < 1 then
            local s = v < mid and -1 or 1
            local was = side[i][a]
            if was and was ~= s and S.closed[i] then crossed = crossed + 1 end
            side[i][a] = s
          else
            side[i][a] = nil
          end
        end
      end
      local c = S.crate
      east = math.max(east, c[1] - crate0[1])
      back = math.max(back, crate0[1] + east - c[1])
      for i = -2, 2 do
        for j = -2, 2 do
          local p = { c[1] + 0.3 * i, c[2] + 0.3 * j, 0 } -- the crate is 1.2 m square
          if not ground:contains(p, { layer = 1 }) or (p[1] >= 25.6 and p[1] <= 25.95 and p[2] >= 14.1 and p[2] <= 18.1) then
            crate_off = crate_off + 1
          end
        end
      end
      if t % 10 == 0 then
        for a in w:agents() do
          local p = a.position
          if math.abs(p.x - c[1]) < 0.6 and math.abs(p.y - c[2]) < 0.6 and p.z < 1 then in_crate = in_crate + 1 end
          if a.tag == "person" then
            if nm:distance_to_wall(p) < 0.05 and not nm:contains(p) then in_wall = in_wall + 1 end
            local h = nm:height(p)
            if not h or math.abs(p.z - h) > 0.01 then
              off_ground = off_ground + 1
            end
            local on_stair = p.x > 23.8 and p.x < 25.7 and p.y > 13.9 and p.y < 18.4
            if p.z > 0.3 and p.z < UP - 0.3 and not on_stair then mid_air = mid_air + 1 end
          end
        end
      end
    end
    expect(S.arrived[1], "arrivals downstairs"):gt(30)
    expect(S.arrived[2], "arrivals upstairs"):gt(15)
    expect(shut_ticks, "doors were shut a while (door-ticks)"):gt(TICKS / 3)
    for i, d in ipairs(doors) do
      expect(shut_each[i], "door '" .. d.name .. "' shut (ticks)"):gt(60 * 4)
      expect(waited[i], "door '" .. d.name .. "': ticks from starting to shut to shut"):lt(60 * 2)
    end
    expect(crossed, "people through a shut door"):eq(0)
    expect(in_wall, "people in a wall"):eq(0)
    expect(in_crate, "people in the crate"):eq(0)
    expect(off_ground, "people not on the ground under them"):eq(0)
    expect(mid_air, "people in the air (off the bridge or the stair)"):eq(0)
    expect(east, "the player pushed the crate east (m)"):gt(2)
    expect(back, "and back west (m)"):gt(2)
    expect(crate_off, "crate points off the ground (in a wall, the stair or the planter)"):eq(0)
  end)

  it("ships the mesh baking demos/building.obj gives (tools/building-navmesh.lua)", function()
    if os.getenv("STEER_RECAST") ~= "1" then return end -- a build without baking: the shipped bytes are all there is
    local nm = steer.navmesh{ obj = demo.root .. "/demos/building.obj",
                              agent = { height = 2, climb = 0.5, slope = 45 } }
    local f = assert(io.open(demo.root .. "/demos/building.navmesh", "rb"))
    local shipped = f:read("a")
    f:close()
    expect(nm:save() == shipped,
      "demos/building.navmesh differs from the bake: LUA_CPATH='build/?.so' lua5.4 tools/building-navmesh.lua" ..
      " > demos/building.navmesh"):eq(true)
  end)
end)
