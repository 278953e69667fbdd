-- SPDX-License-Identifier: MIT
-- craft_spec.lua — the turn-limited craft model (model = "craft"): it flies
-- forward only, between min_speed and max_speed, never turns tighter than
-- its radius (which may grow with speed), changes speed within max_force,
-- comes about when asked to go straight back, and in 3D banks into turns.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local DT = 1 / 60

local function heading_change(h0, h1)
  return math.acos(math.max(-1, math.min(1, h0:dot(h1))))
end

describe("craft locomotion", function()
  it("never turns tighter than min_turn_radius, and flies a circle of that radius at full turn", function()
    local w = steer.world{ seed = 1 }
    -- seek a point straight to the left: the craft turns at its limit all the way round
    local a = w:spawn{ position = { 0, 0 }, velocity = { 8, 0 }, max_speed = 8, max_force = 100, model = "craft",
      min_turn_radius = 6, min_speed = 8, brain = steer.seek{ target = { 0, 1000 } } }
    local worst, h = 0, a.heading
    local pts = {}
    for t = 1, 60 do
      w:step()
      worst = math.max(worst, heading_change(h, a.heading))
      h = a.heading
      if t <= 20 then pts[#pts + 1] = a.position end
    end
    expect(worst, "largest heading change per tick"):le(8 * DT / 6 + 1e-5)
    expect(worst, "it does turn at the limit"):gt(8 * DT / 6 - 1e-4)
    -- the first 20 ticks lie on a circle of radius 6 about (0, 6) (within a step)
    for i, p in ipairs(pts) do
      expect(math.abs(p:dist(steer.vec(0, 6)) - 6), "distance from the turn centre, tick " .. i):lt(8 * DT)
    end
  end)

  it("keeps its speed between min_speed and max_speed, changing it within max_force", function()
    local w = steer.world{ seed = 1 }
    -- arrive at a point ahead: it wants to stop, but may not go below min_speed
    local a = w:spawn{ position = { 0, 0 }, velocity = { 10, 0 }, max_speed = 10, max_force = 6, mass = 2,
      model = "craft", min_turn_radius = 5, min_speed = 4, brain = steer.arrive{ target = { 20, 0 }, slow_radius = 15 } }
    local low, s = math.huge, a.speed
    local worst = 0
    for _ = 1, 300 do
      w:step()
      worst = math.max(worst, math.abs(a.speed - s))
      s = a.speed
      low = math.min(low, a.speed)
      expect(a.speed, "speed"):le(10 + 1e-4)
    end
    expect(low, "lowest speed"):gt(4 - 1e-4)
    expect(low, "it did slow down to min_speed"):lt(4 + 1e-3)
    expect(worst, "largest speed change per tick"):le(6 / 2 * DT + 1e-5)
    -- forward only: velocity along the heading, always
    expect(a.velocity:normalized():dot(a.heading), "velocity along heading"):gt(1 - 1e-5)
  end)

  it("comes about when the wish is straight behind it", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 0, 0 }, velocity = { 5, 0 }, max_speed = 5, max_force = 20, model = "craft",
      min_turn_radius = 3, min_speed = 2, brain = steer.seek{ target = { -50, 0 } } }
    w:step(30)
    expect(a.heading.y, "turns left (2D) once slowed to min_speed"):gt(0.2)
    expect(a.speed, "at min_speed"):lt(2 + 1e-4)
    w:step(600)
    expect(a.position.x, "x after coming about"):lt(-20)
  end)

  it("grows its radius with speed when max_turn_accel is set", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 0, 0 }, velocity = { 4, 0 }, max_speed = 12, max_force = 200, model = "craft",
      min_turn_radius = 2, max_turn_accel = 16, min_speed = 4, brain = steer.seek{ target = { 0, 1000 } } }
    expect(a.turn_radius, "radius at 4 m/s: max(2, 16/16)"):eq(2)
    a.velocity = { 12, 0 }
    expect(a.turn_radius, "radius at 12 m/s: 144/16"):eq(9)
    local h = a.heading
    w:step()
    expect(heading_change(h, a.heading), "turn in one tick at 12 m/s"):le(12 * DT / 9 + 1e-5)
    a.max_turn_accel = 0
    expect(a.turn_radius, "constant radius again"):eq(2)
  end)

  it("banks into its turns in 3D and rolls level again", function()
    local w = steer.world{ dim = 3, seed = 1 }
    local a = w:spawn{ position = { 0, 0, 0 }, velocity = { 10, 0, 0 }, max_speed = 10, max_force = 100,
      model = "craft", min_turn_radius = 10, min_speed = 10, brain = steer.seek{ target = { 0, -1000, 0 } } }
    expect(a.up:dist(steer.vec(0, 0, 1)), "level at start"):lt(1e-6)
    w:step(30)
    local up, h = a.up, a.heading
    expect(math.abs(up:len() - 1), "up is a unit vector"):lt(1e-5)
    expect(math.abs(up:dot(h)), "up is perpendicular to heading"):lt(1e-4)
    -- a right turn (toward -y) at 10 m/s on a 10 m radius: 10 m/s^2 sideways,
    -- a coordinated bank of atan(10 / 9.81) = 45.5 degrees
    local bank = math.deg(math.acos(up.z))
    expect(math.abs(bank - 45.5), "bank angle, degrees"):lt(3)
    expect(h:cross(up).z, "right wing low"):lt(0)
    -- done turning: level again
    a.brain = steer.seek{ target = a.position + a.heading * 1000 }
    w:step(60)
    expect(a.up.z, "up.z after the turn"):gt(0.999)
  end)

  it("keeps a point-mass agent's flight unchanged when it carries a turn radius", function()
    local function run(extra)
      local w = steer.world{ seed = 5 }
      local f = { position = { 0, 0 }, velocity = { 1, 0 }, max_speed = 3, max_force = 6,
        brain = steer.seek{ target = { -10, 5 } } }
      for k, v in pairs(extra) do f[k] = v end
      local a = w:spawn(f)
      w:step(200)
      return a.position
    end
    expect(run{ min_turn_radius = 4, model = "point" } == run{}, "same trajectory"):truthy()
  end)

  it("switches model and turn fields on a live agent", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 0, 0 }, velocity = { 3, 0 }, max_speed = 3 }
    expect(a.model, "default model"):eq("point")
    expect(a.min_turn_radius, "no radius"):eq(nil)
    expect(a.turn_radius, "no turn radius"):eq(nil)
    a.min_turn_radius = 4
    a.model = "craft"
    a.min_speed = 1
    expect(a.model, "model"):eq("craft")
    expect(a.min_speed, "min_speed"):eq(1)
    a.model = "point"
    expect(a.min_speed, "a point mass has no min_speed"):eq(0)
    a.min_turn_radius = nil
    expect(a.min_turn_radius, "radius dropped"):eq(nil)
  end)

  it("takes its turn limits from an archetype's vehicle", function()
    local jet = steer.archetype{ name = "craft_spec_jet", vehicle = { max_speed = 20, max_force = 80, model = "craft",
      min_turn_radius = 15, min_speed = 8, max_turn_accel = 20 } }
    local w = steer.world{ dim = 3 }
    local a = w:spawn(jet, { position = { 0, 0, 10 }, velocity = { 10, 0, 0 } })
    expect(a.model, "model"):eq("craft")
    expect(a.min_speed, "min_speed"):eq(8)
    expect(a.turn_radius, "radius at 10 m/s"):eq(15)
  end)

  it("raises clear errors for bad turn fields", function()
    local w = steer.world{}
    expect(function() w:spawn{ model = "tank" } end)
      :raises("steer.world:spawn: field 'model' expected \"point\" or \"craft\"")
    expect(function() w:spawn{ model = "craft" } end)
      :raises("steer.world:spawn: field 'min_turn_radius' expected a number of metres >= 1e-6 and <= 1e30 " ..
              "(a craft needs one), got nil")
    expect(function() w:spawn{ min_speed = 2 } end):raises("field 'min_speed' expected nil (only a craft")
    expect(function() w:spawn{ model = "craft", min_turn_radius = 3, max_speed = 2, min_speed = 5 } end)
      :raises("field 'min_speed' expected 0 or a number >= 1e-6 and <= max_speed")
    expect(function() w:spawn{ model = "craft", min_turn_radius = -3 } end)
      :raises("field 'min_turn_radius' expected a number of metres >= 1e-6 and <= 1e30")
    expect(function() w:spawn{ max_turn_accel = 3 } end):raises("field 'min_turn_radius'")
    local a = w:spawn{}
    expect(function() a.model = "craft" end):raises("steer.agent: field 'model': set a.min_turn_radius first")
    expect(function() a.model = 3 end):raises("steer.agent: field 'model' expected \"point\" or \"craft\"")
    expect(function() a.min_speed = 1 end):raises("only a craft has one")
    a.min_turn_radius = 2
    a.model = "craft"
    expect(function() a.min_turn_radius = nil end):raises("field 'min_turn_radius' expected a number of metres >= 1e-6")
    expect(function() a.min_turn_radius = 0 / 0 end):raises("field 'min_turn_radius'")
    expect(function() a.min_speed = 5 end):raises("field 'min_speed' expected 0 or a number >= 1e-6 and <= max_speed")
    expect(function() a.max_turn_accel = -1 end):raises("field 'max_turn_accel'")
    expect(w.count, "no agent from the failed spawns"):eq(1)
  end)
end)
