-- SPDX-License-Identifier: MIT
-- neighbors_spec.lua — w:neighbors(position, radius [, tag]): the agents
-- within the radius, nearest first, only of the tag when one is given, and
-- always up to date with spawns, moves and removals made since the last tick;
-- a world interns up to 65535 tag names.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

-- Agents at known distances from the origin, in scrambled order and directions.
local function ring_world(opts)
  local w = steer.world(opts or { seed = 1 })
  local dists = { 4.5, 1, 3, 0.5, 2, 5, 2.5, 1.5, 3.5, 4 }
  local agents = {}
  for i, d in ipairs(dists) do
    local angle = i * 2.4
    agents[i] = w:spawn{ position = { d * math.cos(angle), d * math.sin(angle) }, tag = i % 2 == 0 and "even" or "odd" }
    agents[i].data.d = d
  end
  return w, agents
end

local function distances(list)
  local out = {}
  for i, a in ipairs(list) do out[i] = a.data.d end
  return out
end

describe("w:neighbors", function()
  it("returns agents nearest first", function()
    local w = ring_world()
    local found = w:neighbors({ 0, 0 }, 10)
    expect(#found, "found"):eq(10)
    local ds = distances(found)
    for i = 2, #ds do expect(ds[i], "distance of neighbour " .. i .. " " .. spec.show(ds)):ge(ds[i - 1]) end
  end)

  it("respects the radius", function()
    local w = ring_world()
    local found = w:neighbors({ 0, 0 }, 2.75)
    expect(spec.show(distances(found)), "distances within 2.75"):eq(spec.show{ 0.5, 1, 1.5, 2, 2.5 })
    expect(#w:neighbors({ 0, 0 }, 0.25), "within 0.25"):eq(0)
    expect(#w:neighbors({ 100, 100 }, 5), "far away"):eq(0)
  end)

  it("respects the tag", function()
    local w = ring_world()
    local found = w:neighbors({ 0, 0 }, 10, "even")
    expect(#found, "even agents"):eq(5)
    for _, a in ipairs(found) do expect(a.tag, "tag"):eq("even") end
    expect(#w:neighbors({ 0, 0 }, 10, "nobody"), "unknown tag"):eq(0)
  end)

  it("sees spawns, moves and removals made since the last tick", function()
    local w, agents = ring_world()
    w:step()
    local n = #w:neighbors({ 0, 0 }, 10)
    local extra = w:spawn{ position = { 0.1, 0 } }
    expect(#w:neighbors({ 0, 0 }, 10), "after a spawn"):eq(n + 1)
    expect(w:neighbors({ 0, 0 }, 10)[1] == extra, "the new agent is nearest"):truthy()
    agents[4]:remove()
    expect(#w:neighbors({ 0, 0 }, 10), "after a removal"):eq(n)
    extra.position = { 50, 50 }
    expect(#w:neighbors({ 0, 0 }, 10), "after moving one away"):eq(n - 1)
    expect(w:neighbors({ 50, 50 }, 1)[1] == extra, "found at its new place"):truthy()
  end)

  it("measures across the seam of a wrapped world", function()
    local w = steer.world{ size = { 20, 20 }, wrap = true, seed = 1 }
    local a = w:spawn{ position = { 19.5, 10 } }
    w:spawn{ position = { 10, 10 } }
    local found = w:neighbors({ 0.5, 10 }, 2)
    expect(#found, "agents within 2 m across the seam"):eq(1)
    expect(found[1] == a, "the one beyond the seam"):truthy()
  end)

  it("finds every agent for a radius larger than the world", function()
    local w = ring_world()
    for _, r in ipairs{ 1e3, 1e6, 1e9, 1e12, 1e30 } do
      expect(#w:neighbors({ 0, 0 }, r), "agents within " .. r):eq(10)
    end
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
    expect(function() w:spawn{ tag = "another new one" } end)
      :raises_here("steer.world:spawn", "65535 distinct tags")
    expect(msg, "message"):contains("could not set it")
  end)
end)
