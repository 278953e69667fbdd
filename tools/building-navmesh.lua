-- SPDX-License-Identifier: MIT
-- building-navmesh.lua — writes demos/building.navmesh, the baked mesh of
-- demos/building.obj that demos/building.lua loads (steer.navmesh_load), so
-- that the demo runs the same, bit for bit, in builds without Recast (the
-- browser's, Windows) and on machines whose bake would differ:
--
--   LUA_CPATH='build/?.so' lua5.4 tools/building-navmesh.lua > demos/building.navmesh
--
-- (from the checkout, with a build that bakes; tests/lua/building_spec.lua
-- bakes again and checks the file is what this writes).
local steer = require "steer"
local root = (arg and arg[0] or ""):match("^(.*)/tools/[^/]*$") or "."
local nm = steer.navmesh{ obj = root .. "/demos/building.obj", agent = { height = 2, climb = 0.5, slope = 45 } }
io.stdout:setvbuf("full")
io.write(nm:save())
