-- SPDX-License-Identifier: MIT
-- agents_spec.lua — behaviours between moving agents, and orientation, as a
-- user sees them: a crowd crossing a circle does not overlap and gets
-- there; a head-on pair passes; responsibility 0 never reacts;
-- offset_pursuit holds its slot; interpose ends between; match_velocity
-- matches; face and look_where_going turn the heading, never faster than
-- turn_rate; nothing turns into NaN when agents stand on one another.
--
-- Agents are 0.5 m in radius, max_speed 2 and max_force 4 unless a test
-- says otherwise: a velocity time constant of 0.5 s.
local steer = require "steer"
local spec = require "spec"
local scene = require "scene"
local deepest_overlap = scene.deepest_overlap
local describe, it, expect = spec.describe, spec.it, spec.expect

local DT = 1 / 60

local function finite(x) return x == x and x ~= math.huge and x ~= -math.huge end

local function angle(a, b)
  local c = a:normalized():dot(b:normalized())
  return math.acos(math.max(-1, math.min(1, c)))
end

describe("avoid_agents", function()
  it("lets 40 agents swap across a circle without overlapping, and all arrive", function()
    local N, R, radius = 40, 20, 0.5
    local w = steer.world{ seed = 1 }
    -- avoidance weighted above arrival: in a crush it must win
    local brain = steer.blend{ { steer.arrive{ slow_radius = 3, stop_radius = 0.2 }, 1 },
                               { steer.avoid_agents{ horizon = 2 }, 3 } }
    local agents = {}
    for i = 1, N do
      local th = 2 * math.pi * (i - 1) / N
      local x, y = R * math.cos(th), R * math.sin(th)
      agents[i] = w:spawn{ position = { x, y }, max_speed = 2, max_force = 4, radius = radius,
                           brain = brain, target = { -x, -y } }
    end
    local arrived, count, last = {}, 0, nil
    w:on("arrive", function(a)
      if not arrived[a.id] then arrived[a.id], count, last = true, count + 1, w.time end
    end)
    local worst, worst_tick = 0, 0
    for t = 1, 45 * 60 do
      w:step()
      local o = deepest_overlap(agents, radius)
      if o > worst then worst, worst_tick = o, t end
      if count == N then break end
    end
    -- 10% of a radius, at any tick (measured: 0.016 m at tick 469)
    expect(worst, "deepest overlap (m), at tick " .. worst_tick):le(0.1 * radius)
    expect(count, "agents that arrived within 45 s"):eq(N)
    -- 40 m at 2 m/s is 20 s alone; the crush at the centre costs the rest
    -- (measured: 27.3 s; 26-30 s with the circle turned by up to 0.15 rad,
    -- where the deepest overlap stays within 0.016-0.036 m)
    expect(last, "time the last one arrived (s)"):lt(40)
  end)

  local function head_on(ra, rb)
    local w = steer.world{ seed = 1 }
    local function brain(r)
      return steer.blend{ { steer.arrive{ slow_radius = 3, stop_radius = 0.2 }, 1 },
                          { steer.avoid_agents{ horizon = 2, responsibility = r }, 1 } }
    end
    local a = w:spawn{ position = { -10, 0 }, max_speed = 2, max_force = 4, brain = brain(ra), target = { 10, 0 } }
    local b = w:spawn{ position = { 10, 0 }, max_speed = 2, max_force = 4, brain = brain(rb), target = { -10, 0 } }
    local closest, ya, yb = math.huge, 0, 0
    for _ = 1, 20 * 60 do
      w:step()
      local d = a.position:dist(b.position)
      if d < closest then
        local _, ay = a:xy()
        local _, by = b:xy()
        closest, ya, yb = d, ay, by
      end
    end
    return a, b, closest, ya, yb
  end

  it("lets a head-on pair pass without touching, each on its right", function()
    local a, b, closest, ya, yb = head_on(1, 1)
    expect(closest, "closest centre distance (radii 0.5 + 0.5)"):ge(1.0)
    -- a goes +x, so its right is -y; b goes -x, its right is +y
    expect(ya, "a's y when closest"):lt(0)
    expect(yb, "b's y when closest"):gt(0)
    expect(a.position:dist({ 10, 0 }), "a's distance to its goal"):lt(0.2)
    expect(b.position:dist({ -10, 0 }), "b's distance to its goal"):lt(0.2)
  end)

  it("with responsibility 0 does not react; the other agent yields alone", function()
    local a, _, closest, ya, yb = head_on(0, 1)
    -- a never leaves its line, so every bit of the gap is b's
    expect(ya, "a's y when closest"):eq(0)
    expect(a.position.y, "a's final y"):eq(0)
    expect(yb, "b's y when closest"):gt(0.5)
    expect(closest, "closest centre distance"):ge(1.0)
  end)

  it("with responsibility 0 gives exactly zero force, threat or not", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 0, 0 }, velocity = { 2, 0 }, max_speed = 2, max_force = 4,
                       brain = steer.avoid_agents{ responsibility = 0 } }
    w:spawn{ position = { 6, 0.1 }, velocity = { -2, 0 }, max_speed = 2 }
    w:spawn{ position = { 0.5, 0 }, max_speed = 2 } -- touching a at the start
    for _ = 1, 120 do
      w:step()
      expect(a:force():len(), "force"):eq(0)
    end
  end)

  it("reacts with full responsibility to a threat it would otherwise hit", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 0, 0 }, velocity = { 2, 0 }, max_speed = 2, max_force = 4,
                       brain = steer.avoid_agents{} }
    local b = w:spawn{ position = { 6, 0.1 }, velocity = { -2, 0 }, max_speed = 2 }
    local closest = math.huge
    for _ = 1, 120 do
      w:step()
      closest = math.min(closest, a.position:dist(b.position))
    end
    -- b goes straight; a alone opens the whole gap
    expect(closest, "closest centre distance"):ge(1.0)
  end)

  it("ignores agents without its tag", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 0, 0 }, velocity = { 2, 0 }, max_speed = 2, max_force = 4,
                       brain = steer.avoid_agents{ tag = "car" } }
    w:spawn{ position = { 6, 0.1 }, velocity = { -2, 0 }, max_speed = 2, tag = "ghost" }
    for _ = 1, 60 do
      w:step()
      expect(a:force():len(), "force"):eq(0)
    end
  end)

  it("passes a head-on pair in 3D too", function()
    local w = steer.world{ dim = 3, seed = 1 }
    local function brain() return steer.blend{ { steer.arrive{ slow_radius = 3 }, 1 }, { steer.avoid_agents{}, 1 } } end
    local a = w:spawn{ position = { -10, 0, 5 }, max_speed = 2, max_force = 4, brain = brain(), target = { 10, 0, 5 } }
    local b = w:spawn{ position = { 10, 0, 5 }, max_speed = 2, max_force = 4, brain = brain(), target = { -10, 0, 5 } }
    local closest = math.huge
    for _ = 1, 20 * 60 do
      w:step()
      closest = math.min(closest, a.position:dist(b.position))
    end
    expect(closest, "closest centre distance"):ge(1.0)
    expect(a.position:dist({ 10, 0, 5 }), "a's distance to its goal"):lt(0.2)
  end)
