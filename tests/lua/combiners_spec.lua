-- SPDX-License-Identifier: MIT
-- combiners_spec.lua — the combiners and the inspector's view of them:
-- priority lets the first child with a non-negligible force decide, blend
-- sums with weights, and a:contributions() tells which named node pushed
-- how hard; truncated_sum spends the max_force budget in priority order,
-- dither tries children at random from each agent's own stream, priority's
-- hysteresis (margin, hold) stops a winner flickering, and the steering
-- pipeline routes round walls and obstacles, falls back when it cannot,
-- and reads its goal through the actuator's nil target. Trees nest up to
-- 64 levels, shared sub-trees are built once and refused when they
-- flatten too large, and bad input raises naming the field.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local function is_vec(v) return getmetatable(v) == getmetatable(steer.vec(0, 0)) end

local function scared_or_seeking()
  return steer.priority{
    steer.flee{ target = { 0, 0 }, panic_radius = 3, name = "scared" },
    steer.seek{ target = { 0, 0 }, name = "go" },
    name = "pick",
  }
end

describe("priority", function()
  it("seeks outside the panic radius and flees inside it", function()
    local w = steer.world{ seed = 1 }
    local brain = scared_or_seeking()
    local far = w:spawn{ position = { 10, 0 }, max_speed = 3, max_force = 6, brain = brain }
    local near = w:spawn{ position = { 0, 1 }, max_speed = 3, max_force = 6, brain = brain }
    w:step()
    expect(far:force().x, "outside: force toward the target"):lt(0)
    expect(near:force().y, "inside: force away from the target"):gt(0)
    w:step(59)
    expect(far.position:len(), "outside: distance after 1 s"):lt(10)
    expect(near.position:len(), "inside: distance after 1 s"):gt(1)
  end)

  it("settles at the panic radius when both pull", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 10, 0 }, max_speed = 3, max_force = 6, brain = scared_or_seeking() }
    local closest = math.huge
    for _ = 1, 600 do
      w:step()
      closest = math.min(closest, a.position:len())
    end
    expect(closest, "closest approach"):gt(1.5)
    expect(a.position:len(), "final distance"):near(3, 1)
  end)

  it("gives zero when no child exceeds epsilon", function()
    local w = steer.world{ seed = 1 }
    local brain = steer.priority{ steer.flee{ target = { 0, 0 }, panic_radius = 1 }, epsilon = 0.5 }
    local a = w:spawn{ position = { 5, 0 }, max_speed = 3, max_force = 6, brain = brain }
    w:step(10)
    expect(a:force():len(), "force"):eq(0)
    expect(a.position == steer.vec(5, 0), "position"):truthy()
  end)
end)

describe("blend", function()
  -- from rest each seek asks for exactly max_force (a velocity error of
  -- max_speed), east and north: the weighted sum has length
  -- max_force * sqrt(w1^2 + w2^2)
  local function first_tick(w1, w2)
    local w = steer.world{ seed = 1 }
    local brain = steer.blend{ { steer.seek{ target = { 10, 0 }, name = "east" }, w1 },
                               { steer.seek{ target = { 0, 10 }, name = "north" }, w2 }, name = "mix" }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 2, max_force = 4, brain = brain }
    w:step()
    return a:contributions()
  end

  it("sums weighted children", function()
    local c = first_tick(0.5, 0.25)
    expect(c.east:len(), "east"):near(4, 1e-5)
    expect(c.mix:dist(c.east * 0.5 + c.north * 0.25), "blend = 0.5 east + 0.25 north"):lt(1e-5)
  end)

  it("truncates the sum to max_force", function()
    local c = first_tick(1, 0.5)
    expect(c.mix:len(), "blend length"):near(4, 1e-5)
    expect(c.mix:normalized():dist((c.east + c.north * 0.5):normalized()), "direction kept"):lt(1e-5)
  end)
end)

