-- SPDX-License-Identifier: MIT
-- avoid_raycast_spec.lua — w:raycast, the query the avoidance family and
-- scripts share: the first hit on circles, walls and boxes (2D), spheres,
-- planes and boxes (3D) and agents, with its point, normal, distance and
-- what was hit; `ignore`, `agents = false` and `shapes = false`; removed
-- shapes are no longer hit.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local function near_vec(v, x, y, z, tol, label)
  expect(v:dist(steer.vec(x, y, z)), label .. " " .. tostring(v)):lt(tol or 1e-4)
end

describe("w:raycast in 2D", function()
  it("hits a circle at its near side, normal outward", function()
    local w = steer.world{ seed = 1 }
    local id = w:add_obstacle{ position = { 10, 0 }, radius = 2 }
    local hit = w:raycast({ 0, 0 }, { 1, 0 }, 20)
    expect(hit, "hit"):type("table")
    expect(hit.distance, "distance"):near(8, 1e-4)
    near_vec(hit.point, 8, 0, 0, 1e-4, "point")
    near_vec(hit.normal, -1, 0, 0, 1e-4, "normal")
    expect(hit.shape, "shape"):eq(id)
    expect(hit.agent, "agent"):eq(nil)
  end)

  it("misses what is beyond its length or off its line", function()
    local w = steer.world{ seed = 1 }
    w:add_obstacle{ position = { 10, 0 }, radius = 2 }
    expect(w:raycast({ 0, 0 }, { 1, 0 }, 7.9), "short ray"):eq(nil)
    expect(w:raycast({ 0, 3 }, { 1, 0 }, 20), "ray passing above"):eq(nil)
    expect(w:raycast({ 0, 0 }, { -1, 0 }, 20), "ray pointing away"):eq(nil)
  end)

  it("hits a wall from either side, normal facing the ray", function()
    local w = steer.world{ seed = 1 }
    local id = w:add_wall{ from = { 5, -5 }, to = { 5, 5 } }
    local hit = w:raycast({ 0, 1 }, { 2, 0 }, 10) -- the direction need not be unit
    expect(hit.distance, "distance"):near(5, 1e-4)
    near_vec(hit.normal, -1, 0, 0, 1e-4, "normal")
    expect(hit.shape, "shape"):eq(id)
    local back = w:raycast({ 9, 1 }, { -1, 0 }, 10)
    expect(back.distance, "distance from behind"):near(4, 1e-4)
    near_vec(back.normal, 1, 0, 0, 1e-4, "normal from behind")
    expect(w:raycast({ 0, 6 }, { 1, 0 }, 10), "past the wall's end"):eq(nil)
  end)

  it("hits a box on the face it reaches first", function()
    local w = steer.world{ seed = 1 }
    local id = w:add_box{ min = { 4, -1 }, max = { 6, 3 } }
    local hit = w:raycast({ 5, -10 }, { 0, 1 }, 20)
    expect(hit.distance, "distance"):near(9, 1e-4)
    near_vec(hit.normal, 0, -1, 0, 1e-4, "normal")
    expect(hit.shape, "shape"):eq(id)
    local diag = w:raycast({ 0, 5 }, { 1, -1 }, 20)
    expect(diag, "diagonal hit"):type("table")
    near_vec(diag.point, 4, 1, 0, 1e-3, "diagonal point (the left face)")
  end)

  it("returns the nearest of several shapes", function()
    local w = steer.world{ seed = 1 }
    w:add_obstacle{ position = { 20, 0 }, radius = 1 }
    local wall = w:add_wall{ from = { 12, -3 }, to = { 12, 3 } }
    w:add_box{ min = { 15, -1 }, max = { 16, 1 } }
    local hit = w:raycast({ 0, 0 }, { 1, 0 }, 50)
    expect(hit.shape, "the nearest is the wall"):eq(wall)
    expect(hit.distance, "distance"):near(12, 1e-4)
  end)

  it("hits agents, skips the ignored one, and obeys agents/shapes = false", function()
    local w = steer.world{ seed = 1 }
    local me = w:spawn{ position = { 0, 0 }, radius = 0.5 }
    local other = w:spawn{ position = { 6, 0 }, radius = 1 }
    local rock = w:add_obstacle{ position = { 10, 0 }, radius = 1 }
    -- from inside `me`: without ignore, `me` is hit at once
    local hit = w:raycast({ 0, 0 }, { 1, 0 }, 20)
    expect(hit.agent == me, "starting inside an agent hits it"):truthy()
    expect(hit.distance, "at distance"):eq(0)
    hit = w:raycast({ 0, 0 }, { 1, 0 }, 20, { ignore = me })
    expect(hit.agent == other, "the other agent"):truthy()
    expect(hit.distance, "distance to the other agent"):near(5, 1e-4)
    expect(hit.shape, "no shape"):eq(nil)
    hit = w:raycast({ 0, 0 }, { 1, 0 }, 20, { agents = false })
    expect(hit.shape, "shapes only: the rock"):eq(rock)
    expect(hit.agent, "no agent"):eq(nil)
    hit = w:raycast({ 0, 0 }, { 1, 0 }, 20, { shapes = false, ignore = me })
    expect(hit.agent == other, "agents only: the other agent"):truthy()
    expect(w:raycast({ 7.5, 0 }, { 1, 0 }, 20, { shapes = false }), "agents only, past the agents"):eq(nil)
    expect(w:raycast({ 0, 0 }, { 1, 0 }, 20, { agents = false, shapes = false }), "nothing asked"):eq(nil)
  end)

  it("no longer hits a removed shape", function()
    local w = steer.world{ seed = 1 }
    local near = w:add_obstacle{ position = { 5, 0 }, radius = 1 }
    local far = w:add_obstacle{ position = { 10, 0 }, radius = 1 }
    expect(w:raycast({ 0, 0 }, { 1, 0 }, 20).shape, "before removal"):eq(near)
    w:remove_shape(near)
    local hit = w:raycast({ 0, 0 }, { 1, 0 }, 20)
    expect(hit.shape, "after removal"):eq(far)
    w:remove_shape(far)
    expect(w:raycast({ 0, 0 }, { 1, 0 }, 20), "after removing both"):eq(nil)
    expect(function() w:remove_shape(near) end, "removing twice"):raises("remove_shape")
    -- a new shape in the old slot is a new id: the stale one stays stale
    local again = w:add_obstacle{ position = { 5, 0 }, radius = 1 }
    expect(again ~= near, "a new id for the recycled slot"):truthy()
    expect(function() w:remove_shape(near) end, "the stale id"):raises("remove_shape")
  end)

  it("and the behaviours stop avoiding a removed shape", function()
    local w = steer.world{ seed = 1 }
    local rock = w:add_obstacle{ position = { 4, 0 }, radius = 1 }
    local a = w:spawn{ position = { 0, 0 }, velocity = { 3, 0 }, max_speed = 3, max_force = 6,
                       brain = steer.avoid_obstacles{} }
    w:step()
    expect(a:force():len(), "force with the rock ahead"):gt(0)
    w:remove_shape(rock)
    w:step()
    expect(a:force():len(), "force once it is gone"):eq(0)
  end)

  it("checks its arguments", function()
    local w = steer.world{ seed = 1 }
    expect(function() w:raycast({ 0, 0 }, { 0, 0 }, 5) end, "zero direction"):raises("direction")
    expect(function() w:raycast({ 0, 0 }, { 1, 0 }, -1) end, "negative length"):raises("length")
    expect(function() w:raycast("here", { 1, 0 }, 1) end, "bad origin"):raises("origin")
    expect(function() w:raycast({ 0, 0 }, { 1, 0 }, 1, { agent = false }) end, "unknown option"):raises("agent")
  end)
end)