end)

describe("offset_pursuit", function()
  it("holds slots behind and beside a leader moving on a straight line", function()
    local w = steer.world{ seed = 1 }
    local lv = steer.vec(1.2, 0.5)
    local leader = w:spawn{ position = { 0, 0 }, velocity = lv, max_speed = 2 } -- no brain: drifts straight
    local offsets = { { -2, 1.5 }, { -2, -1.5 }, { -4, 0 } }
    local followers = {}
    for i, o in ipairs(offsets) do
      followers[i] = w:spawn{ position = { -8 + 3 * i, 6 - 5 * i }, max_speed = 3, max_force = 6,
                              brain = steer.offset_pursuit{ target = leader, offset = o } }
    end
    local fwd = lv:normalized()
    local side = steer.vec(-fwd.y, fwd.x)
    local function slot_error(i)
      local o = offsets[i]
      local slot = leader.position + fwd * o[1] + side * o[2]
      return followers[i].position:dist(slot)
    end
    w:step(10 * 60) -- settling
    local worst = 0
    for _ = 1, 5 * 60 do
      w:step()
      for i = 1, #offsets do worst = math.max(worst, slot_error(i)) end
    end
    expect(worst, "largest slot error over 5 s after 10 s of settling (m)"):lt(0.5)
    -- the feed-forward of the leader's velocity leaves no steady lag: the
    -- error keeps shrinking (measured: 0.14 m at 10 s for the follower that
    -- started 7 m off, 0.002 m at 20 s)
    w:step(5 * 60)
    for i = 1, #offsets do expect(slot_error(i), "slot error of follower " .. i .. " at 20 s (m)"):lt(0.01) end
    expect(leader.heading:dot(fwd), "leader heading"):gt(0.9999)
  end)

  it("puts z up in the leader's frame in 3D", function()
    local w = steer.world{ dim = 3, seed = 1 }
    local leader = w:spawn{ position = { 0, 0, 0 }, velocity = { 0, 1, 0 }, max_speed = 2 }
    local f = w:spawn{ position = { 3, -3, 0 }, max_speed = 3, max_force = 6,
                       brain = steer.offset_pursuit{ target = leader, offset = { -1, 2, 1.5 } } }
    w:step(12 * 60)
    -- leader heads +y: behind is -y, left is -x, up is +z
    local want = leader.position + steer.vec(-2, -1, 1.5)
    expect(f.position:dist(want), "distance to the slot"):lt(0.05)
  end)

  it("takes the world's axes as the frame of a point target", function()
    local w = steer.world{ seed = 1 }
    local f = w:spawn{ position = { 0, 0 }, max_speed = 3, max_force = 6,
                       brain = steer.offset_pursuit{ target = { 5, 5 }, offset = { 1, -2 } } }
    w:step(15 * 60)
    expect(f.position:dist({ 6, 3 }), "distance to point + offset"):lt(0.05)
  end)
end)

