-- SPDX-License-Identifier: MIT
-- kinematic_spec.lua — an agent the game moves itself (`kinematic = true`):
-- the game sets its position and velocity each tick and steer integrates
-- nothing for it (1 s at 4 m/s is 4 m, not 8), runs no brain for it and
-- does not push it; every other agent sees it where the game put it, at the
-- game's velocity (neighbours, avoidance, pursuit, the collide pass). The
-- flag is part of the agent's state: snapshots keep it, the hash sees it.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local DT = 1 / 60

-- The game's loop for its player: a velocity, the position advanced by it,
-- then the world's step; `ticks` times.
local function drive(w, player, vel, ticks, each)
  for _ = 1, ticks do
    player.position = player.position + vel * DT
    player.velocity = vel
    w:step()
    if each then each() end
  end
end

describe("a kinematic agent", function()
  it("goes exactly as far as the game moves it: 4 m/s for 1 s is 4 m", function()
    local w = steer.world{ seed = 1, dt = DT }
    local player = w:spawn{ position = { 10, 0 }, max_speed = 10, kinematic = true }
    expect(player.kinematic, "a.kinematic"):eq(true)
    drive(w, player, steer.vec(4, 0), 60)
    expect(player.position.x, "x after 1 s at 4 m/s from 10"):near(14, 1e-4)
    expect(player.position.y, "y"):eq(0)
    expect(player.velocity.x, "the game's velocity, kept"):eq(4)
    -- the same loop on an agent steer moves too: it goes twice as far
    local w2 = steer.world{ seed = 1, dt = DT }
    local twice = w2:spawn{ position = { 10, 0 }, max_speed = 10 }
    drive(w2, twice, steer.vec(4, 0), 60)
    expect(twice.position.x, "x of a steered agent moved by the game too"):near(18, 1e-3)
  end)

  it("runs no brain and stays where the game leaves it", function()
    local w = steer.world{ seed = 2, dt = DT }
    local a = w:spawn{ position = { 0, 0 }, velocity = { 1, 0 }, brain = steer.seek{}, target = { 50, 50 },
                       max_speed = 3, max_force = 5, kinematic = true }
    w:step(30)
    expect(a.position.x, "x"):eq(0)
    expect(a.position.y, "y"):eq(0)
    expect(a.velocity.x, "velocity kept"):eq(1)
    expect(a:force():len(), "no force"):eq(0)
    -- steered again: its brain takes over from the state the game left
    a.kinematic = false
    w:step(30)
    expect(a.kinematic, "a.kinematic"):eq(false)
    expect(a.position.y, "seeks again"):gt(0.1)
  end)

  it("is seen by the others: neighbours, pursuit and avoidance read its position and velocity", function()
    local w = steer.world{ seed = 3, dt = DT }
    local player = w:spawn{ position = { 0, 0 }, radius = 0.5, kinematic = true, tag = "player" }
    player.position = steer.vec(20, 5)
    player.velocity = steer.vec(0, 3)
    local near = w:neighbors(steer.vec(20, 5), 1, "player")
    expect(#near, "neighbours at the game's position"):eq(1)
    -- pursuit leads the player by its velocity (the game's, not steer's)
    local hunter = w:spawn{ position = { 0, 5 }, max_speed = 4, max_force = 100, brain = steer.pursue{},
                            target = player }
    w:step()
    player.position = steer.vec(20, 5)
    expect(hunter:force().y, "pursue aims ahead of the player, along its velocity"):gt(0.5)

    -- a walker crossing the player's line: with avoid_agents it keeps clear
    local function crossing(avoid)
      local w2 = steer.world{ seed = 4, dt = DT }
      local p = w2:spawn{ position = { 0, -10 }, radius = 0.5, kinematic = true }
      local brain = avoid and steer.blend{ { steer.arrive{}, 1 }, { steer.avoid_agents{ horizon = 3 }, 4 } }
        or steer.arrive{}
      local walker = w2:spawn{ position = { 0, 10 }, radius = 0.5, max_speed = 2, max_force = 6, brain = brain,
                               target = { 0, -10 } }
      local closest = math.huge
      drive(w2, p, steer.vec(0, 2), 600, function()
        closest = math.min(closest, (walker.position - p.position):len())
      end)
      expect(p.position.x, "the player stays on the game's line"):eq(0)
      expect(p.position.y, "and at the game's distance"):near(10, 1e-3)
      return closest
    end
    expect(crossing(false), "closest approach without avoidance (m)"):lt(0.5)
    expect(crossing(true), "closest approach with avoid_agents (m)"):ge(1)
  end)

  it("is not pushed by the collide pass; an agent it overlaps takes the whole push", function()
    local w = steer.world{ seed = 5, dt = DT, collide = true }
    local player = w:spawn{ position = { 0, 0 }, radius = 1, kinematic = true }
    local other = w:spawn{ position = { 0.5, 0 }, radius = 1 }
    w:add_wall{ from = { -5, 3 }, to = { 5, 3 } }
    w:step()
    expect(player.position.x, "the player stays put"):eq(0)
    expect(other.position.x, "the other agent cleared it"):near(2, 1e-3)
    -- nor do walls push it: the game put it there
    player.position = steer.vec(0, 2.8)
    w:step()
    expect(player.position.y, "inside a wall's reach, where the game put it"):near(2.8, 1e-6)
  end)

  it("is kept by snapshots and seen by the hash", function()
    local function world(kin)
      local w = steer.world{ seed = 6, dt = DT }
      w:spawn{ position = { 1, 2 }, velocity = { 1, 0 }, kinematic = kin }
      return w
    end
    local w = world(true)
    expect(w:hash(), "the flag is state"):ne(world(false):hash())
    local function first(x) return x:agents()() end
    local loaded = steer.load(w:save())
    expect(loaded:hash(), "hash after a load"):eq(w:hash())
    expect(first(loaded).kinematic, "kinematic after a load"):eq(true)
    w:step(10)
    loaded:step(10)
    expect(loaded:hash(), "the same ticks after a load"):eq(w:hash())
    expect(first(loaded).position.x, "not integrated after a load"):eq(1)
    -- a rewind restores it too
    local s = w:save()
    first(w).kinematic = false
    w:restore(s)
    expect(first(w).kinematic, "kinematic after a restore"):eq(true)
  end)

  it("gives the same ticks on any number of threads, in a crowd that collides with it", function()
    local function run(threads)
      local w = steer.world{ seed = 8, dt = DT, size = { 60, 60 }, collide = true, threads = threads }
      local brain = steer.blend{ { steer.separation{ radius = 2 }, 2 }, { steer.wander{}, 1 } }
      local rnd = 12345
      local function u() rnd = (rnd * 1103515245 + 12345) % 2147483648 return rnd / 2147483648 end
      for _ = 1, 2000 do
        w:spawn{ position = { 60 * u(), 60 * u() }, radius = 0.4, max_speed = 2, max_force = 4, brain = brain }
      end
      local players = {}
      for i = 1, 20 do players[i] = w:spawn{ position = { 3 * i, 30 }, radius = 1, kinematic = true, brain = brain } end
      for _ = 1, 60 do
        for _, p in ipairs(players) do
          p.position = p.position + steer.vec(0, 3 * DT)
          p.velocity = steer.vec(0, 3)
        end
        w:step()
      end
      return w:hash()
    end
    expect(run(4), "hash on 4 threads"):eq(run(1))
  end)

  it("refuses what is not a boolean, naming the field", function()
    local w = steer.world{ seed = 7 }
    expect(function() w:spawn{ kinematic = 1 } end):raises_here("steer.world:spawn", "kinematic", "a boolean")
    local a = w:spawn{}
    expect(function() a.kinematic = "yes" end):raises_here("kinematic", "a boolean")
  end)
end)

spec.report()
