-- SPDX-License-Identifier: MIT
-- arrive.lua — arriving at targets that change at low frequency. 24 agents
-- each brake into their own target; every few seconds the script deals out
-- new targets. Half the agents ease in linearly, half with the "smooth"
-- curve, and the "arrive" event (w:on) records when each one got there, so
-- every round prints how many arrived and how long the two halves took.
--
-- What it shows: one brain serves many agents with different targets (the
-- arrive behaviour has no target of its own and reads each agent's
-- `a.target` slot); action selection is a few lines of Lua that run once
-- per round, and events, not polling, tell the script about arrivals.
--
-- Try: change SLOW_RADIUS or the ease curves and save: `reload` rebuilds
-- the brains and the agents carry on toward their current targets; the
-- round count and the random stream go on, as they live in steer.state.
--
-- Keys in the viewer: R reloads, Space pauses, click an agent to inspect it, H lists every key, Esc quits.
-- Headless: steer run --headless --ticks 600 demos/arrive.lua

local steer = require "steer"
local random = require "steer.random" -- a stream a snapshot keeps (math.random's is not)

-- The script's own state: steer.state is kept across hot reloads, and
-- snapshots (--save, --load, the viewer's rewind) carry it. This file's
-- locals start afresh on every reload, and a snapshot does not hold them.
local S = steer.state

local COUNT = 24
local SIZE = 100
local ROUND = 8          -- seconds between new targets
local SLOW_RADIUS = 8    -- where braking starts
local STOP_RADIUS = 0.5  -- inside it the agent has arrived

local function make_brain(ease)
  return steer.blend{
    name = ease,
    { steer.arrive{ slow_radius = SLOW_RADIUS, stop_radius = STOP_RADIUS, ease = ease, name = "arrive" }, 1 },
    -- a little personal space, so that close targets do not pile agents up
    { steer.separation{ radius = 1.5, name = "separation" }, 2 },
  }
end

-- Targets on a jittered ring, shuffled: the paths cross the middle.
local function deal_targets(w, round)
  local rng = S.rng
  local targets = {}
  for i = 1, COUNT do
    local angle = (i + 0.5 * round) / COUNT * 2 * math.pi
    local r = SIZE * (0.25 + 0.15 * random.float(rng))
    targets[i] = { SIZE / 2 + r * math.cos(angle), SIZE / 2 + r * math.sin(angle) }
  end
  for i = COUNT, 2, -1 do
    local j = random.int(rng, i)
    targets[i], targets[j] = targets[j], targets[i]
  end
  local i = 0
  for a in w:agents() do
    i = i + 1
    a.target = targets[i]
    a.data.dealt, a.data.arrived, a.data.round = w.time, nil, round
  end
end

-- Mean arrival time of the agents with `tag` and how many arrived.
local function tally(w, tag)
  local sum, n = 0, 0
  for a in w:agents(tag) do
    if a.data.arrived then sum, n = sum + a.data.arrived, n + 1 end
  end
  return n, n > 0 and sum / n or 0
end

-- Fires once per arrival (the agent then holds still inside stop_radius).
local handled -- whether this chunk has set the handler

local function on_arrive(w)
  handled = true
  w:on("arrive", function(a)
    if not a.data.arrived then a.data.arrived = w.time - a.data.dealt end
  end)
end

local function bind_brains(w)
  local brains = { linear = make_brain("linear"), smooth = make_brain("smooth") }
  for a in w:agents() do a.brain = brains[a.tag] end
end

return {
  world = { dim = 2, size = { SIZE, SIZE }, seed = 3 },

  setup = function(w)
    S.rng, S.round, S.next_round = random.new(3), 0, 0
    for i = 1, COUNT do
      w:spawn{
        position = { SIZE / 2 + 6 * math.cos(i), SIZE / 2 + 6 * math.sin(i) },
        max_speed = 12, max_force = 20, radius = 0.5,
        tag = i % 2 == 0 and "linear" or "smooth",
      }
    end
    bind_brains(w)
    on_arrive(w)
  end,

  update = function(w)
    if w.time < S.next_round then return end
    if S.round > 0 then
      local nl, tl = tally(w, "linear")
      local ns, ts = tally(w, "smooth")
      print(("arrive: round %d  linear %2d/%d in %.2f s  smooth %2d/%d in %.2f s"):format(
        S.round, nl, math.floor(COUNT / 2), tl, ns, math.floor(COUNT / 2), ts))
    end
    S.round = S.round + 1
    S.next_round = w.time + ROUND
    deal_targets(w, S.round)
  end,

  -- after a snapshot is loaded (steer.state, the brains and a.data come
  -- back with it): a rewind keeps the world's event handlers, a fresh
  -- process has none yet
  load = function(w)
    if not handled then on_arrive(w) end
  end,

  reload = function(w)
    bind_brains(w)
    on_arrive(w)
  end,
}
