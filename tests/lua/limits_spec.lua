-- SPDX-License-Identifier: MIT
-- limits_spec.lua — the vehicle limits hold whatever the brain asks for.
--
-- a:force() is the brain's raw output for the last tick, before the
-- locomotion pass truncates it to max_force (a lone seek reversing
-- direction asks for up to 2 * max_force). So the guarantees a game can
-- rely on are checked on the motion itself: speed <= max_speed, and the
-- velocity change per tick <= max_force / mass * dt. The numbers at their
-- extremes too: huge velocities keep their direction, a move longer than a
-- wrapped world lands where it ends, rates too small for a float are refused.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

-- A deterministic generator for the test's inputs.
local seed = 987654321
local function rand(lo, hi)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return lo + (hi - lo) * seed / 2147483648
end

local function hypot(x, y) return math.sqrt(x * x + y * y) end

describe("vehicle limits", function()
  it("never exceed max_speed nor max_force / mass per tick", function()
    local w = steer.world{ size = { 60, 60 }, wrap = true, seed = 2 }
    local brains = {
      steer.blend{ { steer.seek{}, 40 }, { steer.separation{ radius = 4 }, 60 }, { steer.wander{}, 20 },
                   { steer.flee{ target = { 30, 30 }, panic_radius = 10 }, 30 } },
      steer.seek{},
      steer.flee{},
      steer.arrive{ slow_radius = 3, stop_radius = 0.5 },
      steer.wander{ variant = "turn", max_turn_rate = 20, max_turn_change = 100 },
    }
    local agents = {}
    for i = 1, 100 do
      agents[i] = w:spawn{
        position = { rand(0, 60), rand(0, 60) }, velocity = { rand(-4, 4), rand(-4, 4) },
        max_speed = rand(0.5, 5), max_force = rand(0.2, 30), mass = rand(0.3, 4),
        brain = brains[i % #brains + 1], target = { rand(0, 60), rand(0, 60) },
      }
    end
    local dt = w.dt
    local worst_speed, worst_accel, raw_over = 0, 0, 0
    for t = 1, 300 do
      local before = {}
      for i, a in ipairs(agents) do before[i] = { a:vxy() } end
      w:step()
      for i, a in ipairs(agents) do
        local vx, vy = a:vxy()
        local s = hypot(vx, vy)
        expect(s, "tick " .. t .. " agent " .. i .. " speed"):le(a.max_speed * (1 + 1e-6))
        worst_speed = math.max(worst_speed, s / a.max_speed)
        if t > 1 then -- the first tick also clips the spawn velocity to max_speed
          local dv = hypot(vx - before[i][1], vy - before[i][2])
          -- velocities are stored as floats: allow their rounding
          local slack = 1e-6 * (s + hypot(before[i][1], before[i][2]))
          local limit = a.max_force / a.mass * dt
          expect(dv - slack, "tick " .. t .. " agent " .. i .. " velocity change"):le(limit * (1 + 1e-5))
          worst_accel = math.max(worst_accel, (dv - slack) / limit)
        end
        if a:force():len() > a.max_force * (1 + 1e-6) then raw_over = raw_over + 1 end
      end
    end
    -- the test is only worth something if it drove agents to their limits
    expect(worst_speed, "highest speed / max_speed"):gt(0.99)
    expect(worst_accel, "highest acceleration / limit"):gt(0.99)
    -- and the brains did ask for more than max_force (seek and flee reversing)
    expect(raw_over, "ticks where the raw force exceeded max_force"):gt(0)
  end)

  it("a blend never asks for more than max_force", function()
    local w = steer.world{ seed = 2 }
    local brain = steer.blend{ { steer.seek{ target = { 50, 0 } }, 10 }, { steer.flee{ target = { 0, 50 } }, 10 } }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 2, max_force = 1.5, brain = brain }
    for _ = 1, 120 do
      w:step()
      expect(a:force():len(), "blend force"):le(1.5 * (1 + 1e-6))
    end
  end)

  it("applies a lowered max_speed from the next tick on", function()
    local w = steer.world{ seed = 2 }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 4, max_force = 8, brain = steer.seek{ target = { 1000, 0 } } }
    w:step(300) -- five velocity time constants of 0.5 s
    expect(a.speed, "cruise speed"):near(4, 1e-3)
    a.max_speed = 1
    expect(a.max_speed, "a.max_speed"):eq(1)
    w:step()
    expect(a.speed, "speed after lowering max_speed"):le(1 + 1e-6)
  end)

  it("holds an agent with max_speed 0 still", function()
    local w = steer.world{ seed = 2 }
    local a = w:spawn{ position = { 3, 3 }, velocity = { 1, 1 }, max_speed = 0, max_force = 5,
                       brain = steer.seek{ target = { 10, 10 } } }
    w:step(60)
    expect(a.speed, "speed"):eq(0)
    -- velocity is clipped before it moves the agent, even on the first tick
    expect(a.position:dist({ 3, 3 }), "distance moved"):eq(0)
  end)
