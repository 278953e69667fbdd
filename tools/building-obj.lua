-- SPDX-License-Identifier: MIT
-- building-obj.lua — writes demos/building.obj, the two-storey building of
-- issue 33's demo, as a level editor would export it: a Wavefront OBJ of
-- boxes (12 triangles each), y up, metres.
--
--   lua5.4 tools/building-obj.lua > demos/building.obj
--
-- The plan, in the world's frame (x east, y north, z up; the OBJ holds
-- x, z, -y so that its y is up): a 40 m x 24 m building.
--   Ground floor (its top at z 0, with a plaza 6 m wide round the
--   building): a corridor along x (y 10..14) with a 2 m entrance at each end; four rooms south of it (10 m each, a 1.2 m door
--   onto the corridor); north of it two rooms (x 0..14, 26..40) and between
--   them an atrium two storeys high, open to the corridor, with a door into
--   each of the two rooms.
--   A straight stair in the atrium (x 24..25.5, 14 steps of 0.25 m rise and
--   0.3 m run) climbs north from the ground to a bridge across the atrium
--   (y 18.2..20.2, at z 3.5), which joins the first floor's west and east
--   parts through 2 m openings.
--   First floor (its top at z 3.5, 0.2 m thick): the same corridor and
--   four rooms over the ground floor's, the two north rooms, and a 1.1 m
--   railing where the corridor looks onto the atrium. People walk under
--   the bridge (3.3 m of headroom) and in rooms over rooms.
--   Every door is a gap in a wall; the demo closes some of them with
--   obstacles on a timer.
-- Walls are 0.2 m thick (outer walls 0.3 m); no roof, so a camera above
-- sees both floors.

local boxes = {}

