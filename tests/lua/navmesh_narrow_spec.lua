-- SPDX-License-Identifier: MIT
-- navmesh_narrow_spec.lua — issue 32 item 5: people pressing into a gap
-- with a navigation mesh giving the way instead of hand-placed waypoints
-- (narrow.lua's doorway and queue with `mesh`: reciprocal wrapping
-- navigate, the mesh's walls the world's), as `steer-bench crowd --nav
-- mesh` runs the benchmark's doorway, bottleneck and fanin. The doorway is
-- symmetric under the half turn and, with no waypoint keeping each flow to
-- its right, jams symmetrically at layout 0 (103 s at 0.25 s): the swaps run
-- layouts 1 to 3 (starts moved by up to 5 cm, narrow.jitter). Time bounds
-- are about a third over today's (docs/api.md, "The crowd benchmark", has
-- the benchmark's figures beside RVO2's).
local spec = require "spec"
local narrow = require "narrow"
local describe, it, expect = spec.describe, spec.it, spec.expect

-- Layouts 1 to 3 of the 2 x 10 doorway swap on a mesh at dt: each all
-- through within `time` s, no pair deeper than `deep` radii, nobody into
-- or through the wall.
local function swaps(dt, time, deep)
  for k = 1, 3 do
    local r = narrow.run(narrow.jitter(narrow.doorway(dt, nil, nil, true), k))
    local what = ("layout %d at dt %g"):format(k, dt)
    expect(r.time, what .. ": time until all 20 are through (s); " .. narrow.show(r)):le(time)
    expect(r.deepest_r, what .. ": deepest overlap (radii); " .. narrow.show(r)):le(deep)
    narrow.walls_kept(expect, r, what)
  end
end

describe("crowds pressing into a gap on a navigation mesh", function()
  it("swaps 2 x 10 people through a 2 m doorway at 60 Hz, no pair deeper than 10% of a radius", function()
    swaps(1 / 60, 31, 0.1) -- 21.8, 22.15, 23.38 s
  end)

  it("swaps them at 4 Hz without anyone into or through the wall, no pair half a radius deep", function()
    -- 28.0, 31.75, 27.0 s and 0.89, 0.55, 1.28 r deep with max_overlap = 0; at its default
    -- (max_overlap 0.3 at this step) 35.75, 32.0, 67.0 s and 0.30, 0.24, 0.30 r
    swaps(0.25, 90, 0.5)
  end)

  it("with max_overlap = 0.35, a queue of 6 x 10 pressing into a 1.2 m gap at 4 Hz keeps every pair within it", function()
    -- people pressed along the wall head across their way, toward the gap's
    -- corner: a neighbour's target then lay against their preferred
    -- velocity, and the cap was waived as for a face-off (0.42 r deep);
    -- reciprocal now waives it only when the targets oppose too. 109.25 s.
    local s = narrow.with(narrow.bottleneck(0.25, 1.2, 6, 10, true), { max_overlap = 0.35 })
    s.limit = 180
    local r = narrow.run(s)
    expect(r.time, "time until all 60 are through (s); " .. narrow.show(r)):le(145)
    expect(r.deepest_r, "deepest overlap (radii); " .. narrow.show(r)):le(0.35 + 1e-3)
    narrow.walls_kept(expect, r, "queue on a mesh at 4 Hz with max_overlap")
  end)
end)

spec.report()
