-- SPDX-License-Identifier: MIT
-- broken.lua — a scenario whose update fails at tick 5, for checking that
-- the `steer` program reports FILE:LINE and exits with status 1.
return {
  world = { seed = 1 },
  update = function(w)
    if w.tick == 5 then error("deliberate failure at tick 5") end
  end,
}
