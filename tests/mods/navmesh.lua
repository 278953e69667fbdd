-- A mod that finds its way on a navigation mesh (issue 32): the test
-- scenario's 100 m box with a wall across it at y 75 .. 80 (a 10 m gap at
-- the left), and 20 agents of the mod's own, tagged "nav", that navigate
-- from the bottom of the box to (90, 90) behind the wall, giving way to
-- each other (steer.reciprocal wrapping steer.navigate). The mod builds and
-- queries the mesh under its memory cap; the world's walls stay the game's
-- (w:add_navmesh is not a mod's), so the mesh's own planning keeps them out
-- of the wall.
local steer = require "steer"

local nm = steer.navmesh{
  outline = { { 0, 0 }, { 100, 0 }, { 100, 100 }, { 0, 100 } },
  obstacles = { { { 10, 75 }, { 100, 75 }, { 100, 80 }, { 10, 80 } } },
}
assert(nm:path({ 50, 10 }, { 90, 90 }, { radius = 0.5 }), "a way round the wall")

return {
  setup = function(w)
    local brain = steer.reciprocal{ steer.navigate{ navmesh = nm, stop_radius = 1 } }
    for i = 1, 20 do
      w:spawn{ position = { 4 * i + 6, 10 }, max_speed = 10, max_force = 20, radius = 0.5, tag = "nav", brain = brain,
               target = { 86 + (i % 5) * 2, 86 + (i // 5) * 2 } }
    end
  end,
}
