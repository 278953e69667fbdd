-- SPDX-License-Identifier: MIT
-- handles_spec.lua — agent handles from a script's point of view: a removed
-- agent's handle says so (a.alive) and raises on any other use instead of
-- quietly naming a newer agent; loops over w:agents() survive spawning and
-- removing inside the loop; an agent of another world is refused wherever
-- a handle is taken.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

describe("a removed agent's handle", function()
  it("is not alive and raises on use, mentioning the removal", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 1, 2 } }
    expect(a.alive, "alive before remove"):eq(true)
    a:remove()
    expect(a.alive, "alive after remove"):eq(false)
    expect(w.count, "count"):eq(0)
    local msg = expect(function() return a.position end):raises("removed")
    expect(msg, "message position"):contains("handles_spec.lua:")
    expect(function() a:xy() end):raises("removed")
    expect(function() return a.speed end):raises("removed")
    expect(function() a.max_speed = 2 end):raises("removed")
    expect(function() a.target = { 0, 0 } end):raises("removed")
    expect(function() a:remove() end):raises("removed")
    expect(tostring(a), "tostring"):contains("removed")
  end)

  it("stays stale when its slot is reused, and never names the new agent", function()
    local w = steer.world{ seed = 1 }
    local old = w:spawn{ position = { 1, 1 } }
    local old_id = old.id
    old:remove()
    w:step()
    local new = w:spawn{ position = { 9, 9 } }
    expect(new.id, "the new agent's id"):ne(old_id)
    expect(old.alive, "old handle alive after reuse"):eq(false)
    expect(new.alive, "new handle alive"):eq(true)
    expect(old == new, "old == new"):falsy()
    expect(function() return old.position end):raises("removed")
    expect(new.position == steer.vec(9, 9), "new position"):truthy()
  end)

  it("is the same Lua value wherever the agent comes from", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 0, 0 } }
    local found = w:neighbors({ 0, 0 }, 1)[1]
    expect(rawequal(found, a), "w:neighbors gives the same handle"):truthy()
    for b in w:agents() do expect(b == a, "w:agents gives the same agent"):truthy() end
  end)

  it("drops its data table", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 0, 0 }, data = { hp = 10 } }
    expect(a.data.hp, "data"):eq(10)
    a.data.hp = 7
    expect(a.data.hp, "data after write"):eq(7)
    a:remove()
    expect(function() return a.data end):raises("removed")
  end)

  it("as a target gives a clear error", function()
    local w = steer.world{ seed = 1 }
    local prey = w:spawn{ position = { 5, 0 } }
    local hunter = w:spawn{ position = { 0, 0 }, max_speed = 2, max_force = 4, brain = steer.seek{} }
    hunter.target = prey
    w:step(10)
    prey:remove()
    -- the hunter keeps running without its target, and no one crashes
    w:step(10)
    expect(hunter.alive, "hunter alive"):eq(true)
    expect(function() steer.seek{ target = prey } end):raises("steer.seek", "'target'", "removed")
    expect(function() hunter.target = prey end):raises("'target'")
  end)

  it("as a target fires \"lost_target\" for the hunter (steer.h: STEER_EVENT_LOST_TARGET)", function()
    local w = steer.world{ seed = 1 }
    local prey = w:spawn{ position = { 5, 0 } }
    local hunter = w:spawn{ position = { 0, 0 }, max_speed = 2, max_force = 4, brain = steer.seek{}, target = prey }
    local lost = {}
    w:on("lost_target", function(a) lost[#lost + 1] = a end)
    w:step(5)
    prey:remove()
    w:step(5)
    expect(#lost, "lost_target events"):eq(1)
    expect(lost[1] == hunter, "the event names the hunter"):truthy()
  end)

  it("fires \"lost_target\" only for an agent whose brain reads a.target (docs/api.md, Events)", function()
    local w = steer.world{ seed = 1 }
    local prey = w:spawn{ position = { 5, 0 } }
    local drifter = w:spawn{ target = prey } -- no brain
    local own = w:spawn{ brain = steer.seek{ target = prey }, target = prey } -- names its own target
    local lost = {}
    w:on("lost_target", function(a) lost[#lost + 1] = a end)
    w:step(2)
    prey:remove()
    expect(drifter.target == nil and own.target == nil, "a.target reads nil at once"):truthy()
    w:step(3)
    expect(#lost, "no brain read the slot"):eq(0)
    own.brain = steer.seek{} -- reads the slot: the event comes with the first read, however late
    w:step(3)
    expect(#lost, "events once a brain read the slot"):eq(1)
    expect(lost[1] == own, "the event names the agent that read it"):truthy()
  end)
end)

describe("w:agents()", function()
  it("visits each agent once when the loop removes and spawns", function()
    local w = steer.world{ seed = 1 }
    for i = 1, 50 do w:spawn{ position = { i, 0 } } end
    local seen, visits, spawned = {}, 0, {}
    for a in w:agents() do
      visits = visits + 1
      expect(seen[a.id], "agent " .. a.id .. " visited twice"):falsy()
      seen[a.id] = true
      a:remove()
      local b = w:spawn{ position = { 0, visits } }
      spawned[b.id] = true
    end
    expect(visits, "visits"):eq(50)
    for id in pairs(seen) do expect(spawned[id], "a new agent (" .. id .. ") was visited"):falsy() end
    expect(w.count, "count after the loop"):eq(50)
  end)

  it("skips agents removed ahead of the loop's position", function()
    local w = steer.world{ seed = 1 }
    local all = {}
    for i = 1, 20 do all[i] = w:spawn{ position = { i, 0 } } end
    local visited = {}
    for a in w:agents() do
      expect(a.alive, "visited a removed agent"):eq(true)
      visited[#visited + 1] = a
      -- remove some other agent that has not been visited yet
      for _, b in ipairs(all) do
        if b.alive and b ~= a then
          local done = false
          for _, v in ipairs(visited) do if v == b then done = true end end
          if not done then b:remove() break end
        end
      end
    end
    expect(#visited, "visits"):eq(10)
    expect(w.count, "count"):eq(10)
  end)

  it("filters by tag", function()
    local w = steer.world{ seed = 1 }
    for i = 1, 9 do w:spawn{ position = { i, 0 }, tag = i % 3 == 0 and "guard" or nil } end
    local n = 0
    for a in w:agents("guard") do
      n = n + 1
      expect(a.tag, "tag"):eq("guard")
    end
    expect(n, "guards"):eq(3)
    n = 0
    for _ in w:agents("nobody") do n = n + 1 end
    expect(n, "agents of an unknown tag"):eq(0)
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
    expect(function() w1:spawn{ target = foreign } end)
      :raises_here("steer.world:spawn", "field 'target'", "of this world")
    expect(other.target, "target unchanged"):eq(nil)
  end)

  it("are refused as a raycast's ignore", function()
    expect(function() w1:raycast({ 0, 0 }, { 1, 0 }, 10, { ignore = foreign }) end)
      :raises_here("steer.world:raycast",
      "field 'ignore'", "an agent of this world")
  end)

  it("are refused in a brain's target fields when the brain is given to this world", function()
    local seek = steer.seek{ target = foreign, name = "chase" }
    local msg = expect(function() w1:spawn{ brain = seek } end)
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
    expect(function() steer.interpose{ a = mine, b = foreign } end):raises_here("steer.interpose", "field 'b'",
      "same world")
  end)
end)
