-- SPDX-License-Identifier: MIT
-- review_spec.lua — the findings of the code review, one describe each:
-- inputs that used to crash, hang, poison the world with NaN or get
-- silently ignored now raise a clear error or behave.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

describe("deep combiner chains", function()
  it("nest up to 64 levels and run", function()
    local b = steer.seek{ target = { 10, 0 } }
    for _ = 2, 64 do b = steer.blend{ b } end
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ brain = b }
    w:step(2)
    expect(a.position.x, "moved toward the target"):gt(0)
  end)

  it("refuse a 65th level at construction, naming the function, the entry and the limit", function()
    local b = steer.seek{}
    for _ = 2, 64 do b = steer.blend{ b } end
    local msg = expect(function() return steer.blend{ b } end)
      :raises_here("steer.blend", "entry 1", "expected at most 63")
    expect(msg, "the limit"):contains("64 levels")
  end)

  it("a thousands-deep chain stops with an error, not a crash", function()
    local b = steer.seek{}
    local ok, err = pcall(function()
      for _ = 1, 5000 do b = steer.blend{ b } end
    end)
    expect(ok, "the chain was refused"):falsy()
    expect(err, "message"):contains("steer.blend", "nested")
  end)
end)

describe("shared sub-trees (a diamond lattice)", function()
  it("are built in linear time and refused as a brain when they flatten too large", function()
    local b = steer.seek{}
    for _ = 1, 40 do b = steer.blend{ b, b } end -- 2^41 nodes once flattened
    local w = steer.world{ seed = 1 }
    local msg = expect(function() return w:spawn{ brain = b } end):raises_here("steer.world:spawn", "field 'brain'",
      "more than 65535 nodes")
    expect(msg, "message"):contains("shared")
    expect(w.count, "no agent spawned"):eq(0)
  end)

  it("of modest size flatten and run", function()
    local b = steer.seek{ target = { 10, 0 } }
    for _ = 1, 10 do b = steer.blend{ { b, 0.5 }, { b, 0.5 } } end
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ brain = b }
    w:step()
    expect(a.position.x, "moved"):gt(0)
  end)
end)

describe("agents of another world", function()
  -- the first agent of each world has the same handle: without a check,
  -- w2's agent would silently name w1's
  local w1, w2 = steer.world{ seed = 1 }, steer.world{ seed = 2 }
  local mine, other = w1:spawn{ position = { 5, 0 } }, w1:spawn{ position = { 0, 5 } }
  local foreign = w2:spawn{ position = { -50, 0 } }

  it("are refused as an agent's target", function()
    expect(function() other.target = foreign end)
      :raises_here("steer.agent", "field 'target'", "a live agent of this world")
    expect(function() return w1:spawn{ target = foreign } end)
      :raises_here("steer.world:spawn", "field 'target'", "of this world")
    expect(other.target, "target unchanged"):eq(nil)
  end)

  it("are refused as a raycast's ignore", function()
    expect(function() return w1:raycast({ 0, 0 }, { 1, 0 }, 10, { ignore = foreign }) end)
      :raises_here("steer.world:raycast",
      "field 'ignore'", "an agent of this world")
  end)

  it("are refused in a brain's target fields when the brain is given to this world", function()
    local seek = steer.seek{ target = foreign, name = "chase" }
    local msg = expect(function() return w1:spawn{ brain = seek } end)
      :raises_here("steer.world:spawn", "field 'brain'", "chase",
      "another world", "expected an agent of this world")
    expect(msg, "message"):contains("chase")
    expect(function() other.brain = steer.blend{ steer.interpose{ a = foreign, b = { 0, 0 } } } end)
      :raises_here("field 'brain'",
      "interpose", "another world")
    expect(function() other.brain = steer.offset_pursuit{ target = foreign, offset = { -1, 0 } } end):raises_here(
      "field 'brain'", "another world")
    expect(other.brain, "brain unchanged"):eq(nil)
    -- in its own world the same brain is fine
    local chaser = w2:spawn{ brain = seek }
    w2:step()
    expect(chaser.velocity.x, "chases the agent of its own world (to the west)"):lt(0)
    expect(mine.position.x, "w1 untouched"):eq(5)
  end)

  it("and one behaviour cannot target agents of two worlds", function()
    expect(function() return steer.interpose{ a = mine, b = foreign } end):raises_here("steer.interpose", "field 'b'",
      "same world")
  end)
end)

