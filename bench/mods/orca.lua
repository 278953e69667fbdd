-- steer-bench-mod-work's mod: 1000 agents in the town's streets, each
-- steered by steer.reciprocal with obstacle_horizon = 100 s at 10 m/s, so
-- every agent's shape query covers the whole town (values the API accepts).
local steer = require "steer"
return {
  setup = function(w)
    local brain = steer.reciprocal{ obstacle_horizon = 100, steer.seek{} }
    for i = 0, 999 do
      local x, y = 20 * (i % 40) + 18 + (i // 40) % 2, 12 + 47 * (i // 40)
      w:spawn{ position = { x, y }, max_speed = 10, max_force = 20, brain = brain, target = { 400, 600 } }
    end
  end,
}
