-- SPDX-License-Identifier: MIT
-- crowd.lua — the circle crossing: pedestrians stand on a circle and each
-- walks to the point opposite, through everyone else. They give way to
-- each other by velocity obstacles (steer.reciprocal: each takes half the
-- yielding, and everyone passes on the right), so the crowd swirls through
-- the middle instead of jamming, and nobody walks into anybody. Every round
-- prints how long the crossing took and the deepest overlap between two
-- people; then they turn round and cross again.
--
-- Try: set pedestrian.params.responsibility to 1 (everyone yields fully)
-- or 0 (nobody does), or personal_space to 0.8, in
-- lua/steer/archetypes/pedestrian.lua and save.
--
-- Headless: steer run --headless --ticks 3600 demos/crowd.lua

local pedestrian = require "steer.archetypes.pedestrian"

local COUNT = 120
local RADIUS = 16
local C = 20

local round_start, arrived, worst = 0, 0, 0

local function deal(w)
  for a in w:agents("pedestrian") do
    local x, y = a:xy()
    a.target = { 2 * C - x, 2 * C - y }
  end
  round_start, arrived, worst = w.time, 0, 0
end

return {
  world = { dim = 2, size = { 2 * C, 2 * C }, seed = 12 },

  setup = function(w)
    for i = 1, COUNT do
      local t = i / COUNT * 2 * math.pi
      w:spawn(pedestrian.archetype, { position = { C + RADIUS * math.cos(t), C + RADIUS * math.sin(t) } })
    end
    deal(w)
    w:on("arrive", function() arrived = arrived + 1 end)
  end,

  update = function(w)
    -- the deepest overlap this round, from each person's nearest neighbour
    if w.tick % 10 == 0 then
      for a in w:agents("pedestrian") do
        local n = w:neighbors(a.position, 2 * a.radius, "pedestrian")
        if n[2] then worst = math.max(worst, 2 * a.radius - a.position:dist(n[2].position)) end
      end
    end
    if arrived >= COUNT then
      print(("crowd: %d crossed in %.1f s, deepest overlap %.2f m"):format(COUNT, w.time - round_start, worst))
      deal(w)
    end
  end,

  draw = function(d)
    d:circle(C, C, RADIUS, { 70, 70, 90 })
    d:text(1, 2 * C - 2, ("arrived %d / %d"):format(arrived, COUNT), { 255, 255, 255 })
  end,
}
