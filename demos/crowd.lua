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

local steer = require "steer"
local pedestrian = require "steer.archetypes.pedestrian"

local COUNT = 120
local RADIUS = 16
local C = 20

-- The round's tally, in steer.state: hot reloads, --load and the viewer's
-- rewind keep it (this file's locals start afresh on a reload, and the
-- event handler below, which counts into it, outlives a reload).
local S = steer.state

local function deal(w)
  for a in w:agents("pedestrian") do
    local x, y = a:xy()
    a.target = { 2 * C - x, 2 * C - y }
  end
  S.round_start, S.arrived, S.worst = w.time, 0, 0
end

local function count_arrivals(w)
  w:on("arrive", function() S.arrived = S.arrived + 1 end)
end

return {
  world = { dim = 2, size = { 2 * C, 2 * C }, seed = 12 },

  setup = function(w)
    for i = 1, COUNT do
      local t = i / COUNT * 2 * math.pi
      w:spawn(pedestrian.archetype, { position = { C + RADIUS * math.cos(t), C + RADIUS * math.sin(t) } })
    end
    deal(w)
    count_arrivals(w)
  end,

  update = function(w)
    -- the deepest overlap this round, from each person's nearest neighbour
    if w.tick % 10 == 0 then
      for a in w:agents("pedestrian") do
        local n = w:neighbors(a.position, 2 * a.radius, "pedestrian")
        if n[2] then S.worst = math.max(S.worst, 2 * a.radius - a.position:dist(n[2].position)) end
      end
    end
    if S.arrived >= COUNT then
      print(("crowd: %d crossed in %.1f s, deepest overlap %.2f m"):format(COUNT, w.time - S.round_start, S.worst))
      deal(w)
    end
  end,

  draw = function(d)
    d:circle(C, C, RADIUS, { 70, 70, 90 })
    d:text(1, 2 * C - 2, ("arrived %d / %d"):format(S.arrived, COUNT), { 255, 255, 255 })
  end,

  -- after a snapshot is loaded: a fresh process has no event handlers yet
  load = function(w)
    count_arrivals(w)
    -- (a snapshot saved before steer.state holds no tally: start one)
    if S.arrived == nil then S.round_start, S.arrived, S.worst = 0, 0, 0 end
  end,
}