describe("a:contributions()", function()
  it("returns a table keyed by node names, with vectors", function()
    local w = steer.world{ seed = 1 }
    local brain = steer.blend{
      { steer.seek{ target = { 10, 0 }, name = "go" }, 1 },
      { steer.separation{ radius = 2, name = "space" }, 2 },
      name = "mix",
    }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 2, max_force = 4, brain = brain }
    w:spawn{ position = { 0, 1 } }
    w:step()
    local c = a:contributions()
    expect(type(c), "contributions"):eq("table")
    for _, name in ipairs{ "mix", "go", "space" } do
      expect(is_vec(c[name]), "c." .. name .. " is a vector: " .. tostring(c[name])):truthy()
    end
    local n = 0
    for _ in pairs(c) do n = n + 1 end
    expect(n, "entries"):eq(3)
    expect(c.go.x, "seek pushes east"):gt(0)
    expect(c.space.y, "separation pushes away from the agent to the north"):lt(0)
    expect(c.mix:dist(a:force()), "the root's contribution is the force"):lt(1e-6)
  end)

  it("names unnamed nodes by kind and tells equal names apart", function()
    local w = steer.world{ seed = 1 }
    local brain = steer.blend{ { steer.seek{ target = { 1, 0 } }, 1 }, { steer.seek{ target = { 0, 1 } }, 1 } }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 2, max_force = 4, brain = brain }
    w:step()
    local c = a:contributions()
    expect(is_vec(c.blend), "c.blend"):truthy()
    expect(is_vec(c.seek), "c.seek"):truthy()
    expect(is_vec(c["seek#2"]), "c['seek#2']"):truthy()
    expect(c.seek:dist(c["seek#2"]), "two different seeks"):gt(0.1)
  end)

  it("shows zero for children a priority did not run this tick", function()
    -- an inspector that shows a stale force for a node that did nothing
    -- this tick points the user at the wrong behaviour
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 4, 0 }, max_speed = 3, max_force = 6,
                       brain = scared_or_seeking() }
    w:step()
    expect(a:contributions().go:len(), "seek while outside"):gt(0)
    local inside = false
    for _ = 1, 120 do
      w:step()
      if a.position:len() < 3 then inside = true break end
    end
    expect(inside, "the agent went inside the panic radius"):truthy()
    -- a tick reads the state at its start: the next one sees the agent inside
    w:step()
    local c = a:contributions()
    expect(c.scared:len(), "flee contribution inside"):gt(0)
    expect(c.pick:dist(c.scared), "priority passes the flee force on"):lt(1e-9)
    expect(c.go:len(), "contribution of the seek that did not run (" .. tostring(c.go) .. ")"):eq(0)
  end)

  it("is empty when the world does not record", function()
    local w = steer.world{ seed = 1, record = false }
    local a = w:spawn{ position = { 0, 0 }, brain = steer.seek{ target = { 1, 1 }, name = "go" } }
    w:step()
    expect(next(a:contributions()), "first key"):eq(nil)
    w.record = true
    w:step()
    expect(is_vec(a:contributions().go), "after turning recording on"):truthy()
  end)
end)

local function east(name) return steer.seek{ target = { 100, 0 }, name = name } end
local function north(name) return steer.seek{ target = { 0, 100 }, name = name } end

-- One agent at rest at the origin: every seek above asks for exactly
-- max_force (a velocity error of max_speed) on the first tick.
local function first_tick(brain)
  local w = steer.world{ seed = 1 }
  local a = w:spawn{ position = { 0, 0 }, max_speed = 2, max_force = 4, brain = brain }
  w:step()
  return a:contributions(), a
end

-- Did the step p -> q cross the segment a -> b?
local function crosses(p, q, a, b)
  local function side(o, u, v) return (u[1] - o[1]) * (v[2] - o[2]) - (u[2] - o[2]) * (v[1] - o[1]) end
  return side(a, b, p) * side(a, b, q) < 0 and side(p, q, a) * side(p, q, b) < 0
end

