-- SPDX-License-Identifier: MIT
-- broken.lua — still.lua's world, whose update fails from tick 10 on: the
-- viewer must keep the window, stop the simulation and show the error.
local still = dofile((debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or ".") .. "/still.lua")

return {
  world = still.world,
  setup = still.setup,
  draw = still.draw,
  update = function(w)
    if w.tick >= 10 then error("the update broke at tick " .. w.tick) end
  end,
}
