-- steer-bench-mod-work's scenario: a town of 9,600 walls (40 x 60 houses
-- of four walls, 12 m square, on blocks of 20 m), and nothing else.
local steer = require "steer"
return {
  world = { dim = 2, size = { 800, 1200 }, seed = 5 },
  setup = function(w)
    for i = 0, 39 do
      for j = 0, 59 do
        local x, y = 20 * i + 4, 20 * j + 4
        local c = { { x, y }, { x + 12, y }, { x + 12, y + 12 }, { x, y + 12 }, { x, y } }
        for k = 1, 4 do w:add_wall{ from = c[k], to = c[k + 1] } end
      end
    end
  end,
}
