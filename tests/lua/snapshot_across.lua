-- SPDX-License-Identifier: MIT
-- snapshot_across.lua — a snapshot made by one Lua, continued by another:
-- tests/luaversions.sh saves a demo's world at tick 150 under the Lua it
-- checks and continues it under lua5.4 to tick 240; the hash must be the
-- one of a straight run. (The demos named there keep no state of their own,
-- no save(w), so the world's snapshot is the whole run.)
--   lua tests/lua/snapshot_across.lua save NAME FILE
--   lua tests/lua/snapshot_across.lua continue NAME FILE   -- prints the hash
--   lua tests/lua/snapshot_across.lua straight NAME        -- prints the hash
local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. here .. "/../../lua/?.lua;" .. package.path
local steer = require "steer"
local demo = require "demo_run"
local mode, name, file = arg[1], arg[2], arg[3]

if mode == "save" then
  local f = assert(io.open(file, "wb"))
  f:write(demo.run(name, 150):save())
  f:close()
elseif mode == "continue" then
  local _, sc = demo.start(name) -- the demo's module, as a load needs its functions
  local f = assert(io.open(file, "rb"))
  local w = steer.load(f:read("*a"))
  f:close()
  if sc.load then sc.load(w, nil) end
  print(demo.advance(w, sc, 90):hash())
else
  print(demo.run(name, 240):hash())
end