describe("truncated_sum", function()
  it("gives earlier children precedence: a strong first child starves the last", function()
    local c = first_tick(steer.truncated_sum{ { east("first"), 1 }, { north("last"), 1 }, name = "sum" })
    expect(c.first:len(), "first child's force"):near(4, 1e-5)
    expect(c.sum:dist(c.first), "the sum is the first child alone"):lt(1e-5)
    expect(c.last:len(), "the last child was not evaluated"):eq(0)
  end)

  it("scales the child that overshoots so the sum lands on max_force, and stops there", function()
    local c = first_tick(steer.truncated_sum{
      { east("a"), 0.6 }, { north("b"), 1 }, { steer.seek{ target = { -100, 0 }, name = "c" }, 1 }, name = "sum" })
    -- 0.6 of the budget east, then north scaled by s with |(0.6, s)| = 1: s = 0.8
    expect(c.sum.x, "east part"):near(0.6 * 4, 1e-4)
    expect(c.sum.y, "north part"):near(0.8 * 4, 1e-4)
    expect(c.sum:len(), "length"):near(4, 1e-4)
    expect(c.c:len(), "third child not evaluated"):eq(0)
  end)

  it("is the plain weighted sum while the budget lasts", function()
    local c = first_tick(steer.truncated_sum{ { east("a"), 0.3 }, { north("b"), 0.4 }, name = "sum" })
    expect(c.sum:dist(c.a * 0.3 + c.b * 0.4), "sum"):lt(1e-5)
    expect(c.sum:len(), "half the budget"):near(2, 1e-5)
  end)

  it("never exceeds max_force", function()
    local w = steer.world{ seed = 4 }
    local brain = steer.truncated_sum{
      { steer.wander{ distance = 2, radius = 3, jitter = 20 }, 5 },
      { steer.seek{}, 3 },
      { steer.flee{ target = { 0, 0 }, panic_radius = 10 }, 7 },
    }
    local agents = {}
    for i = 1, 40 do
      agents[i] = w:spawn{ position = { i - 20, (i % 7) - 3 }, max_speed = 1 + i % 4, max_force = 0.5 + i % 5,
                           brain = brain, target = { 20 - i, 5 } }
    end
    local worst = 0
    for _ = 1, 120 do
      w:step()
      for _, a in ipairs(agents) do worst = math.max(worst, a:force():len() / a.max_force) end
    end
    expect(worst, "largest |force| / max_force"):le(1 + 1e-6)
    expect(worst, "the budget is actually reached"):gt(0.999)
  end)
end)

describe("dither", function()
  local function dither_world(seed, other_brain)
    local w = steer.world{ seed = seed }
    local brain = steer.dither{ { east("e"), 0.3 }, { north("n"), 0.5 }, { steer.wander{}, 1 }, name = "d" }
    local agents = {}
    for i = 1, 20 do agents[i] = w:spawn{ position = { i * 2, 0 }, max_speed = 2, max_force = 4, brain = brain } end
    local other = w:spawn{ position = { 0, -10 }, brain = other_brain or steer.seek{ target = { 0, 0 } } }
    return w, agents, other
  end

  it("is deterministic per seed and differs with another seed", function()
    local a, b, c = dither_world(5), dither_world(5), dither_world(6)
    a:step(200)
    b:step(200)
    c:step(200)
    expect(a:hash(), "same seed"):eq(b:hash())
    expect(a:hash(), "other seed"):ne(c:hash())
  end)

  it("draws from each agent's own stream, not a shared one", function()
    -- another agent that also dithers must not change this agent's draws
    local w1, a1 = dither_world(5)
    local w2, a2 = dither_world(5, steer.dither{ { east(), 0.5 }, { north(), 0.5 } })
    w1:step(200)
    w2:step(200)
    for i = 1, #a1 do expect(a1[i].position == a2[i].position, "agent " .. i .. " position"):truthy() end
  end)

  it("tries a child with its probability", function()
    local w = steer.world{ seed = 9 }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 2, max_force = 4,
                       brain = steer.dither{ { east("e"), 0.25 }, { north("n"), 1 }, name = "d" } }
    local won, ticks = 0, 2000
    for _ = 1, ticks do
      w:step()
      local c = a:contributions()
      if c.e:len() > 0 then
        won = won + 1
        expect(c.d == c.e, "tried first child wins"):truthy()
        expect(c.n:len(), "the next child is not evaluated"):eq(0)
      else
        expect(c.d == c.n, "else the always-tried last child"):truthy()
      end
    end
    expect(won / ticks, "share of ticks the p = 0.25 child won"):near(0.25, 0.04)
  end)

  it("passes a quiet child over, and gives zero when no child wins", function()
    local c = first_tick(steer.dither{ { steer.flee{ target = { 50, 0 }, panic_radius = 1, name = "quiet" }, 1 },
                                       { north("n"), 1 }, name = "d" })
    expect(c.d == c.n, "the quiet child is passed over"):truthy()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 0, 0 }, velocity = { 1, 0 },
                       brain = steer.dither{ { east(), 0 }, { north(), -1 } } }
    w:step(20)
    expect(a:force():len(), "no child tried"):eq(0)
  end)
end)

