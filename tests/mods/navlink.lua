-- A mod whose agent crosses an off-mesh link (issue 33): two 10 m islands
-- 2 m apart (x 70..80 and 82..92) joined by one link, "bridge"; the mod's on_event gets the link
-- as the scenario's "link" handler does (the one object nm:links() lists)
-- and prints what it holds, for test_mods.c to read.
local steer = require "steer"

local function box(x0, y0, x1, y1) return { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } } end
local nm = steer.navmesh{ outline = { box(70, 85, 80, 95), box(82, 85, 92, 95) } }
local bridge = nm:add_link{ from = { 79.5, 90 }, to = { 82.5, 90 }, name = "bridge" }

return {
  setup = function(w)
    w:spawn{ position = { 72, 87 }, radius = 0.3, max_speed = 2, max_force = 4, tag = "crosser",
             brain = steer.navigate{ navmesh = nm, slow_radius = 2, stop_radius = 0.3 }, target = { 90, 90 } }
  end,
  on_event = function(name, agent, link)
    if name ~= "link" then return end
    print(string.format("LINK %s %s %d %.1f %.1f %.1f %.1f %s %s", agent.tag, link.name, link.index, link.from.x,
                        link.from.y, link.to.x, link.to.y, tostring(link == bridge), tostring(link.enabled)))
  end,
}
