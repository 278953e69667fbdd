-- SPDX-License-Identifier: MIT
-- draw_spec.lua — the debug-draw list a scenario's draw(d, w) fills: both
-- argument forms record the same commands, colours are optional, and bad
-- arguments raise naming the method and the argument.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

describe("steer.debug_draw", function()
  it("records lines, arrows, circles, points and text in world coordinates", function()
    local d = steer.debug_draw()
    d:line(1, 2, 3, 4, { 255, 0, 0 })
    d:arrow({ 0, 0, 5 }, steer.vec(1, 1, 6))
    d:circle(10, 20, 3)
    d:point({ 7, 8 }, { 0, 255, 0, 128 })
    d:text(1, 1, "hello", { 1, 2, 3 })
    expect(#d, "commands"):eq(5)
    local c = d:commands()
    expect(c[1].kind):eq("line")
    expect(c[1].b.x + c[1].b.y):eq(7)
    expect(c[1].colour[1] * 1000 + c[1].colour[2]):eq(255000)
    expect(c[2].kind):eq("arrow")
    expect(c[2].a.z):eq(5)
    expect(c[3].r):eq(3)
    expect(c[3].colour[4], "default alpha"):eq(255)
    expect(c[4].colour[4]):eq(128)
    expect(c[5].text):eq("hello")
    d:clear()
    expect(#d, "after clear"):eq(0)
  end)

  it("takes an agent for its position", function()
    local w = steer.world{}
    local a = w:spawn{ position = { 3, 4 } }
    local d = steer.debug_draw()
    d:line(a, { 0, 0 })
    expect(d:commands()[1].a.y):eq(4)
  end)

  it("rejects bad arguments with the method's name", function()
    local d = steer.debug_draw()
    local function err(f)
      local ok, e = pcall(f)
      expect(ok, "raises"):eq(false)
      return e
    end
    expect(err(function() d:line(1, 2, 3) end)):contains("d:line: the end")
    expect(err(function() d:circle(1, 2, -1) end)):contains("d:circle: the radius expected a number >= 0")
    expect(err(function() d:text(1, 2, {}) end)):contains("d:text: the text expected a string")
    expect(err(function() d:point(1, 2, { 300, 0, 0 }) end)):contains("d:point: the colour expected {r, g, b [, a]}")
    expect(err(function() d:line(0 / 0, 0, 1, 1) end)):contains("finite")
    expect(err(function() d.line({}, 1, 2, 3, 4) end)):contains("d:line: expected to be called as d:line")
  end)
end)

describe("w.mouse", function()
  it("is nil outside the viewer", function()
    expect(steer.world{}.mouse == nil, "no pointer"):eq(true)
  end)
end)
