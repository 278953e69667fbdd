-- SPDX-License-Identifier: MIT
-- avoid_walls_spec.lua — steer.avoid_walls (ray whiskers) as a user sees
-- it: a whisker that reaches a wall pushes the agent away along the wall's
-- normal, harder the deeper the whisker is in; a wall met head-on or a
-- concave 90-degree corner, where the side whiskers cancel, does not hold
-- the agent: it chooses a turning side, keeps it, and leaves the corner.
-- A wall whose ends are one point as floats is refused; a short one still
-- stops an agent.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local function corner_world(seed)
  -- an L of two 8 m walls meeting at (10, 10), open toward the origin
  local w = steer.world{ seed = seed }
  w:add_wall{ from = { 2, 10 }, to = { 10, 10 } }
  w:add_wall{ from = { 10, 2 }, to = { 10, 10 } }
  return w
end

describe("avoid_walls", function()
  it("pushes away from a wall along its normal, harder when closer", function()
    local function push(dist)
      local w = steer.world{ seed = 1 }
      w:add_wall{ from = { -50, 0 }, to = { 50, 0 } }
      -- heading 45 degrees toward the wall
      local a = w:spawn{ position = { 0, dist }, velocity = { 2, -2 }, max_speed = 3, max_force = 6,
                         brain = steer.avoid_walls{ length = 3 } }
      w:step()
      return a:force()
    end
    local near, far = push(1), push(2)
    expect(near.y, "push away from the wall at 1 m"):gt(0)
    expect(far.y, "push away from the wall at 2 m"):gt(0)
    expect(near.y, "push at 1 m against push at 2 m (" .. far.y .. ")"):gt(far.y)
    expect(math.abs(near.x), "no push along the wall (oblique hit)"):lt(1e-4)
  end)

  it("gives nothing when no whisker reaches a wall", function()
    local w = steer.world{ seed = 1 }
    w:add_wall{ from = { -50, 0 }, to = { 50, 0 } }
    local a = w:spawn{ position = { 0, 5 }, velocity = { 3, 0 }, max_speed = 3, max_force = 6,
                       brain = steer.avoid_walls{ length = 3 } }
    w:step()
    expect(a:force():len(), "force 5 m from the wall, moving along it"):eq(0)
  end)

  -- The agent starts 2.5-3.5 m from the corner, driven at it by a seek
  -- whose target lies behind the corner; the corner region is the disc of
  -- 4.5 m round the corner. It must leave within 5 s.
  local function corner_run(pos, vel, brain)
    local w = corner_world(1)
    local a = w:spawn{ position = pos, velocity = vel, max_speed = 3, max_force = 6, radius = 0.5, brain = brain }
    local left, reached, closest = nil, nil, math.huge
    for t = 1, 30 * 60 do
      w:step()
      local d = a.position:dist({ 10, 10 })
      closest = math.min(closest, d)
      if not left and d > 4.5 then left = t end
      if a.position:dist({ 15, 15 }) < 0.5 then reached = t break end
    end
    return left, reached, closest
  end
  local function seek_behind() return steer.priority{ steer.avoid_walls{}, steer.seek{ target = { 15, 15 } } } end

  it("leaves a 90-degree corner within 5 s when driven into it, from any approach", function()
    local approaches = { { { 7.5, 7.5 }, { 2, 2 } }, { { 7, 8 }, { 2.5, 1.5 } }, { { 8, 7 }, { 1.5, 2.5 } },
                         { { 6.8, 8.2 }, { 2.8, 0.5 } }, { { 8.2, 6.8 }, { 0.5, 2.8 } }, { { 7.5, 7.5 }, { 0, 0 } } }
    for _, ap in ipairs(approaches) do
      local label = "from (" .. ap[1][1] .. ", " .. ap[1][2] .. ") at (" .. ap[2][1] .. ", " .. ap[2][2] .. ")"
      local left, _, closest = corner_run(ap[1], ap[2], seek_behind())
      expect(closest, label .. ": closest approach to the corner (m)"):lt(3.4)
      expect(left, label .. ": tick it left the corner region"):le(5 * 60)
    end
  end)

  it("slides along the wall round its end and reaches the target behind the corner", function()
    local left, reached = corner_run({ 7.5, 7.5 }, { 2, 2 }, seek_behind())
    expect(left, "tick it left the corner region"):le(5 * 60)
    expect(reached, "tick it reached the target behind the corner"):le(30 * 60)
  end)

  it("leaves the corner also in a blend with the seek", function()
    local left = corner_run({ 7.5, 7.5 }, { 2, 2 },
                            steer.blend{ { steer.avoid_walls{}, 2 }, { steer.seek{ target = { 15, 15 } }, 1 } })
    expect(left, "tick it left the corner region"):le(5 * 60)
  end)

  it("head-on at a wall turns to one side and keeps to it", function()
    for seed = 1, 4 do
      local w = steer.world{ seed = seed }
      w:add_wall{ from = { 10, -20 }, to = { 10, 20 } }
      local a = w:spawn{ position = { 0, 0 }, velocity = { 3, 0 }, max_speed = 3, max_force = 6, radius = 0.5,
                         brain = steer.priority{ steer.avoid_walls{}, steer.seek{ target = { 20, 0 } } } }
      local side, crossed, maxx = 0, 0, -math.huge
      for _ = 1, 6 * 60 do
        w:step()
        local x, y = a:xy()
        maxx = math.max(maxx, x)
        if side == 0 and math.abs(y) > 0.3 then side = y > 0 and 1 or -1 end
        if side ~= 0 and y * side < 0 then crossed = crossed + 1 end
      end
      local _, y = a:xy()
      expect(side ~= 0, "seed " .. seed .. ": it turned to a side"):truthy()
      expect(crossed, "seed " .. seed .. ": ticks back on the other side"):eq(0)
      expect(math.abs(y), "seed " .. seed .. ": distance slid along the wall in 6 s"):gt(8)
      expect(maxx, "seed " .. seed .. ": furthest x (the wall is at 10)"):lt(9.5)
    end
  end)

  it("escape = false: head-on at a wall it only pushes back (no slide along it), and stays off the wall", function()
    -- a formation's member near its slot beside a wall: the slot, not the
    -- wall, says where it goes
    for seed = 1, 4 do
      local w = steer.world{ seed = seed }
      w:add_wall{ from = { 10, -20 }, to = { 10, 20 } }
      local a = w:spawn{ position = { 0, 0 }, velocity = { 3, 0 }, max_speed = 3, max_force = 6, radius = 0.5,
                         brain = steer.priority{ steer.avoid_walls{ escape = false }, steer.seek{ target = { 20, 0 } } } }
      local maxx, slid = -math.huge, 0
      for _ = 1, 6 * 60 do
        w:step()
        local x, y = a:xy()
        maxx, slid = math.max(maxx, x), math.max(slid, math.abs(y))
        local f = a:contributions().avoid_walls
        if f.x ~= 0 then
          expect(math.abs(f.y), "seed " .. seed .. ": the push's part along the wall"):lt(1e-6)
          expect(f.x, "seed " .. seed .. ": the push points away from the wall"):lt(0)
        end
      end
      expect(slid, "seed " .. seed .. ": distance slid along the wall in 6 s"):lt(0.1)
      expect(maxx, "seed " .. seed .. ": furthest x (the wall is at 10)"):lt(9.5)
    end
    expect(function() steer.avoid_walls{ escape = 1 } end, "escape = 1"):raises("escape", "boolean")
  end)

  it("whiskers in 3D ring the heading and see a floor", function()
    local w = steer.world{ dim = 3, seed = 1 }
    w:add_plane{ point = { 0, 0, 0 }, normal = { 0, 0, 1 } }
    local a = w:spawn{ position = { 0, 0, 1 }, velocity = { 3, 0, -0.5 }, max_speed = 3, max_force = 6,
                       brain = steer.avoid_walls{ whiskers = 5, length = 3, spread = 1.2 } }
    w:step()
    local f = a:force()
    expect(f.z, "upward push from the floor"):gt(0)
  end)

  it("rejects bad fields", function()
    expect(function() steer.avoid_walls{ whiskers = 2.5 } end, "whiskers = 2.5"):raises("whiskers", "whole")
    expect(function() steer.avoid_walls{ whiskers = 0 } end, "whiskers = 0"):raises("whiskers")
    expect(function() steer.avoid_walls{ whiskers = 17 } end, "whiskers = 17"):raises("whiskers")
    expect(function() steer.avoid_walls{ length = 0 } end, "length = 0"):raises("length")
    expect(function() steer.avoid_walls{ spread = 7 } end, "spread = 7"):raises("spread")
  end)
end)

describe("degenerate walls", function()
  it("whose end points are equal once stored as floats are refused", function()
    local w = steer.world{ seed = 1, collide = true }
    expect(function() w:add_wall{ from = { 0, 0 }, to = { 1e-50, 0 } } end):raises_here("steer.world:add_wall",
      "'from' and 'to'", "expected two different points")
    expect(function() w:add_wall{ from = { 1, 1 }, to = { 1 + 1e-12, 1 } } end)
      :raises_here("two different points")
    expect(function() w:add_wall{ from = { -3e38, 0 }, to = { 3e38, 0 } } end):raises_here("1.8e19 apart")
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