describe("w:raycast in 3D", function()
  it("hits a sphere, a plane and a box", function()
    local w = steer.world{ dim = 3, seed = 1 }
    local ball = w:add_obstacle{ position = { 0, 0, 10 }, radius = 2 }
    local floor = w:add_plane{ point = { 0, 0, -3 }, normal = { 0, 0, 2 } }
    local box = w:add_box{ min = { 5, -1, -1 }, max = { 7, 1, 1 } }
    local up = w:raycast({ 0, 0, 0 }, { 0, 0, 1 }, 20)
    expect(up.shape, "up: the sphere"):eq(ball)
    expect(up.distance, "distance to the sphere"):near(8, 1e-4)
    near_vec(up.normal, 0, 0, -1, 1e-4, "sphere normal")
    local down = w:raycast({ 0, 0, 0 }, { 0, 0, -1 }, 20)
    expect(down.shape, "down: the plane"):eq(floor)
    expect(down.distance, "distance to the plane"):near(3, 1e-4)
    near_vec(down.normal, 0, 0, 1, 1e-4, "plane normal")
    local side = w:raycast({ 0, 0, 0 }, { 1, 0, 0 }, 20)
    expect(side.shape, "along x: the box"):eq(box)
    expect(side.distance, "distance to the box"):near(5, 1e-4)
    near_vec(side.normal, -1, 0, 0, 1e-4, "box normal")
    -- slanted at the plane: 45 degrees down from 3 m above it
    local slant = w:raycast({ 0, 5, 0 }, { 0, 1, -1 }, 20)
    expect(slant.distance, "slanted distance to the plane"):near(3 * math.sqrt(2), 1e-3)
    expect(w:raycast({ 0, 0, 0 }, { 0, 1, 0 }, 20), "nothing along y"):eq(nil)
  end)

  it("hits an agent in 3D and respects ignore", function()
    local w = steer.world{ dim = 3, seed = 1 }
    local a = w:spawn{ position = { 0, 0, 4 }, radius = 1 }
    local hit = w:raycast({ 0, 0, 0 }, { 0, 0, 1 }, 10)
    expect(hit.agent == a, "the agent"):truthy()
    expect(hit.distance, "distance"):near(3, 1e-4)
    expect(w:raycast({ 0, 0, 0 }, { 0, 0, 1 }, 10, { ignore = a }), "ignoring it"):eq(nil)
  end)
end)
