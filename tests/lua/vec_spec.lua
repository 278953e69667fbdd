-- SPDX-License-Identifier: MIT
-- vec_spec.lua — steer.vec, the value scripts do their own geometry with:
-- operators, methods and the edge cases that would otherwise make NaN
-- (normalising or truncating the zero vector).
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect
local vec = steer.vec

local function expect_vec(v, x, y, z, tol, label)
  tol = tol or 1e-12
  expect(v.x, (label or "v") .. ".x"):near(x, tol)
  expect(v.y, (label or "v") .. ".y"):near(y, tol)
  expect(v.z, (label or "v") .. ".z"):near(z or 0, tol)
end

describe("steer.vec", function()
  it("has x, y, z fields; z defaults to 0", function()
    expect_vec(vec(1, 2), 1, 2, 0)
    expect_vec(vec(1, 2, 3), 1, 2, 3)
    expect_vec(vec{ 4, 5 }, 4, 5, 0)
    expect_vec(vec{ x = 4, y = 5, z = 6 }, 4, 5, 6)
  end)

  it("adds, subtracts, scales, divides and negates", function()
    local a, b = vec(1, 2, 3), vec(4, -1, 0.5)
    expect_vec(a + b, 5, 1, 3.5)
    expect_vec(a - b, -3, 3, 2.5)
    expect_vec(a * 2, 2, 4, 6)
    expect_vec(2 * a, 2, 4, 6)
    expect_vec(a / 2, 0.5, 1, 1.5)
    expect_vec(-a, -1, -2, -3)
  end)

  it("takes plain tables as the other operand", function()
    expect_vec(vec(1, 1) + { 2, 3 }, 3, 4, 0)
    expect_vec({ 2, 3 } - vec(1, 1), 1, 2, 0)
  end)

  it("compares by value with ==", function()
    expect(vec(1, 2) == vec(1, 2), "equal vectors"):truthy()
    expect(vec(1, 2) == vec(1, 2, 0), "z = 0 implied"):truthy()
    expect(vec(1, 2) == vec(2, 1), "different vectors"):falsy()
    expect(vec(1, 2) ~= vec(1, 3), "~="):truthy()
  end)

  it("gives its length with #v and len, and len2", function()
    local v = vec(3, 4)
    expect(#v, "#v"):near(5, 1e-12)
    expect(v:len(), "len"):near(5, 1e-12)
    expect(v:len2(), "len2"):near(25, 1e-12)
    expect(#vec(1, 2, 2), "#v in 3D"):near(3, 1e-12)
  end)

  it("normalizes to unit length, and the zero vector to zero (not NaN)", function()
    expect_vec(vec(3, 4):normalized(), 0.6, 0.8, 0, 1e-12)
    local z = vec(0, 0):normalized()
    expect_vec(z, 0, 0, 0)
    expect(z.x == z.x, "x is not NaN"):truthy()
    expect(vec(0, 0, 0):len(), "len of zero"):eq(0)
  end)

  it("computes dot, cross and dist", function()
    expect(vec(1, 2, 3):dot(vec(4, 5, 6)), "dot"):near(32, 1e-12)
    expect(vec(1, 0):dot({ 0, 1 }), "dot of perpendicular"):eq(0)
    expect_vec(vec(1, 0, 0):cross(vec(0, 1, 0)), 0, 0, 1)
    expect_vec(vec(0, 1, 0):cross(vec(1, 0, 0)), 0, 0, -1)
    -- 2D cross product: the z of the 3D one, the signed area
    expect(vec(2, 0):cross(vec(0, 3)).z, "2D cross"):near(6, 1e-12)
    expect(vec(1, 1):dist(vec(4, 5)), "dist"):near(5, 1e-12)
    expect(vec(1, 1):dist({ 1, 1 }), "dist to itself"):eq(0)
  end)

  it("truncates to a maximum length, keeping the direction", function()
    expect_vec(vec(3, 4):truncated(2), 1.2, 1.6, 0, 1e-12)
    expect_vec(vec(0.3, 0.4):truncated(2), 0.3, 0.4, 0)
    expect_vec(vec(3, 4):truncated(0), 0, 0, 0)
    expect_vec(vec(0, 0):truncated(1), 0, 0, 0)
  end)

  it("prints itself with tostring", function()
    expect(tostring(vec(1, 2)), "2D"):eq("vec(1, 2)")
    expect(tostring(vec(1.5, -2, 3)), "3D"):eq("vec(1.5, -2, 3)")
  end)

  it("is immutable", function()
    local v = vec(1, 2)
    expect(function() v.x = 3 end):raises("immutable")
    expect(v.x, "x after the failed write"):eq(1)
  end)

  it("refuses NaN, infinite components and division by zero", function()
    expect(function() vec(0 / 0, 1) end):raises("steer.vec", "x", "finite", "NaN")
    expect(function() vec(1, math.huge) end):raises("steer.vec", "y", "finite", "inf")
    expect(function() vec(1, "a") end):raises("steer.vec", "finite")
    expect(function() return vec(1, 2) / 0 end):raises("division by zero")
    expect(function() return vec(1, 2) * (0 / 0) end):raises("finite", "NaN")
    expect(function() return vec(1, 2) + "x" end):raises("expected a vector")
    expect(function() vec(1, 2):truncated(-1) end):raises("truncated", ">= 0")
  end)
end)
