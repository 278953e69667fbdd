-- SPDX-License-Identifier: MIT
-- speck.lua — three agents within 10 m of each other in a world of a
-- kilometre: the viewer frames them, not the world (0/Home twice: the world).
return {
  world = { dim = 2, size = { 1000, 1000 }, seed = 2 },
  setup = function(w)
    for _, p in ipairs{ { 500, 500 }, { 510, 500 }, { 505, 508 } } do
      w:spawn{ position = p, tag = "one", radius = 0.5 }
    end
  end,
  draw = function() end,
}
