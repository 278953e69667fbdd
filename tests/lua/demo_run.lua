-- SPDX-License-Identifier: MIT
-- demo_run.lua — the demos (demos/*.lua) run headless as the engine runs
-- them, for the specs: a world from the scenario's `world` table, its
-- setup, then ticks of the world's step and the scenario's update. Each
-- start requires the demo's file anew and empties steer.state (what a
-- demo keeps across hot reloads), so its state begins as in a fresh
-- process and a demo can run several times in one spec.
local steer = require "steer"

local M = {}

-- The repository root, from this file's path (tests/lua/demo_run.lua).
M.root = debug.getinfo(1, "S").source:match("^@(.*)/tests/lua/[^/]*$") or "."
package.path = M.root .. "/?.lua;" .. package.path -- the demos as modules: require "demos.flock"

-- Every demo, by its file's name.
M.names = { "flock", "arrive", "pursuit", "crowd", "gallery", "directed_seek", "patrol", "dogfighter",
  "zombie_horde", "navmesh", "formations", "building" }

-- The demo's world after its setup, and the scenario table: the world
-- made from the scenario's `world` fields, with `extra`'s (or none) over them.
function M.start(name, extra)
  local mod = "demos." .. name
  for k in pairs(package.loaded) do
    if k == mod or k:sub(1, #mod + 1) == mod .. "." then package.loaded[k] = nil end
  end
  for k in pairs(steer.state) do steer.state[k] = nil end
  local sc = require(mod)
  local desc = {}
  for k, v in pairs(sc.world or {}) do desc[k] = v end
  for k, v in pairs(extra or {}) do desc[k] = v end
  local w = steer.world(desc)
  if sc.setup then sc.setup(w) end
  return w, sc
end

-- n engine ticks of w: the world's step, then the scenario's update.
function M.advance(w, sc, n)
  for _ = 1, n do
    w:step()
    if sc.update then sc.update(w, w.dt) end
  end
  return w
end

-- The demo's world after n engine ticks.
function M.run(name, n, extra)
  local w, sc = M.start(name, extra)
  return M.advance(w, sc, n)
end

return M
