-- SPDX-License-Identifier: MIT
-- demo_hashes.lua — every demo's w:hash() after 600 ticks (10 s), one
-- "name hash" line each, from the `require "steer"` LUA_CPATH finds.
-- tests/luaversions.sh compares these lines between Lua 5.4 and each
-- other Lua the module is built for: the same world bit for bit.
--   LUA_CPATH='build/?.so' lua5.4 tests/lua/demo_hashes.lua
local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. here .. "/../../lua/?.lua;" .. package.path
local demo = require "demo_run"
for _, name in ipairs(demo.names) do
  local w = demo.run(name, 600)
  print(name .. " " .. w:hash())
end
