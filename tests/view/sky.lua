-- SPDX-License-Identifier: MIT
-- sky.lua — a 3D world of still aircraft at known places, for the viewer
-- tests: each must be drawn where the perspective camera projects it.
return {
  world = { dim = 3, size = { 100, 100, 40 }, seed = 4 },
  setup = function(w)
    local at = { { 20, 30, 10 }, { 70, 60, 25 }, { 50, 50, 5 }, { 80, 20, 30 }, { 30, 80, 15 } }
    for i, p in ipairs(at) do
      w:spawn{ position = p, velocity = { 0, 0, 0 }, radius = 1.5, tag = i % 2 == 1 and "one" or "two" }
    end
  end,
  draw = function() end,
}