describe("degenerate walls", function()
  it("whose end points are equal once stored as floats are refused", function()
    local w = steer.world{ seed = 1, collide = true }
    expect(function() return w:add_wall{ from = { 0, 0 }, to = { 1e-50, 0 } } end):raises_here("steer.world:add_wall",
      "'from' and 'to'", "expected two different points")
    expect(function() return w:add_wall{ from = { 1, 1 }, to = { 1 + 1e-12, 1 } } end)
      :raises_here("two different points")
    expect(function() return w:add_wall{ from = { -3e38, 0 }, to = { 3e38, 0 } } end):raises_here("1.8e19 apart")
    expect(w:raycast({ -1, 0 }, { 1, 0 }, 2), "no wall added"):eq(nil)
  end)

  it("a short wall still stops an agent, with finite state", function()
    local w = steer.world{ seed = 1, collide = true }
    w:add_wall{ from = { 0, -1e-3 }, to = { 0, 1e-3 } }
    local a = w:spawn{ position = { -0.2, 0 }, velocity = { 1, 0 }, radius = 0.5 }
    w:step(10)
    expect(a.position.x, "x"):finite()
    expect(a.position.x, "kept out of the wall"):le(-0.5 + 1e-4)
  end)
end)

describe("arrive with a new target inside slow_radius", function()
  it("goes to the new target and fires arrive again", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 2, max_force = 4,
                       brain = steer.arrive{ slow_radius = 5, stop_radius = 0.2 } }
    local arrivals = 0
    w:on("arrive", function() arrivals = arrivals + 1 end)
    a.target = { 3, 0 }
    w:step(60 * 10)
    expect(arrivals, "arrivals at the first target"):eq(1)
    a.target = { 3, 2 } -- 2 m away: inside slow_radius of the first
    w:step(60 * 10)
    expect(a.position:dist(steer.vec(3, 2)), "distance to the new target"):lt(0.2)
    expect(arrivals, "arrivals after the second target"):eq(2)
    w:step(60 * 5)
    expect(arrivals, "standing at the target fires nothing more"):eq(2)
  end)
end)