describe("priority hysteresis", function()
  -- child 1 pushes east with a magnitude oscillating around child 2's (north,
  -- magnitude 1) at 3 Hz; epsilon sits just below, so a plain priority
  -- hands over every time child 1 dips
  local function oscillating(opts)
    local tick = 0
    local wobble = steer.custom{ name = "wobble", fn = function()
      tick = tick + 1
      return 1 + 0.5 * math.sin(2 * math.pi * 3 * tick / 60), 0
    end }
    local steady = steer.custom{ name = "steady", fn = function() return 0, 1 end }
    local desc = { wobble, steady, epsilon = 0.99, name = "pick" }
    for k, v in pairs(opts or {}) do desc[k] = v end
    return steer.priority(desc)
  end

  -- Which child won each tick, read back from a:contributions().
  local function winners(brain, ticks)
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 2, max_force = 4, brain = brain }
    local list = {}
    for t = 1, ticks do
      w:step()
      local c = a:contributions()
      local who = c.pick == c.wobble and "wobble" or c.pick == c.steady and "steady" or "none"
      expect(who ~= "none", "tick " .. t .. ": the output is one child's force"):truthy()
      list[t] = { who = who, c = c }
    end
    return list
  end

  local function switches(list)
    local n, at = 0, {}
    for t = 2, #list do
      if list[t].who ~= list[t - 1].who then n = n + 1; at[#at + 1] = t end
    end
    return n, at
  end

  it("switches at most once per hold where a plain priority flickers", function()
    local plain = switches(winners(oscillating(), 240))
    expect(plain, "plain priority switches in 4 s"):ge(20)
    local n, at = switches(winners(oscillating{ hold = 0.5 }, 240))
    expect(n, "with hold = 0.5 s, switches in 4 s"):le(8)
    expect(n, "with hold = 0.5 s, it still switches"):ge(2)
    for k = 2, #at do expect(at[k] - at[k - 1], "ticks between switches"):ge(30) end
  end)

  it("lets a challenger take over only when margin times stronger", function()
    local list = winners(oscillating{ margin = 1.3 }, 240)
    local n = 0
    for t = 2, #list do
      if list[t].who == "wobble" and list[t - 1].who == "steady" then
        n = n + 1
        expect(list[t].c.wobble:len(), "tick " .. t .. ": challenger's force"):gt(1.3)
      end
    end
    expect(n, "take-overs by the first child"):ge(5)
  end)

  it("shows the forces of the children that ran and zero for the rest", function()
    local w = steer.world{ seed = 1 }
    -- seek wins at once and holds for 1 s; the agent walks into flee's
    -- panic radius within that second, so flee asks while seek holds
    local brain = steer.priority{ steer.flee{ target = { 0, 0 }, panic_radius = 3, name = "scared" },
                                  steer.seek{ target = { -100, 0 }, name = "go" }, north("idle"), hold = 1,
                                  name = "pick" }
    local a = w:spawn{ position = { 4, 0 }, max_speed = 3, max_force = 6, brain = brain }
    local held, took_over = false, false
    for _ = 1, 240 do
      w:step()
      local c = a:contributions()
      expect(c.idle:len(), "a child after both candidates never runs"):eq(0)
      expect(c.pick == c.scared or c.pick == c.go, "the output is a child's force"):truthy()
      -- the winner runs after the challenger: both were evaluated
      if c.pick == c.go and c.scared:len() > 1e-3 then held = true end
      if c.pick == c.scared and c.scared:len() > 1e-3 then
        took_over = true
        expect(c.go:len(), "the challenger won: the old winner after it did not run"):eq(0)
      end
    end
    expect(held, "seek kept winning for its hold while flee asked"):truthy()
    expect(took_over, "flee took over after the hold"):truthy()
  end)

  it("is the plain priority with margin = 0 and hold = 0", function()
    local function world(brain)
      local w = steer.world{ seed = 3 }
      for i = 1, 10 do w:spawn{ position = { i, 0 }, max_speed = 2, max_force = 3, brain = brain } end
      w:step(120)
      local out = {}
      for a in w:agents() do out[#out + 1] = tostring(a.position) end
      return table.concat(out, " ")
    end
    local plain = world(steer.priority{ steer.flee{ target = { 5, 0 }, panic_radius = 2 }, steer.wander{} })
    local zero = world(steer.priority{ steer.flee{ target = { 5, 0 }, panic_radius = 2 }, steer.wander{},
                                       margin = 0, hold = 0 })
    expect(zero, "positions"):eq(plain)
  end)

  it("is deterministic per seed", function()
    local function world(seed)
      local w = steer.world{ seed = seed }
      local brain = steer.priority{ steer.flee{ target = { 0, 0 }, panic_radius = 4 }, steer.wander{ jitter = 8 },
                                    hold = 0.3, margin = 1.2 }
      for i = 1, 20 do w:spawn{ position = { i - 10, 1 }, max_speed = 2, max_force = 3, brain = brain } end
      w:step(300)
      return w:hash()
    end
    expect(world(7), "same seed"):eq(world(7))
    expect(world(7), "other seed"):ne(world(8))
  end)
end)

describe("pipeline", function()
  local function walker(w, brain, from, to)
    return w:spawn{ position = from, max_speed = 3, max_force = 6, radius = 0.5, brain = brain, target = to }
  end

  -- Step until the agent is within `within` of `to`; fail if it ever steps
  -- across one of the walls. Returns ticks taken and the path's extent.
  local function walk(w, a, to, walls, ticks, within)
    local x, y = a:xy()
    local low, high = y, y
    for t = 1, ticks do
      w:step()
      local nx, ny = a:xy()
      for _, wall in ipairs(walls) do
        expect(crosses({ x, y }, { nx, ny }, wall[1], wall[2]), "tick " .. t .. ": crossed a wall"):falsy()
      end
      x, y = nx, ny
      low, high = math.min(low, y), math.max(high, y)
      if (x - to[1]) ^ 2 + (y - to[2]) ^ 2 < within ^ 2 then return t, low, high end
    end
    return nil, low, high
  end

  local function routed(extra)
    local desc = {
      targeters = { steer.target_position{} },
      constraints = { steer.wall_constraint{ margin = 0.5 }, steer.avoid_obstacle_constraint{ margin = 0.5 } },
      actuator = steer.arrive{ slow_radius = 3, name = "act" },
      fallback = steer.seek{ target = { -30, 0 }, name = "retreat" },
      name = "pipe",
    }
    for k, v in pairs(extra or {}) do desc[k] = v end
    return steer.pipeline(desc)
  end

  it("routes round a wall between the agent and its target", function()
    local w = steer.world{ seed = 1 }
    local wall = { { 0, -8 }, { 0, 8 } }
    w:add_wall{ from = wall[1], to = wall[2] }
    local a = walker(w, routed{ passes = 2 }, { -10, 0 }, { 10, 0 }) -- one via point is enough
    local t, low, high = walk(w, a, { 10, 0 }, { wall }, 900, 0.2)
    expect(t, "ticks to reach the target"):type("number")
    expect(math.max(-low, high), "went past the wall's end"):gt(8.5)
    expect(a:contributions().retreat:len(), "the fallback is idle"):eq(0)
  end)

  it("routes round a U-shaped wall in the way, given enough passes", function()
    local walls = { { { 0, -8 }, { 0, 8 } }, { { 0, 8 }, { 6, 8 } }, { { 0, -8 }, { 6, -8 } } }
    local function go(passes)
      local w = steer.world{ seed = 1 }
      for _, wall in ipairs(walls) do w:add_wall{ from = wall[1], to = wall[2] } end
      local a = walker(w, routed{ passes = passes }, { -10, 0 }, { 10, 0 })
      return walk(w, a, { 10, 0 }, walls, 1200, 0.2), a
    end
    expect(go(4), "passes = 4: ticks to reach the target"):type("number")
    -- round the corner and then the arm's end needs two via points; with
    -- passes = 2 a route may gain only one (the last pass must be clean)
    local t, a = go(2)
    expect(t, "passes = 2: never arrives"):eq(nil)
    expect(a:contributions().retreat:len(), "passes = 2: the fallback runs"):gt(0)
  end)

  it("routes round circular obstacles", function()
    local w = steer.world{ seed = 1 }
    w:add_obstacle{ position = { 0, 0 }, radius = 3 }
    w:add_obstacle{ position = { 8, 1 }, radius = 2 }
    local a = walker(w, routed(), { -12, 0.2 }, { 14, 0 })
    local closest = math.huge
    for _ = 1, 900 do
      w:step()
      local x, y = a:xy()
      closest = math.min(closest, math.sqrt(x * x + y * y) - 3, math.sqrt((x - 8) ^ 2 + (y - 1) ^ 2) - 2)
      if (x - 14) ^ 2 + y * y < 0.04 then break end
    end
    expect(a.position:dist{ 14, 0 }, "distance to the target"):lt(0.2)
    expect(closest, "closest approach of the agent's centre to an obstacle's surface"):gt(0.5)
  end)

  it("runs the fallback when the target is walled in", function()
    local w = steer.world{ seed = 1 }
    local walls = { { { -3, -3 }, { 3, -3 } }, { { 3, -3 }, { 3, 3 } },
                    { { 3, 3 }, { -3, 3 } }, { { -3, 3 }, { -3, -3 } } }
    for _, wall in ipairs(walls) do w:add_wall{ from = wall[1], to = wall[2] } end
    local a = walker(w, routed(), { -10, 0 }, { 0, 0 })
    local t = walk(w, a, { 0, 0 }, walls, 120, 2.5)
    expect(t, "never gets in"):eq(nil)
    local c = a:contributions()
    expect(c.retreat:len(), "fallback force"):gt(0)
    expect(c.act:len(), "actuator did not run"):eq(0)
    expect(c.pipe == c.retreat, "the pipeline passes the fallback on"):truthy()
    expect(a.position.x, "retreated toward the fallback's target"):lt(-10)
  end)

  it("brakes when the route is blocked and there is no fallback", function()
    local w = steer.world{ seed = 1 }
    w:add_obstacle{ position = { 10, 0 }, radius = 2 }
    local a = w:spawn{ position = { 0, 0 }, velocity = { 2, 0 }, max_speed = 3, max_force = 6, radius = 0.5,
                       target = { 10, 0.5 }, -- inside the obstacle: unreachable
                       brain = steer.pipeline{ constraints = { steer.avoid_obstacle_constraint{} } } }
    w:step(180)
    expect(a.speed, "speed after 3 s (from 2 m/s)"):lt(0.01)
    expect(a.position.x, "stopped short of the obstacle"):lt(7.5)
  end)

  it("acts like its actuator when nothing is in the way", function()
    local function final(brain)
      local w = steer.world{ seed = 1 }
      w:add_wall{ from = { 0, 20 }, to = { 5, 20 } } -- far off the route
      local a = w:spawn{ position = { 0, 0 }, velocity = { 0, 1 }, max_speed = 3, max_force = 6, brain = brain }
      w:step(200)
      return a.position
    end
    local direct = final(steer.arrive{ target = { 12, 3 }, slow_radius = 4 })
    local piped = final(steer.pipeline{ targeters = { steer.target_position{ target = { 12, 3 } } },
                                        constraints = { steer.wall_constraint{} },
                                        actuator = steer.arrive{ slow_radius = 4 } })
    expect(piped == direct, "same position: " .. tostring(piped) .. " vs " .. tostring(direct)):truthy()
  end)

  it("takes the goal from the first targeter that sets it, else from the agent's target", function()
    local function arrival(brain)
      local w = steer.world{ seed = 1 }
      local a = w:spawn{ position = { 0, 0 }, max_speed = 3, max_force = 6, brain = brain, target = { -5, 5 } }
      w:step(400)
      return a.position
    end
    local two = arrival(steer.pipeline{
      targeters = { steer.target_position{ target = { 5, 0 } }, steer.target_position{ target = { 0, -5 } } } })
    expect(two:dist{ 5, 0 }, "first targeter's goal"):lt(0.05)
    local slot = arrival(steer.pipeline{ actuator = steer.arrive{} })
    expect(slot:dist{ -5, 5 }, "no targeters: the agent's own target"):lt(0.15)
  end)

  it("tracks a velocity goal with its default actuator", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 3, max_force = 6,
                       brain = steer.pipeline{ targeters = { steer.target_velocity{ velocity = { 0, -2 } } } } }
    w:step(240)
    expect(a.velocity:dist{ 0, -2 }, "velocity after 4 s"):lt(0.01)
  end)

  it("walks a decomposer's waypoints in order, then goes to the goal", function()
    local w = steer.world{ seed = 1 }
    local points = { { 5, 5 }, { 10, -5 }, { 15, 5 } }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 3, max_force = 6, target = { 20, 0 },
                       brain = steer.pipeline{ decomposers = { steer.decompose_path{ path = points, radius = 1 } } } }
    local next_point = 1
    for _ = 1, 1200 do
      w:step()
      local p = points[next_point]
      if p and a.position:dist(p) < 1 then next_point = next_point + 1 end
    end
    expect(next_point, "waypoints reached in order"):eq(4)
    expect(a.position:dist{ 20, 0 }, "then the goal"):lt(0.1)
  end)

  it("nests: an inner pipeline's nil targets read the outer goal", function()
    local w = steer.world{ seed = 1 }
    w:add_wall{ from = { 0, -6 }, to = { 0, 6 } }
    local inner = steer.pipeline{ constraints = { steer.wall_constraint{} }, actuator = steer.arrive{} }
    local a = w:spawn{ position = { -8, 0 }, max_speed = 3, max_force = 6, radius = 0.5,
                       brain = steer.pipeline{ targeters = { steer.target_position{ target = { 8, 0 } } },
                                               actuator = inner } }
    local t = walk(w, a, { 8, 0 }, { { { 0, -6 }, { 0, 6 } } }, 900, 0.2)
    expect(t, "ticks to reach the outer goal round the wall"):type("number")
  end)
