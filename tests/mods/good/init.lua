-- A well-behaved mod: spawns a seeker of its own, counts its ticks, keeps
-- the seeker's goal moving, and answers messages.
local steer = require "steer" -- the sandbox's steer, not a file
local helper = require "helper" -- one of the mod's own files
local state = { ticks = 0, agent = nil }
return {
  setup = function(w)
    state.agent = w:spawn{ position = { 50, 10 }, max_speed = 3, max_force = 6, tag = "good",
                           brain = steer.seek{ name = "go" } }
    state.agent.target = helper.goal(0)
  end,
  update = function()
    state.ticks = state.ticks + 1
    if state.ticks % 30 == 0 then state.agent.target = helper.goal(state.ticks) end
    if state.ticks == 5 then steer.send("listener", { hello = "world", n = state.ticks, list = { 1, 2, 3 } }) end
  end,
}
