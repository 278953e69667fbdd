-- SPDX-License-Identifier: MIT
-- navmesh_crowd_spec.lua — issue 32 item 5 at 1/60 s: 36 people of three
-- sizes cross an office floor through 1 m doors on one navigation mesh
-- (reciprocal wrapping navigate): all arrive, and no pair ever overlaps by
-- more than a tenth of the smaller radius (navmesh_crowd.lua builds it).
local spec = require "spec"
local crowd = require "navmesh_crowd"
local describe, it, expect = spec.describe, spec.it, spec.expect

describe("a crowd of three sizes on a navigation mesh", function()
  it("crosses an office through 1 m doors at 1/60 s: all arrive, no pair deeper than 0.1 r", function()
    crowd.check(expect, 1 / 60)
  end)
end)

spec.report()