end)

describe("tiny think_hz and dt", function()
  it("are refused where the float conversion would give 0 or infinity", function()
    expect(function() steer.world{ dt = 1e-50 } end)
      :raises_here("steer.world", "field 'dt'", ">= 1e-6 and <= 1", "1e-50")
    local w = steer.world{ seed = 1 }
    local f = function() end
    expect(function() w:spawn{ think = f, think_hz = 1e-300 } end)
      :raises_here("steer.world:spawn", "field 'think_hz'", "a number of calls per second >= 1e-6 and <= 1e6")
    local a = w:spawn{ think = f, think_hz = 1 }
    expect(function() a.think_hz = 1e-40 end)
      :raises_here("steer.agent", "field 'think_hz'", "a number of calls per second >= 1e-6 and <= 1e6")
    expect(a.think_hz, "unchanged"):eq(1)
  end)

  it("a slow thinker thinks rarely, never every tick", function()
    local w = steer.world{ seed = 1 }
    local calls = 0
    w:spawn{ think = function() calls = calls + 1 end, think_hz = 1e-6 }
    w:step(600)
    expect(calls, "thinks in 10 s at one per 11.6 days"):le(1)
  end)
end)

describe("torus wrap", function()
  it("of a move longer than the world lands where the move ends, not at the origin", function()
    local w = steer.world{ size = { 10, 10 }, wrap = true, seed = 1 }
    local a = w:spawn{ position = { 2, 5 }, velocity = { 900, -1200 }, max_speed = 2000 }
    w:step()
    -- 2 + 15 = 17 -> 7; 5 - 20 = -15 -> 5
    expect(a.position.x, "x"):near(7, 1e-3)
    expect(a.position.y, "y"):near(5, 1e-3)
  end)

  it("puts an agent spawned outside the bounds into the world", function()
    local w = steer.world{ size = { 10, 10 }, origin = { -5, 0 }, wrap = true, seed = 1 }
    local a = w:spawn{ position = { 23, -4 } }
    expect(a.position.x, "x"):near(3, 1e-5)
    expect(a.position.y, "y"):near(6, 1e-5)
  end)
end)

describe("huge but finite vectors", function()
  it("normalise to a unit heading instead of a zero one", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ velocity = { 0, 3e38 } }
    expect(a.heading.y, "heading from a huge spawn velocity"):near(1, 1e-6)
    a.heading = { -1e30, 0 }
    expect(a.heading.x, "a huge heading set"):near(-1, 1e-6)
    a.velocity = { 1e30, 1e30 }
    expect(a.heading.x, "heading from a huge velocity"):near(math.sqrt(0.5), 1e-6)
  end)

  it("are truncated to max_speed along their direction, not to zero", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ velocity = { 2e30, 0 }, max_speed = 3 }
    w:step()
    expect(a.velocity.x, "speed after the step"):near(3, 1e-5)
    expect(a.position.x, "moved"):near(3 / 60, 1e-5)
  end)

  it("a zero heading is refused, naming the field", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{}
    expect(function() a.heading = { 0, 0 } end):raises_here("field 'heading'", "a non-zero vector")
    expect(a.heading.x, "unchanged"):eq(1)
  end)
end)