end)

describe("errors", function()
  local function raises(fn, ...) return expect(fn, "call"):raises(...) end

  it("name the field or the entry", function()
    raises(function() steer.truncated_sum{} end, "steer.truncated_sum", "at least one child")
    raises(function() steer.truncated_sum{ { steer.seek{}, "x" } } end, "steer.truncated_sum", "entry 1",
           "finite weight")
    raises(function() steer.dither{ { steer.seek{}, 0.5 }, epsilon = -1 } end, "steer.dither", "field 'epsilon'")
    raises(function() steer.dither{ 5 } end, "steer.dither", "entry 1")
    raises(function() steer.priority{ steer.seek{}, margin = -1 } end, "steer.priority", "field 'margin'")
    raises(function() steer.priority{ steer.seek{}, hold = "long" } end, "steer.priority", "field 'hold'")
    raises(function() steer.priority{ steer.seek{}, hold = 0 / 0 } end, "steer.priority", "field 'hold'")
    raises(function() steer.pipeline{ passes = 0 } end, "steer.pipeline", "field 'passes'")
    raises(function() steer.pipeline{ passes = 17 } end, "steer.pipeline", "field 'passes'")
    raises(function() steer.pipeline{ passes = 2.5 } end, "steer.pipeline", "passes (2.5) must be a whole number")
    raises(function() steer.pipeline{ targeters = { steer.seek{} } } end, "steer.pipeline", "field 'targeters'",
           "got steer.seek")
    raises(function() steer.pipeline{ constraints = { steer.target_position{} } } end, "field 'constraints'",
           "got steer.target_position")
    raises(function() steer.pipeline{ decomposers = { steer.wall_constraint{} } } end, "field 'decomposers'")
    raises(function() steer.pipeline{ actuator = { steer.seek{}, steer.arrive{} } } end, "field 'actuator'",
           "one behaviour")
    raises(function() steer.pipeline{ fallback = 3 } end, "field 'fallback'")
    raises(function() steer.pipeline{ targeters = { 3 } } end, "field 'targeters'", "entry 1")
    raises(function() steer.pipeline{ actuators = steer.seek{} } end, "unknown field 'actuators'")
    raises(function() steer.pipeline{ steer.seek{} } end, "steer.pipeline", "unexpected key 1")
    raises(function() steer.decompose_path{} end, "steer.decompose_path", "field 'path' is required")
    raises(function() steer.decompose_path{ path = { { 1, 1 } }, radius = 0 } end, "field 'radius'")
    raises(function() steer.decompose_path{ path = { { 1, 0 / 0 } } } end, "field 'path'")
    raises(function() steer.wall_constraint{ margin = -1 } end, "steer.wall_constraint", "field 'margin'")
    raises(function() steer.avoid_obstacle_constraint{ margin = "wide" } end, "field 'margin'")
    raises(function() steer.target_velocity{ velocity = "fast" } end, "steer.target_velocity", "field 'velocity'")
    raises(function() steer.target_position{ target = true } end, "steer.target_position", "field 'target'")
  end)
end)

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
    local msg = expect(function() steer.blend{ b } end)
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
    local msg = expect(function() w:spawn{ brain = b } end):raises_here("steer.world:spawn", "field 'brain'",
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
