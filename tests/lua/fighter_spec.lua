-- SPDX-License-Identifier: MIT
-- fighter_spec.lua — the fighter archetype (lua/steer/archetypes/fighter.lua):
-- it gets onto a straight-flying target's tail and stays there, breaks when
-- an enemy is on its own tail, and keeps off the ground.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local fighter = require "steer.archetypes.fighter"

local function arena()
  return steer.world{ dim = 3, size = { 8000, 8000, 3000 }, origin = { -4000, -4000, 0 }, seed = 7 }
end

-- A target that flies straight and level: a craft without a brain keeps its speed.
local function drone(w, pos, vel)
  return w:spawn{ position = pos, velocity = vel, max_speed = 25, model = "craft", min_turn_radius = 50, tag = "blue" }
end

describe("fighter", function()
  it("gets onto a straight-flying target's tail and holds it", function()
    local w = arena()
    local target = drone(w, { 0, 0, 800 }, { 25, 0, 0 })
    -- starts 600 m off, crossing the target's track at right angles, lower
    local f = fighter.spawn(w, { team = "red", enemy = "blue", position = { 300, 600, 600 }, velocity = { 0, -40, 0 } })
    local first_guns, guns, late = nil, 0, 0
    for t = 1, 60 * 60 do
      w:step()
      if f.data.mode == "guns" and not first_guns then first_guns = t / 60 end
      if t > 50 * 60 then
        late = late + 1
        if f.data.mode == "guns" then guns = guns + 1 end
      end
    end
    expect(first_guns, "seconds until aligned on the tail"):lt(40)
    expect(guns / late, "share of the last 10 s in guns"):gt(0.8)
    -- where it sits: behind the target on its track, nose on it
    local off = target.position - f.position
    local along = off:dot(target.heading)
    local across = (off - target.heading * along):len()
    expect(along, "metres behind the target"):gt(5)
    expect(along, "metres behind the target"):lt(fighter.params.gun_range)
    expect(across, "metres off the target's track"):lt(20)
    expect(f.heading:dot(target.heading), "cos of heading difference"):gt(math.cos(math.rad(15)))
    expect(f.data.mode, "mode at the end"):eq("guns")
  end)

  it("breaks when an enemy sits on its tail", function()
    local w = arena()
    local f = fighter.spawn(w, { team = "red", enemy = "blue", position = { 0, 0, 800 }, velocity = { 30, 0, 0 } })
    -- a chaser 80 m behind, nose on
    drone(w, { -80, 0, 800 }, { 25, 0, 0 })
    w:step(12)
    expect(f.data.mode, "mode"):eq("evade")
  end)

  it("pulls out of a dive above the ground", function()
    local w = arena()
    local f = fighter.spawn(w, { team = "red", enemy = "blue", position = { 0, 0, 300 }, velocity = { 20, 0, -35 } })
    local low = math.huge
    for _ = 1, 20 * 60 do
      w:step()
      local _, _, z = f:xy()
      low = math.min(low, z)
    end
    expect(low, "lowest altitude, metres"):gt(10)
    expect(f.data.mode, "mode with no enemy"):eq("patrol")
  end)

  it("keeps room from a wingman chasing the same target", function()
    local w = arena()
    drone(w, { 0, 0, 800 }, { 25, 0, 0 })
    -- both start on the same side: they converge on the same tail
    local a = fighter.spawn(w, { team = "red", enemy = "blue", position = { -400, 100, 800 }, velocity = { 40, 0, 0 } })
    local b = fighter.spawn(w, { team = "red", enemy = "blue", position = { -400, -100, 800 }, velocity = { 40, 0, 0 } })
    local closest = math.huge
    for t = 1, 60 * 60 do
      w:step()
      if t > 20 * 60 then closest = math.min(closest, a.position:dist(b.position)) end
    end
    expect(closest, "closest the two come after 20 s, metres"):gt(fighter.params.spacing / 3)
  end)

  it("flies the dogfighter demo's context-steered variant that key C switches on, and back", function()
    local demo = require "demo_run"
    local w, sc = demo.start("dogfighter")
    sc.on_key(w, "x") -- another key: nothing
    for a in w:agents() do expect(a.data.context, "variant before C"):eq(nil) end
    sc.on_key(w, "c")
    local start = {}
    for a in w:agents() do
      expect(a.data.context, "variant after C"):eq(true)
      start[a] = a.position
    end
    local modes = {}
    for _ = 1, 20 * 60 do
      demo.advance(w, sc, 1)
      for a in w:agents() do
        if a.data.mode then modes[a.data.mode] = true end
        local p, v = a.position, a.velocity
        expect(p.x == p.x and p.y == p.y and p.z == p.z and v:len() == v:len(), "no NaN"):truthy()
        expect(p.z, "altitude"):gt(0)
      end
    end
    expect(modes.attack, "someone attacks under the variant"):truthy()
    for a in w:agents() do
      if start[a] then expect(a.position:dist(start[a]), "metres flown in 20 s"):gt(300) end
      -- the brain the variant's think gave it: the context mode's, by name
      local brains = fighter.context_brains
      expect(a.data.mode and a.brain == brains[a.data.mode], "a " .. tostring(a.data.mode) .. " fighter flies the context brain")
        :truthy()
    end
    -- a snapshot keeps the variant and its brains
    local loaded = steer.load(w:save())
    for a in loaded:agents() do expect(a.data.context, "variant after a load"):eq(true) end
    -- C again: back to the forces
    sc.on_key(w, "c")
    demo.advance(w, sc, 60)
    for a in w:agents() do
      expect(a.data.context, "variant after C twice"):eq(nil)
      expect(a.data.mode and a.brain == fighter.brains[a.data.mode], "back on the forces' brain"):truthy()
    end
  end)
end)