describe("interpose", function()
  it("ends between two static agents", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 0, 0 } }
    local b = w:spawn{ position = { 10, 4 } }
    local g = w:spawn{ position = { 5, -8 }, max_speed = 3, max_force = 6, brain = steer.interpose{ a = a, b = b } }
    w:step(12 * 60)
    expect(g.position:dist({ 5, 2 }), "distance to the midpoint"):lt(0.05)
    expect(g.speed, "speed"):lt(0.05)
  end)

  it("stays between two agents that move in parallel", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 0, 0 }, velocity = { 1, 0.5 }, max_speed = 2 }
    local b = w:spawn{ position = { 2, 8 }, velocity = { 1, 0.5 }, max_speed = 2 }
    local g = w:spawn{ position = { -6, 4 }, max_speed = 3, max_force = 6, brain = steer.interpose{ a = a, b = b } }
    w:step(10 * 60)
    local worst = 0
    for _ = 1, 3 * 60 do
      w:step()
      local mid = (a.position + b.position) / 2
      worst = math.max(worst, g.position:dist(mid))
    end
    expect(worst, "largest distance to the moving midpoint (m)"):lt(0.05)
  end)

  it("gives no force when one side is missing", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 0, 0 } }
    local b = w:spawn{ position = { 10, 0 } }
    local g = w:spawn{ position = { 5, -8 }, max_speed = 3, max_force = 6, brain = steer.interpose{ a = a, b = b } }
    b:remove()
    w:step(10)
    expect(g:force():len(), "force"):eq(0)
  end)
end)

describe("match_velocity", function()
  it("reaches the target's velocity", function()
    local w = steer.world{ seed = 1 }
    local t = w:spawn{ position = { 0, 10 }, velocity = { 1, -0.5 }, max_speed = 2 }
    local a = w:spawn{ position = { 0, 0 }, velocity = { -1, 1 }, max_speed = 3, max_force = 6,
                       brain = steer.match_velocity{ target = t } }
    w:step(4 * 60)
    expect((a.velocity - t.velocity):len(), "velocity error"):lt(0.01)
  end)

  it("stops for a point target, whose velocity is zero", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 0, 0 }, velocity = { 2, 1 }, max_speed = 3, max_force = 6,
                       brain = steer.match_velocity{ target = { 4, 4 } } }
    w:step(4 * 60)
    expect(a.speed, "speed"):lt(0.01)
  end)
end)

