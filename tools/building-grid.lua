-- SPDX-License-Identifier: MIT
-- building-grid.lua — a large level for the bake's figures (docs/api.md,
-- "What navigation meshes cost"): demos/building.obj (52 m x 36 m with its
-- plaza) repeated on a grid of NX x NY, plaza to plaza, as one OBJ on
-- stdout. The default 10 x 14 is 520 m x 504 m, 140 buildings of two
-- floors and a stair each, 100,800 triangles (3.8 MB: not committed):
--
--   lua5.4 tools/building-grid.lua [NX NY] > /tmp/building-grid.obj
local nx, ny = tonumber(arg[1] or 10), tonumber(arg[2] or 14)
if not nx or not ny or nx < 1 or ny < 1 then
    io.stderr:write("usage: lua5.4 tools/building-grid.lua [NX NY]\n")
    os.exit(2)
end
local root = (arg and arg[0] or ""):match("^(.*)/tools/[^/]*$") or "."
local verts, faces = {}, {}
for line in io.lines(root .. "/demos/building.obj") do
    local x, y, z = line:match("^v%s+(%S+)%s+(%S+)%s+(%S+)")
    if x then
        verts[#verts + 1] = { tonumber(x), tonumber(y), tonumber(z) }
    else
        local f = line:match("^f%s+(.+)$")
        if f then faces[#faces + 1] = f end
    end
end
local lo, hi = { math.huge, math.huge }, { -math.huge, -math.huge }
for _, v in ipairs(verts) do
    lo[1], hi[1] = math.min(lo[1], v[1]), math.max(hi[1], v[1])
    lo[2], hi[2] = math.min(lo[2], v[3]), math.max(hi[2], v[3])
end
local w, d = hi[1] - lo[1], hi[2] - lo[2] -- the OBJ's x and z: the plan
io.stdout:setvbuf("full")
io.write(string.format("# demos/building.obj on a %d x %d grid (tools/building-grid.lua)\n", nx, ny))
for j = 0, ny - 1 do
    for i = 0, nx - 1 do
        for _, v in ipairs(verts) do
            io.write(string.format("v %.4f %.4f %.4f\n", v[1] + i * w, v[2], v[3] - j * d))
        end
    end
end
local n = 0
for _ = 1, nx * ny do
    for _, f in ipairs(faces) do
        io.write("f", (f:gsub("(%d+)", function(k) return tostring(tonumber(k) + n) end):gsub("^", " ")), "\n")
    end
    n = n + #verts
end