describe("tiny think_hz and dt", function()
  it("are refused where the float conversion would give 0 or infinity", function()
    expect(function() return steer.world{ dt = 1e-50 } end)
      :raises_here("steer.world", "field 'dt'", ">= 1e-6 and <= 1", "1e-50")
    local w = steer.world{ seed = 1 }
    local f = function() end
    expect(function() return w:spawn{ think = f, think_hz = 1e-300 } end)
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

describe("separation from an agent a denormal distance away", function()
  for _, tag in ipairs{ false, true } do
    it("pushes away from the others with finite contributions" .. (tag and " (tagged: the list path)" or ""), function()
      local w = steer.world{ seed = 1 }
      local brain = steer.separation{ radius = 3, tag = tag and "t" or nil, name = "sep" }
      local a = w:spawn{ position = { 0, 0 }, brain = brain, tag = "t" }
      w:spawn{ position = { 1e-20, 0 }, tag = "t" } -- distance squared 1e-40: 1/d2 overflows a float
      w:spawn{ position = { 0, 1 }, tag = "t" }
      w:step()
      local c = a:contributions()
      expect(c.sep.x, "contribution x"):finite()
      expect(c.sep.y, "contribution y"):finite()
      expect(a.velocity.y, "moves away from the agent at (0, 1)"):lt(0)
    end)
  end

  it("blend weights beyond the float range are refused", function()
    expect(function() return steer.blend{ { steer.seek{}, 1e300 } } end):raises_here("steer.blend", "entry 1", "finite")
  end)
end)

describe("an agent parked at 1e30", function()
  it("steers toward or away from what it should (its squared distance overflows a float)", function()
    for _, far in ipairs{ 1e30, 2e19, -3e38 } do
      local w = steer.world{ seed = 1, collide = true }
      w:add_obstacle{ position = { 5, 5 }, radius = 1 }
      local o = w:spawn{ position = { 0, 0 } }
      local seek = w:spawn{ position = { far, 0 }, brain = steer.seek{ target = { 0, 0 } } }
      local arrive = w:spawn{ position = { far, 0 }, brain = steer.arrive{ target = { 0, 0 } } }
      local pursue = w:spawn{ position = { far, 0 }, brain = steer.pursue{ target = o } }
      local flee = w:spawn{ position = { far, 0 }, brain = steer.flee{ target = { 0, 0 } } }
      local chaser = w:spawn{ position = { 0, 1 }, brain = steer.seek{ target = seek } }
      w:step(3)
      local toward = far > 0 and -1 or 1
      for name, a in pairs{ seek = seek, arrive = arrive, pursue = pursue, chaser = chaser } do
        local sign = name == "chaser" and -toward or toward
        expect(a.velocity.x * sign, name .. " at " .. far .. ": velocity toward the target"):gt(0.01)
        expect(a.velocity.y, name .. ": no sideways velocity"):near(0, 1e-6)
      end
      expect(flee.velocity.x * toward, "flee at " .. far .. ": velocity away"):lt(-0.01)
      expect(w:raycast({ 5, 20 }, { 0, -1 }, 30).distance, "the obstacle still found by a ray"):near(14, 1e-4)
    end
  end)
end)

describe("failed setters and error objects", function()
  it("a value the float storage cannot hold raises instead of being ignored", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ mass = 2, max_speed = 3 }
    expect(function() a.mass = 1e300 end):raises_here("steer.agent", "field 'mass'", "<= 1e30", "1e+300")
    expect(function() a.max_speed = 1e-50 end):raises_here("field 'max_speed'", "1e-50")
    expect(a.mass, "mass unchanged"):eq(2)
    expect(a.max_speed, "max_speed unchanged"):eq(3)
  end)

  it("a callback's error that is not a string is shown, never as (null)", function()
    local w = steer.world{ seed = 1 }
    w:spawn{ think = function() error(setmetatable({}, { __tostring = function() return "a table error" end })) end,
             think_hz = 1000 }
    local msg = expect(function() w:step() end):raises("think", "a table error")
    expect(msg:find("(null)", 1, true), "no (null) in " .. msg):eq(nil)
    local w2 = steer.world{ seed = 1 }
    w2:spawn{ brain = steer.custom(function() error({}) end) }
    msg = expect(function() w2:step() end):raises("steer.custom function", "table")
    expect(msg:find("(null)", 1, true), "no (null) in " .. msg):eq(nil)
    local w3 = steer.world{ seed = 1 }
    w3:spawn{ brain = steer.arrive{ target = { 1, 0 }, ease = function() error(false) end } }
    msg = expect(function() w3:step() end):raises("ease function", "false")
    expect(msg:find("(null)", 1, true), "no (null) in " .. msg):eq(nil)
  end)
end)

describe("tags", function()
  it("intern up to 65535 distinct names, then refuse with a clear error", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{}
    for i = 1, 65535 do a.tag = "t" .. i end
    expect(a.tag, "the last tag set"):eq("t65535")
    local msg = expect(function() a.tag = "one too many" end):raises_here("field 'tag'", "65535 distinct tags")
    expect(a.tag, "unchanged"):eq("t65535")
    a.tag = "t17" -- known names still work
    expect(#w:neighbors({ 0, 0 }, 1, "t17"), "found by its tag"):eq(1)
    expect(function() return w:spawn{ tag = "another new one" } end)
      :raises_here("steer.world:spawn", "65535 distinct tags")
    expect(msg, "message"):contains("could not set it")
  end)
end)

describe("w:hash()", function()
  local function pair()
    local a, b = steer.world{ seed = 3 }, steer.world{ seed = 3 }
    return a, b, a:spawn{ position = { 1, 2 } }, b:spawn{ position = { 1, 2 } }
  end

  it("covers shapes", function()
    local a, b = pair()
    expect(a:hash(), "same to start"):eq(b:hash())
    a:add_obstacle{ position = { 5, 5 }, radius = 1 }
    expect(a:hash(), "one world has an obstacle"):ne(b:hash())
    b:add_obstacle{ position = { 5, 5 }, radius = 2 }
    expect(a:hash(), "obstacles of other radii"):ne(b:hash())
  end)

  it("covers the target flags (a target at the origin is not no target)", function()
    local a, b, x = pair()
    x.target = { 0, 0 }
    expect(a:hash(), "target set"):ne(b:hash())
  end)

  it("covers think timers", function()
    local a, b, x, y = pair()
    local f = function() end
    x.think = f
    expect(a:hash(), "one thinks"):ne(b:hash())
    y.think = f
    y.think_hz = 20
    expect(a:hash(), "thinks at another rate"):ne(b:hash())
  end)
end)

describe("archetype think_hz", function()
  it("is refused below 1e-6 like the agent's", function()
    expect(function() return steer.archetype{ name = "slow", think = function() end, think_hz = 1e-300 } end)
      :raises_here(
      "steer.archetype", "field 'think_hz'", "a number of calls per second >= 1e-6 and <= 1e6")
  end)
end)
