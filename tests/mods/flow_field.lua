-- A mod that steers by a flow field (issue 20): a grid of 5 m cells over
-- the test scenario's 100 m box with a wall across it (a gap at the left),
-- a field toward a goal behind the wall, and 20 agents of the mod's own,
-- tagged "flow", that follow it from the bottom of the box.
--
-- Loaded under the name "flow_field_lend" (with touch_all) it also gives
-- the scenario's wanderers a brain on its field, then loops for ever in
-- update from its 60th tick on: the engine disables it and closes its Lua
-- state while the wanderers still steer on the field.
local steer = require "steer"

local map = {}
for j = 1, 20 do map[j] = string.rep(".", 20) end
map[5] = "..##################" -- y from 75 to 80 m, open from x 0 to 10 m

local grid = steer.grid{ map = map, cell = 5 }
local field = grid:flow_field{ goal = { 90, 90 } }
local lend = steer.mod_name == "flow_field_lend"
local ticks = 0

return {
  setup = function(w)
    local brain = steer.follow_flow{ field = field }
    for i = 1, 20 do
      w:spawn{ position = { 4 * i + 6, 10 }, max_speed = 10, max_force = 20, tag = "flow", brain = brain }
    end
    if lend then
      for a in w:agents("wanderer") do
        a.max_speed, a.max_force = 10, 20
        a.brain = steer.follow_flow{ field = field }
      end
    end
  end,
  update = function()
    ticks = ticks + 1
    if lend and ticks > 60 then while true do end end
  end,
}
