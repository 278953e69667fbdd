-- SPDX-License-Identifier: MIT
-- maps.lua — agents steered by a context near a wall and a threat, and a
-- wedge formation on its way to a target: the viewer's context (X) and
-- formations (M) layers. setup leaves the first context agent in the
-- global FOCUS for the tests (tests/view/test_view.c, test_layers).
local steer = require "steer"
-- luacheck: globals FOCUS

return {
  world = { dim = 2, size = { 40, 24 }, seed = 7 },
  setup = function(w)
    w:add_wall{ from = { 20, 12 }, to = { 20, 23 } }
    local threat = w:spawn{ position = { 13, 20 }, tag = "threat", radius = 0.6 }
    local flee = steer.flee{ target = threat, panic_radius = 6 }
    local brain = steer.context{
      interest = { steer.seek{ target = { 36, 18 } }, { flee, 2 } },
      danger = { flee, steer.avoid_walls{ length = 4 }, steer.avoid_agents{} },
      slots = 16,
    }
    FOCUS = w:spawn{ position = { 17, 17 }, radius = 0.5, max_speed = 2, max_force = 4, brain = brain }
    w:spawn{ position = { 16, 14.5 }, radius = 0.5, max_speed = 2, max_force = 4, brain = brain }
    w:spawn{ position = { 17.5, 21 }, radius = 0.5, max_speed = 2, max_force = 4, brain = brain }
    local f = steer.formation{ pattern = "wedge", spacing = 2.5, position = { 8, 6 }, target = { 32, 5 } }
    for i = 1, 5 do
      local a = w:spawn{ position = { 3 + i, 2 + (i * 3) % 5 }, radius = 0.5, max_speed = 3, max_force = 6,
                         tag = "member", brain = steer.formation_slot{ formation = f } }
      f:add(a)
    end
  end,
  draw = function() end,
}
