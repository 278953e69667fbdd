-- SPDX-License-Identifier: MIT
-- nav.lua — a small grid given to the world (w:add_grid) with a house of
-- blocked cells, a dear patch and a flow field, for the viewer's G and L
-- tests. The grid is held only by the world, the field by this file.
local steer = require "steer"

local MAP = {
  "....................",
  "....................",
  "...####.......555...",
  "...####.......555...",
  "...####.............",
  "....................",
  "..........##........",
  "..........##........",
  "....................",
  "....................",
}
local state = {}

return {
  world = { dim = 2, size = { 40, 20 }, seed = 1 },
  setup = function(w)
    local grid = steer.grid{ cell = 2, map = MAP }
    w:add_grid(grid)
    state.field = grid:flow_field{ goal = { 37, 3 } }
    w:spawn{ position = { 2, 18 }, tag = "one", radius = 0.5 }
  end,
  -- a second field, dropped at once: the tests collect it
  extra = function()
    local grid = state.field.grid
    return grid:flow_field{ goal = { 1, 1 } }
  end,
}