describe("face", function()
  it("turns toward a target without moving, never faster than turn_rate", function()
    local w = steer.world{ seed = 1 }
    local rate = math.pi / 2
    local a = w:spawn{ position = { 1, 1 }, max_speed = 2, max_force = 4,
                       brain = steer.face{ target = { -4, 2 }, turn_rate = rate } }
    local want = steer.vec(-5, 1):normalized()
    expect(a.heading == steer.vec(1, 0), "starting heading"):truthy()
    local prev, fastest, t_done = a.heading, 0, nil
    for t = 1, 3 * 60 do
      w:step()
      local h = a.heading
      fastest = math.max(fastest, angle(prev, h) / DT)
      prev = h
      if not t_done and h:dot(want) > 1 - 1e-9 then t_done = t end
    end
    expect(a.position == steer.vec(1, 1), "position " .. tostring(a.position)):truthy()
    expect(a.speed, "speed"):eq(0)
    expect(fastest, "fastest turn (rad/s)"):le(rate * (1 + 1e-4))
    expect(fastest, "fastest turn (rad/s)"):gt(rate * 0.99)
    -- about 168.7 degrees at 90 degrees per second
    expect(t_done, "tick the heading reached the target direction"):type("number")
    expect(t_done * DT, "time to face (s)"):near(angle(steer.vec(1, 0), want) / rate, 2 * DT)
  end)

  it("turns left when the target is exactly behind", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 0, 0 }, brain = steer.face{ target = { -3, 0 } } }
    w:step()
    expect(a.heading.y, "heading y after one tick"):gt(0)
    -- the default turn_rate is 2 pi rad/s
    expect(angle(steer.vec(1, 0), a.heading), "first step (rad)"):near(2 * math.pi * DT, 1e-5)
  end)

  it("follows a moving agent and keeps the heading while moving another way", function()
    local w = steer.world{ seed = 1 }
    local prey = w:spawn{ position = { 10, 0 }, velocity = { 0, 1 }, max_speed = 2 }
    local a = w:spawn{ position = { 0, 0 }, max_speed = 2, max_force = 4,
                       brain = steer.blend{ { steer.seek{ target = { 0, -20 } }, 1 }, { steer.face{ target = prey }, 1 } } }
    w:step(2 * 60)
    local to_prey = prey.position - a.position
    -- it aims where the prey was at the start of the tick: a lag of one
    -- tick of line-of-sight rotation (about 0.3 rad/s here)
    expect(angle(a.heading, to_prey), "angle to the prey (rad)"):lt(0.01)
    expect(angle(a.heading, a.velocity), "angle to the velocity (rad)"):gt(1)
  end)

  it("turns in the plane of the two directions in 3D", function()
    local w = steer.world{ dim = 3, seed = 1 }
    local a = w:spawn{ position = { 0, 0, 0 }, brain = steer.face{ target = { 0, 3, 4 }, turn_rate = 1 } }
    local h0, d = steer.vec(1, 0, 0), steer.vec(0, 3, 4):normalized()
    local normal = h0:cross(d):normalized()
    for _ = 1, 30 do
      w:step()
      expect(math.abs(a.heading:dot(normal)), "out of plane"):lt(1e-5)
      expect(a.heading:len(), "heading length"):near(1, 1e-5)
    end
    w:step(90)
    expect(a.heading:dot(d), "heading . target direction"):gt(1 - 1e-6)
  end)
end)

describe("look_where_going", function()
  it("turns the heading to the velocity, at no more than turn_rate", function()
    local w = steer.world{ seed = 1 }
    local rate = math.pi
    local a = w:spawn{ position = { 0, 0 }, velocity = { 0, 2 }, max_speed = 2, max_force = 4,
                       brain = steer.blend{ { steer.seek{ target = { 30, -10 } }, 1 },
                                            { steer.look_where_going{ turn_rate = rate }, 1 } } }
    local prev, fastest, lag = a.heading, 0, 0
    for _ = 1, 4 * 60 do
      w:step()
      local h = a.heading
      fastest = math.max(fastest, angle(prev, h) / DT)
      lag = math.max(lag, angle(h, a.velocity))
      prev = h
    end
    expect(fastest, "fastest turn (rad/s)"):le(rate * (1 + 1e-4))
    expect(lag, "largest lag behind the velocity (rad)"):gt(0.05) -- it did have to chase
    expect(angle(a.heading, a.velocity), "final angle to the velocity (rad)"):lt(0.02)
  end)

  it("holds the heading at rest", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 0, 0 }, brain = steer.look_where_going{} }
    a.heading = { 0, -1 }
    w:step(30)
    expect(a.heading == steer.vec(0, -1), "heading " .. tostring(a.heading)):truthy()
  end)
end)