-- a box from (x0, y0, z0) to (x1, y1, z1), world frame
local function box(x0, y0, z0, x1, y1, z1, name)
    boxes[#boxes + 1] = { x0, y0, z0, x1, y1, z1, name }
end

-- A wall along x at y (thickness t) from xa to xb, z0..z1, with gaps
-- { {x_from, x_to}, ... } in increasing order.
local function wall_x(y, t, xa, xb, z0, z1, gaps, name)
    local x = xa
    for _, g in ipairs(gaps or {}) do
        if g[1] > x then box(x, y - t / 2, z0, g[1], y + t / 2, z1, name) end
        x = g[2]
    end
    if xb > x then box(x, y - t / 2, z0, xb, y + t / 2, z1, name) end
end

-- the same along y at x
local function wall_y(x, t, ya, yb, z0, z1, gaps, name)
    local y = ya
    for _, g in ipairs(gaps or {}) do
        if g[1] > y then box(x - t / 2, y, z0, x + t / 2, g[1], z1, name) end
        y = g[2]
    end
    if yb > y then box(x - t / 2, y, z0, x + t / 2, yb, z1, name) end
end

local W, D = 40, 24 -- footprint
local F1 = 3.5 -- first floor's top
local SLAB = 0.2
local CEIL0 = F1 - SLAB -- ground floor walls up to the slab
local TOP = F1 + 3.3 -- first floor walls
local DOOR = 1.2
local function door_at(c, w) return { c - (w or DOOR) / 2, c + (w or DOOR) / 2 } end

-- the ground: the building's floor and a plaza 6 m wide all round it
box(-6, -6, -SLAB, W + 6, D + 6, 0, "ground")

-- outer walls, both storeys; entrances at the corridor's ends (ground only)
wall_x(0, 0.3, 0, W, 0, TOP, nil, "outer_south")
wall_x(D, 0.3, 0, W, 0, TOP, nil, "outer_north")
wall_y(0, 0.3, 0, D, 0, CEIL0, { { 11, 13 } }, "outer_west")
wall_y(0, 0.3, 0, D, CEIL0, TOP, nil, "outer_west_upper")
wall_y(W, 0.3, 0, D, 0, CEIL0, { { 11, 13 } }, "outer_east")
wall_y(W, 0.3, 0, D, CEIL0, TOP, nil, "outer_east_upper")

-- one storey's partitions, from z0 to z1
local function storey(z0, z1, tag, ground)
    -- the south rooms: a wall at y 10 with a door per room, walls between them
    wall_x(10, 0.2, 0, W, z0, z1, { door_at(5), door_at(15), door_at(25), door_at(35) }, tag .. "_rooms_south")
    for _, x in ipairs({ 10, 20, 30 }) do wall_y(x, 0.2, 0, 10, z0, z1, nil, tag .. "_between") end
    -- north of the corridor: rooms west and east, the atrium between them
    wall_x(14, 0.2, 0, 14, z0, z1, { door_at(7) }, tag .. "_room_nw")
    wall_x(14, 0.2, 26, W, z0, z1, { door_at(33) }, tag .. "_room_ne")
    if ground then
        -- the atrium's side walls, a door into each room
        wall_y(14, 0.2, 14, D, z0, z1, { door_at(21) }, tag .. "_atrium_w")
        wall_y(26, 0.2, 14, D, z0, z1, { door_at(21) }, tag .. "_atrium_e")
    else
        -- upstairs, the bridge's ends open into the rooms
        wall_y(14, 0.2, 14, D, z0, z1, { { 18.2, 20.2 } }, tag .. "_atrium_w")
        wall_y(26, 0.2, 14, D, z0, z1, { { 18.2, 20.2 } }, tag .. "_atrium_e")
    end
end
storey(0, CEIL0, "g", true)

-- the first floor's slab: everything but the atrium (x 14..26, y 14..24)
box(0, 0, CEIL0, W, 14, F1, "first")
box(0, 14, CEIL0, 14, D, F1, "first")
box(26, 14, CEIL0, W, D, F1, "first")
storey(F1, TOP, "f", false)
-- the railing where the first floor's corridor looks onto the atrium
wall_x(14, 0.2, 14, 26, F1, F1 + 1.1, nil, "railing")

-- the bridge across the atrium
box(14, 18.2, CEIL0, 26, 20.2, F1, "bridge")

-- the stair: 14 solid steps climbing north onto the bridge's south edge
for k = 1, 14 do
    box(24, 14 + 0.3 * (k - 1), 0, 25.5, 14 + 0.3 * k, 0.25 * k, "stair")
end

-- Write the OBJ: x, z, -y (y up), one group per box name, faces
-- counter-clockwise seen from outside.
local out = {}
local function emit(s) out[#out + 1] = s end
emit("# building.obj — issue 33's two-storey building (tools/building-obj.lua writes it)")
emit("# y up, metres; " .. #boxes .. " boxes, " .. 12 * #boxes .. " triangles")
local nv = 0
local last
local function fmt(v) return (string.format("%.3f", v):gsub("%.?0+$", ""):gsub("^%-0$", "0")) end
for _, b in ipairs(boxes) do
    local x0, y0, z0, x1, y1, z1, name = table.unpack(b)
    if name ~= last then
        emit("g " .. name)
        last = name
    end
    -- corners in the world frame, written as (x, z, -y)
    local c = {
        { x0, y0, z0 }, { x1, y0, z0 }, { x1, y1, z0 }, { x0, y1, z0 },
        { x0, y0, z1 }, { x1, y0, z1 }, { x1, y1, z1 }, { x0, y1, z1 },
    }
    for _, p in ipairs(c) do emit(("v %s %s %s"):format(fmt(p[1]), fmt(p[3]), fmt(-p[2]))) end
    -- faces (world-frame outward normals): bottom -z, top +z, south -y,
    -- north +y, west -x, east +x; each quad as two triangles
    local quads = {
        { 1, 4, 3, 2 }, { 5, 6, 7, 8 }, { 1, 2, 6, 5 }, { 3, 4, 8, 7 }, { 4, 1, 5, 8 }, { 2, 3, 7, 6 },
    }
    for _, q in ipairs(quads) do
        local a, b2, c2, d = q[1] + nv, q[2] + nv, q[3] + nv, q[4] + nv
        emit(("f %d %d %d"):format(a, b2, c2))
        emit(("f %d %d %d"):format(a, c2, d))
    end
    nv = nv + 8
end
io.write(table.concat(out, "\n"), "\n")
