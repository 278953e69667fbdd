-- SPDX-License-Identifier: MIT
-- crowd_narrow_goals.lua — issue 31's goals for steer.reciprocal in narrow
-- places, as checks on narrow.lua's small scenes. Not yet met on main, so
-- not registered in tests/meson.build (nor named *_spec.lua, which busted
-- would pick up): run it by hand,
--   build/tests/steer-spec tests/lua/crowd_narrow_goals.lua
-- and move each check into crowd_narrow_spec.lua once it passes. The
-- bounds come from RVO2 on the same scenes (its rvo2-noise method, scored
-- by bench/crowd_scen.c, a waypoint passed only through the gap): the
-- 2 x 10 doorway takes it 31.5 s at 0.25 s and 16.3 s at 1/60 s (median
-- over its layouts 1..5: 14.4 s); the 4 x 5 queue at a 1.2 m gap overlaps
-- by 0.48 r at 0.25 s. Main's own figures are in bench/narrow-baseline.md.
local spec = require "spec"
local narrow = require "narrow"
local describe, it, expect = spec.describe, spec.it, spec.expect

describe("reciprocal in narrow places, issue 31's goals", function()
  it("swaps 2 x 10 people at 60 Hz about as fast as RVO2 (median of layouts 1..5: 14.4 s)", function()
    local m = narrow.median_time(function() return narrow.doorway(1 / 60) end, 5)
    expect(m, "median over layouts 1..5 of the time until all 20 are through (s)"):le(15)
  end)

  it("swaps them at 4 Hz no later than RVO2 (31.5 s), no pair deeper than half a radius", function()
    local r = narrow.run(narrow.doorway(0.25))
    expect(r.time, "time until all 20 are through (s); " .. narrow.show(r)):le(32)
    expect(r.deepest_r, "deepest overlap (radii); " .. narrow.show(r)):le(0.5)
  end)

  it("presses a queue into a 1.2 m gap at 4 Hz with no pair deeper than half a radius", function()
    for _, size in ipairs{ { 4, 5 }, { 5, 6 } } do
      local r = narrow.run(narrow.bottleneck(0.25, 1.2, size[1], size[2]))
      expect(r.deepest_r, ("%d x %d: deepest overlap (radii); "):format(size[1], size[2]) .. narrow.show(r)):le(0.5)
    end
  end)
end)

spec.report()