describe("no NaN", function()
  it("with agents stacked on one point", function()
    for _, dim in ipairs({ 2, 3 }) do
      local w = steer.world{ dim = dim, seed = 1 }
      local here = dim == 3 and { 5, 5, 5 } or { 5, 5 }
      local agents = {}
      for i = 1, 4 do
        agents[i] = w:spawn{ position = here, max_speed = 2, max_force = 4, brain = steer.avoid_agents{} }
      end
      local other = agents[1]
      local brains = {
        steer.interpose{ a = other, b = agents[2] }, steer.interpose{ a = here, b = here },
        steer.offset_pursuit{ target = other, offset = dim == 3 and { -1, 0, 1 } or { -1, 0 } },
        steer.offset_pursuit{ target = here }, steer.match_velocity{ target = other },
        steer.face{ target = other }, steer.face{ target = here }, steer.look_where_going{},
        steer.blend{ { steer.avoid_agents{}, 1 }, { steer.look_where_going{}, 1 }, { steer.face{ target = other }, 1 } },
      }
      for _, b in ipairs(brains) do
        for _ = 1, 2 do agents[#agents + 1] = w:spawn{ position = here, max_speed = 2, max_force = 4, brain = b } end
      end
      for t = 1, 180 do
        w:step()
        for _, a in ipairs(agents) do
          local p, v, h, f = a.position, a.velocity, a.heading, a:force()
          local ok = finite(p.x) and finite(p.y) and finite(p.z) and finite(v.x) and finite(v.y) and finite(v.z)
            and finite(h.x) and finite(h.y) and finite(h.z) and finite(f.x) and finite(f.y) and finite(f.z)
          if not ok then spec.fail(string.format("dim %d tick %d: %s %s %s %s", dim, t, p, v, h, f)) end
        end
      end
      -- the four avoiders, which started on one point, came apart
      local closest = math.huge
      for i = 1, 3 do for j = i + 1, 4 do closest = math.min(closest, agents[i].position:dist(agents[j].position)) end end
      expect(closest, dim .. "D: closest pair of the stacked avoiders"):gt(0.5)
    end
  end)
end)

describe("determinism", function()
  it("gives the same world twice from the same start", function()
    local function run()
      local w = steer.world{ seed = 3 }
      local walker = steer.blend{ { steer.arrive{ slow_radius = 3 }, 1 }, { steer.avoid_agents{}, 3 },
                                  { steer.look_where_going{}, 1 } }
      local agents = {}
      for i = 1, 12 do
        local th = 2 * math.pi * i / 12
        agents[i] = w:spawn{ position = { 8 * math.cos(th), 8 * math.sin(th) }, max_speed = 2, max_force = 4,
                             brain = walker, target = { -8 * math.cos(th), -8 * math.sin(th) } }
      end
      w:spawn{ position = { 0, -12 }, max_speed = 3, max_force = 6,
               brain = steer.blend{ { steer.interpose{ a = agents[1], b = agents[7] }, 1 }, { steer.face{ target = agents[4] }, 1 } } }
      w:spawn{ position = { 12, 0 }, max_speed = 3, max_force = 6,
               brain = steer.offset_pursuit{ target = agents[3], offset = { -1, 1 } } }
      w:spawn{ position = { -12, 0 }, max_speed = 3, max_force = 6, brain = steer.match_velocity{ target = agents[5] } }
      w:step(8 * 60)
      return w:hash()
    end
    expect(run(), "hash of the second run"):eq(run())
  end)
end)

describe("bad arguments", function()
  it("name the behaviour, the field and what was expected", function()
    expect(function() steer.avoid_agents{ responsibility = 1.5 } end)
      :raises("steer.avoid_agents", "'responsibility'", "0 or a number >= 1e-6 and <= 1")
    expect(function() steer.avoid_agents{ horizon = 0 } end):raises("steer.avoid_agents", "'horizon'", ">= 1e-6 and <= 1e6")
    expect(function() steer.avoid_agents{ margin = -1 } end):raises("steer.avoid_agents", "'margin'")
    expect(function() steer.face{ turn_rate = 0 } end):raises("steer.face", "'turn_rate'", ">= 1e-6")
    expect(function() steer.look_where_going{ turn_rate = -1 } end):raises("steer.look_where_going", "'turn_rate'")
    expect(function() steer.offset_pursuit{ offset = "behind" } end):raises("steer.offset_pursuit", "'offset'")
    expect(function() steer.interpose{ a = "x" } end):raises("steer.interpose", "'a'")
    expect(function() steer.match_velocity{ speed = 1 } end):raises("steer.match_velocity", "unknown field 'speed'")
  end)
end)
