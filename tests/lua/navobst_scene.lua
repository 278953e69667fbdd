-- SPDX-License-Identifier: MIT
-- navobst_scene.lua — the picture of docs/api.md's "nm:add_obstacle": two rooms, a crate pushed
-- into the door, a mud spill (a circle re-labelled "mud"), a cart (a polygon crossing itself);
-- eight people plan round them (N shows the mesh, the obstacles' outlines in amber).
--   steer run --headless --ticks 120 --show navmesh --screenshot docs/img/navobst.png tests/lua/navobst_scene.lua
local steer = require "steer"
local function box(x0, y0, x1, y1) return { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } } end
local nm = steer.navmesh{ outline = box(0, 0, 40, 20),
  obstacles = { box(19.5, 11, 20.5, 20), box(19.5, 3, 20.5, 9), box(19.5, 0, 20.5, 1) },
  areas = { { polygon = box(0, 0, 0.5, 0.5), area = "mud" } }, costs = { mud = 5 } }
local crate
return {
  world = { dim = 2, size = { 40, 20 }, seed = 3 },
  setup = function(w)
    w:add_navmesh(nm)
    crate = nm:add_obstacle{ box = { min = { 17, 9.3 }, max = { 18.2, 10.7 } } }
    nm:add_obstacle{ circle = { center = { 30, 5 }, radius = 3 }, area = "mud" }
    nm:add_obstacle{ polygon = { { 8, 14 }, { 12, 16 }, { 9, 18 }, { 11, 13 } } }
    for i = 1, 8 do
      w:spawn{ position = { 3 + i, 3 + 1.8 * i }, radius = 0.4, max_speed = 3,
        brain = steer.navigate{ navmesh = nm, target = { 36, 2 + 2 * i } } }
    end
  end,
  update = function(w)
    if w.tick < 60 then crate:move(0.05, 0) end
  end,
}
