-- SPDX-License-Identifier: MIT
-- run.lua — steer-spec (runner.c) for a stock interpreter: runs one spec
-- file with the `require "steer"` that LUA_CPATH finds, on any Lua the
-- module supports (5.1, 5.3, 5.4, LuaJIT). tests/luaversions.sh runs the
-- specs this way on each of them.
--   lua5.1 tests/lua/run.lua tests/lua/seek_spec.lua
-- Exit status: 0 when every spec passed and at least one ran, 1 otherwise.
local file = arg[1]
if not file then
  io.stderr:write("usage: run.lua FILE_spec.lua\n")
  os.exit(2)
end
local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
local dir = file:match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. here .. "/../../lua/?.lua;" .. dir .. "/?.lua;" .. package.path

local function handler(e)
  return debug.traceback(tostring(e), 2)
end

local chunk, err = loadfile(file)
local loaded = chunk ~= nil
if chunk then
  loaded, err = xpcall(chunk, handler)
end
if not loaded then io.stderr:write("run.lua: ", tostring(err), "\n") end
local spec = package.loaded.spec
if type(spec) ~= "table" then
  io.stderr:write("run.lua: ", file, " did not use the spec module: no tests ran\n")
  os.exit(1)
end
local ok, passed = xpcall(spec.report, handler)
if not ok then io.stderr:write("run.lua: ", tostring(passed), "\n") end
os.exit(loaded and ok and passed and 0 or 1)
