-- SPDX-License-Identifier: MIT
-- bake_obj.lua — the time of steer.navmesh{ obj = FILE } (issue 33), beside
-- `detour-nav --bake FILE` (bench/peers/detour_nav.cpp: a plain Recast and
-- Detour bake of the same OBJ with the same settings):
--
--   LUA_CPATH='build/?.so' lua5.4 bench/bake_obj.lua FILE.obj [--climb M] [--height M] [--slope DEG]
--                                                   [--cell M] [--tile M] [--repeat K]
--
-- --tile: the bake's tile side in metres (default: automatic, one tile up
-- to 512 x 512 cells, else 256-cell tiles). Bakes the file K times
-- (default 5), each one the whole call: the OBJ
-- read, Recast's heightfield, filters and contours, steer's regions and
-- floors, the exact mesh build and its prepared indexes. Prints
--   steer-bake obj=F cell=M layers=L triangles=T area_m2=A bytes=B repeat=K bake_ms=X
-- bake_ms: the median of the K, in processor time (os.clock: the bake runs
-- on one thread); time the whole process from outside for wall time.
local steer = require "steer"

local path, o = nil, { climb = 0.4, height = 2, slope = 45, cell = nil, tile = nil, ["repeat"] = 5 }
local i = 1
while i <= #arg do
    local k = arg[i]:match("^%-%-(.+)$")
    if k then
        if o[k] == nil and k ~= "cell" and k ~= "tile" then error("bake_obj.lua: unknown option --" .. k) end
        o[k] = tonumber(arg[i + 1]) or error("bake_obj.lua: --" .. k .. " takes a number")
        i = i + 2
    else
        path, i = arg[i], i + 1
    end
end
if not path then
    io.stderr:write("usage: lua5.4 bench/bake_obj.lua FILE.obj [--climb M] [--height M] [--slope DEG] [--cell M] [--tile M] [--repeat K]\n")
    os.exit(2)
end

local ms, nm = {}, nil
for k = 1, o["repeat"] do
    local t0 = os.clock()
    nm = steer.navmesh{ obj = path, cell = o.cell, tile = o.tile, agent = { height = o.height, climb = o.climb, slope = o.slope } }
    ms[k] = (os.clock() - t0) * 1e3
    if k < o["repeat"] then nm = nil; collectgarbage() end
end
table.sort(ms)
local n = #ms
local median = n % 2 == 1 and ms[(n + 1) // 2] or (ms[n // 2] + ms[n // 2 + 1]) / 2
print(string.format("steer-bake obj=%s cell=%g layers=%d triangles=%d area_m2=%.0f bytes=%d repeat=%d bake_ms=%.2f",
    path, o.cell or o.height / 10, nm.layer_count, nm.triangle_count, nm.area, #nm:save(), n, median))
