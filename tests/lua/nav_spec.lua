-- SPDX-License-Identifier: MIT
-- nav_spec.lua — grids, A* and flow fields as a user sees them: A* finds
-- paths as cheap as an independent Dijkstra (written here, in Lua) on
-- random maps and mazes, its smoothed segments all have line of sight and
-- it answers nil for unreachable goals; a flow field's distances match
-- the same Dijkstra, following its directions from any cell reaches a goal
-- without entering or cutting a blocked cell, and a repaired field (the
-- goal moved) equals a rebuilt one; 500 agents on a 64x64 maze reach the
-- goal without ever entering a blocked cell and go to a moved goal; the
-- walls of blocked cells are seen by w:raycast and avoid_walls; bad input
-- raises an error naming the function and the argument.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local SQRT2 = math.sqrt(2)

-- ---- maps --------------------------------------------------------------------

-- math.random's interface over a steer.random stream: the same maps and
-- mazes on every Lua (math.random's numbers differ from one Lua to another).
local random = require "steer.random"
local stream = random.new(1)
local function randomseed(seed) stream = random.new(seed) end
local function rand(lo, hi)
  if not lo then return random.float(stream) end
  if not hi then lo, hi = 1, lo end
  return lo - 1 + random.int(stream, hi - lo + 1)
end

-- A random map: `density` of the cells blocked, digits 1-3 for costs when
-- `costs` is set (from rand, seeded by the caller).
local function random_map(nx, ny, density, costs)
  local map = {}
  for j = 1, ny do
    local row = {}
    for i = 1, nx do
      local ch = "."
      if rand() < density then ch = "#"
      elseif costs then ch = tostring(rand(1, 3)) end
      row[i] = ch
    end
    map[j] = table.concat(row)
  end
  return map
end

-- A maze of rooms x rooms rooms (each `room` cells wide, walls one cell
-- thick; recursive backtracker), with `loops` of the remaining inner walls
-- knocked down, padded with '#' to `size` cells a side when given.
local function maze(rooms, room, loops, size)
  local n = rooms * (room + 1) + 1
  size = size or n
  local g = {}
  for y = 1, size do
    g[y] = {}
    for x = 1, size do g[y][x] = "#" end
  end
  local function open_room(rx, ry)
    for y = 1, room do
      for x = 1, room do g[(ry - 1) * (room + 1) + 1 + y][(rx - 1) * (room + 1) + 1 + x] = "." end
    end
  end
  local function open_door(rx, ry, dx, dy)
    -- the wall between room (rx, ry) and (rx + dx, ry + dy)
    local bx, by = (rx - 1) * (room + 1) + 1, (ry - 1) * (room + 1) + 1
    for k = 1, room do
      if dx ~= 0 then g[by + k][bx + (dx > 0 and room + 1 or 0)] = "."
      else g[by + (dy > 0 and room + 1 or 0)][bx + k] = "." end
    end
  end
  local seen, stack = {}, { { 1, 1 } }
  seen[1] = true
  open_room(1, 1)
  local dirs = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } }
  while #stack > 0 do
    local top = stack[#stack]
    local options = {}
    for _, d in ipairs(dirs) do
      local nx, ny = top[1] + d[1], top[2] + d[2]
      if nx >= 1 and ny >= 1 and nx <= rooms and ny <= rooms and not seen[(ny - 1) * rooms + nx] then
        options[#options + 1] = d
      end
    end
    if #options == 0 then
      stack[#stack] = nil
    else
      local d = options[rand(#options)]
      local nx, ny = top[1] + d[1], top[2] + d[2]
      seen[(ny - 1) * rooms + nx] = true
      open_room(nx, ny)
      open_door(top[1], top[2], d[1], d[2])
      stack[#stack + 1] = { nx, ny }
    end
  end
  for _ = 1, loops do
    local rx, ry = rand(1, rooms - 1), rand(1, rooms)
    if rand() < 0.5 then open_door(rx, ry, 1, 0) else open_door(ry, rx, 0, 1) end
  end
  local map = {}
  for y = 1, size do map[y] = table.concat(g[y]) end
  return map
end

-- The cost of map character ch (nil when blocked).
local function char_cost(ch)
  if ch == "#" then return nil end
  if ch == "." then return 1 end
  return tonumber(ch)
end

-- The test's own Dijkstra over the map, independent of the engine: from
-- cell (i, j) (column i of line j), 8-connected, steps of 1 or sqrt 2
-- cells at the mean cost of their two cells, no diagonal past a blocked
-- cell. `costs(i, j, char)`, when given, prices the open cells instead of
-- their characters. Returns dist[j][i] in metres (nil: unreachable).
local function dijkstra(map, cell, si, sj, costs)
  local ny, nx = #map, #map[1]
  local cost = {}
  for j = 1, ny do
    cost[j] = {}
    for i = 1, nx do
      local ch = map[j]:sub(i, i)
      cost[j][i] = char_cost(ch)
      if costs and cost[j][i] then cost[j][i] = costs(i, j, ch) end
    end
  end
  local function open(i, j) return i >= 1 and j >= 1 and i <= nx and j <= ny and cost[j][i] ~= nil end
  local dist, done = {}, {}
  for j = 1, ny do dist[j], done[j] = {}, {} end
  dist[sj][si] = 0
  -- a binary heap of {d, i, j}
  local heap = { { 0, si, sj } }
  local function push(e)
    heap[#heap + 1] = e
    local k = #heap
    while k > 1 and heap[math.floor(k / 2)][1] > heap[k][1] do
      heap[k], heap[math.floor(k / 2)] = heap[math.floor(k / 2)], heap[k]
      k = math.floor(k / 2)
    end
  end
  local function pop()
    local top = heap[1]
    heap[1] = heap[#heap]
    heap[#heap] = nil
    local k = 1
    while true do
      local c = 2 * k
      if c > #heap then break end
      if c + 1 <= #heap and heap[c + 1][1] < heap[c][1] then c = c + 1 end
      if heap[k][1] <= heap[c][1] then break end
      heap[k], heap[c] = heap[c], heap[k]
      k = c
    end
    return top
  end
  while #heap > 0 do
    local e = pop()
    local d, i, j = e[1], e[2], e[3]
    if not done[j][i] then
      done[j][i] = true
      for di = -1, 1 do
        for dj = -1, 1 do
          local ni, nj = i + di, j + dj
          if (di ~= 0 or dj ~= 0) and open(ni, nj) and (di == 0 or dj == 0 or (open(ni, j) and open(i, nj))) then
            local step = ((di ~= 0 and dj ~= 0) and SQRT2 or 1) * cell * (cost[j][i] + cost[nj][ni]) / 2
            local nd = d + step
            if dist[nj][ni] == nil or nd < dist[nj][ni] - 1e-12 then
              dist[nj][ni] = nd
              push({ nd, ni, nj })
            end
          end
        end
      end
    end
  end
  return dist
end

-- Centre of cell (i, j) of a map of ny lines, cell size `cell`, origin o.
local function center(map, cell, o, i, j)
  return { o[1] + (i - 0.5) * cell, o[2] + (#map - j + 0.5) * cell }
end

-- Is world point p in a blocked cell (or outside) of the map? Independent
-- of the engine's own test.
local function blocked_at(map, cell, o, x, y)
  local i = math.floor((x - o[1]) / cell) + 1
  local j = #map - math.floor((y - o[2]) / cell)
  if i < 1 or j < 1 or j > #map or i > #map[1] then return true end
  return map[j]:sub(i, i) == "#"
end

-- Does the segment a-b stay out of blocked cells? Sampled finely.
local function segment_clear(map, cell, o, a, b)
  local len = math.sqrt((b[1] - a[1]) ^ 2 + (b[2] - a[2]) ^ 2)
  local n = math.max(1, math.ceil(len / cell * 64))
  for k = 0, n do
    local t = k / n
    if blocked_at(map, cell, o, a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2])) then return false end
  end
  return true
end

local function open_cells(map)
  local cells = {}
  for j = 1, #map do
    for i = 1, #map[1] do
      if map[j]:sub(i, i) ~= "#" then cells[#cells + 1] = { i, j } end
    end
  end
  return cells
end

-- Walk the field's cell directions from cell c: each step to an open
-- neighbour, never past a blocked corner, strictly down the field's own
-- distances, until the goal cell.
local function walk(map, cell, o, f, c, goal, limit)
  local i, j, steps = c[1], c[2], 0
  while (i ~= goal[1] or j ~= goal[2]) and steps < limit do
    local here = center(map, cell, o, i, j)
    local v = f:direction(here)
    local di = v.x > 0.3 and 1 or v.x < -0.3 and -1 or 0
    local dj = v.y > 0.3 and -1 or v.y < -0.3 and 1 or 0 -- lines count downwards
    expect(di ~= 0 or dj ~= 0, "a reachable cell points somewhere"):truthy()
    local ni, nj = i + di, j + dj
    expect(char_cost(map[nj]:sub(ni, ni)) ~= nil, "to an open cell"):truthy()
    expect(char_cost(map[j]:sub(ni, ni)) ~= nil and char_cost(map[nj]:sub(i, i)) ~= nil,
      "never past a blocked corner"):truthy()
    expect(f:distance(center(map, cell, o, ni, nj)), "strictly downhill"):lt(f:distance(here))
    i, j, steps = ni, nj, steps + 1
  end
  expect(i == goal[1] and j == goal[2], "the walk reaches the goal"):truthy()
end

-- ---- A* ------------------------------------------------------------------------

describe("g:path", function()
  it("finds paths as cheap as an independent Dijkstra on random maps and mazes, or nil", function()
    local checked, unreachable = 0, 0
    for seed = 1, 24 do
      randomseed(seed)
      local map = seed % 3 == 0 and maze(6, 2, seed % 4) or random_map(24, 18, 0.3, seed % 2 == 0)
      local cell, o = 0.5 + seed % 3, { -3, 2 }
      local g = steer.grid{ cell = cell, origin = o, map = map }
      local cells = open_cells(map)
      local from = cells[rand(#cells)]
      local dist = dijkstra(map, cell, from[1], from[2])
      for _ = 1, 12 do
        local to = cells[rand(#cells)]
        local a, b = center(map, cell, o, from[1], from[2]), center(map, cell, o, to[1], to[2])
        local pts, cost = g:path(a, b)
        local best = dist[to[2]][to[1]]
        if best == nil then
          expect(pts, "no path to an unreachable cell (seed " .. seed .. ")"):eq(nil)
          unreachable = unreachable + 1
        else
          expect(pts, "a path exists (seed " .. seed .. ")"):truthy()
          expect(cost, "A* cost = the optimum"):near(best, 1e-9 * (1 + best))
          expect(pts[1], "starts at from"):eq(steer.vec(a[1], a[2]))
          expect(pts[#pts], "ends at to"):eq(steer.vec(b[1], b[2]))
          local len = 0
          for k = 1, #pts - 1 do
            local p, q = { pts[k].x, pts[k].y }, { pts[k + 1].x, pts[k + 1].y }
            expect(segment_clear(map, cell, o, p, q), "segment " .. k .. " stays in open cells"):truthy()
            expect(g:line_of_sight(p, q), "segment " .. k .. " has line of sight"):truthy()
            len = len + pts[k]:dist(pts[k + 1])
          end
          if not table.concat(map):find("[123]") then
            expect(len, "smoothed length <= the grid optimum"):le(best + 1e-9)
          else
            -- with costs: the route's cost (each metre at its cell's cost,
            -- sampled) is no more than the cell path's
            local routed = 0
            for k = 1, #pts - 1 do
              local p, q = pts[k], pts[k + 1]
              local n = math.max(1, math.ceil(p:dist(q) / cell * 64))
              for m = 0, n - 1 do
                local t = (m + 0.5) / n
                local x, y = p.x + t * (q.x - p.x), p.y + t * (q.y - p.y)
                local i, j = math.floor((x - o[1]) / cell) + 1, #map - math.floor((y - o[2]) / cell)
                routed = routed + p:dist(q) / n * char_cost(map[j]:sub(i, i))
              end
            end
            expect(routed, "the route costs no more than the cell path"):le(best * 1.02 + 0.05 * cell)
          end
          checked = checked + 1
        end
      end
    end
    expect(checked, "reachable queries checked"):gt(150)
    expect(unreachable, "unreachable queries checked"):gt(5)
  end)

  it("pulls the string: no needless corners in an open room", function()
    local g = steer.grid{ cell = 1, map = { "..........", "..........", "....##....", "..........", ".........." } }
    local pts = g:path({ 0.5, 4.5 }, { 9.5, 3.5 })
    expect(#pts, "a straight line where one is clear"):eq(2)
    pts = g:path({ 0.5, 2.5 }, { 9.5, 2.5 })
    expect(#pts, "one corner around the block"):eq(3)
  end)

  it("feeds follow_path and the pipeline's decompose_path through a maze", function()
    randomseed(5)
    local map = maze(5, 2, 0)
    local g = steer.grid{ cell = 2, map = map }
    local a, b = center(map, 2, { 0, 0 }, 2, 2), center(map, 2, { 0, 0 }, #map[1] - 1, #map - 1)
    local pts = g:path(a, b)
    for _, brain in ipairs{ steer.follow_path{ path = pts, radius = 0.3 },
                            steer.pipeline{ decomposers = { steer.decompose_path{ path = pts, radius = 0.5 } } } } do
      local w = steer.world{}
      local ag = w:spawn{ position = a, target = b, max_speed = 3, max_force = 12, radius = 0.3, brain = brain }
      local inside = true
      for _ = 1, 60 * 120 do
        w:step()
        local x, y = ag:xy()
        if blocked_at(map, 2, { 0, 0 }, x, y) then inside = false end
      end
      expect(inside, brain.kind .. " keeps out of blocked cells"):truthy()
      expect(ag.position:dist(b), brain.kind .. " reaches the goal"):lt(0.5)
    end
  end)
end)

-- ---- flow fields ---------------------------------------------------------------

describe("g:flow_field", function()
  it("holds Dijkstra's distances and directions without local optima", function()
    for seed = 1, 6 do
      randomseed(100 + seed)
      local map = seed % 2 == 0 and maze(5, 2, 3) or random_map(20, 16, 0.3, seed % 3 == 0)
      local cell, o = 1.5, { 1, -4 }
      local cells = open_cells(map)
      local goal = cells[rand(#cells)]
      local dist = dijkstra(map, cell, goal[1], goal[2])
      local g = steer.grid{ cell = cell, origin = o, map = map }
      local f = g:flow_field{ goal = center(map, cell, o, goal[1], goal[2]) }
      for _, c in ipairs(cells) do
        local p = center(map, cell, o, c[1], c[2])
        local d = dist[c[2]][c[1]]
        if d == nil then
          expect(f:distance(p), "unreachable: no distance"):eq(nil)
          expect(#f:direction(p), "unreachable: zero direction"):eq(0)
        else
          expect(f:distance(p), "distance = Dijkstra's"):near(d, 1e-9 * (1 + d))
          walk(map, cell, o, f, c, goal, #cells)
        end
      end
    end
  end)

  it("holds Dijkstra's distances with costs of any range (dear roads, cheap lanes)", function()
    randomseed(77)
    local map = random_map(30, 20, 0.2)
    local function costs(i, j) return (i * 7 + j * 3) % 5 == 0 and 400 or (i + j) % 3 == 0 and 0.5 or 1 end
    local g = steer.grid{ cell = 1, map = map, costs = costs }
    local cells = open_cells(map)
    local goal = cells[1]
    local f = g:flow_field{ goal = center(map, 1, { 0, 0 }, goal[1], goal[2]) }
    local dist = dijkstra(map, 1, goal[1], goal[2], costs)
    for _, c in ipairs(cells) do
      local d = dist[c[2]][c[1]]
      local p = center(map, 1, { 0, 0 }, c[1], c[2])
      if d then expect(f:distance(p), "distance = Dijkstra's"):near(d, 1e-9 * (1 + d))
      else expect(f:distance(p), "unreachable"):eq(nil) end
    end
    local far = cells[#cells]
    if dist[far[2]][far[1]] then
      local _, cost = g:path(center(map, 1, { 0, 0 }, goal[1], goal[2]), center(map, 1, { 0, 0 }, far[1], far[2]))
      expect(cost, "A* with those costs"):near(dist[far[2]][far[1]], 1e-9 * (1 + cost))
    end
  end)

  it("repairs a moved goal: no local optima, never shorter than the truth, exact nearby, few cells touched",
    function()
      randomseed(9)
      local map = maze(40, 2, 60)
      local cell, o = 1, { 0, 0 }
      local g = steer.grid{ cell = cell, map = map }
      local cells = open_cells(map)
      local c = cells[rand(#cells)]
      local f = g:flow_field{ goal = center(map, cell, o, c[1], c[2]) }
      local total = f.touched
      local repaired, touched = 0, 0
      for step = 1, 30 do
        -- a small move: to an open cell at most two cells away
        local nc
        repeat
          nc = { c[1] + rand(-2, 2), c[2] + rand(-2, 2) }
        until map[nc[2]] and char_cost(map[nc[2]]:sub(nc[1], nc[1]) or "#")
        c = nc
        f:set_goal(center(map, cell, o, c[1], c[2]))
        if f.repaired then repaired, touched = repaired + 1, touched + f.touched end
        if step % 6 == 0 then
          local truth = dijkstra(map, cell, c[1], c[2])
          for _, q in ipairs(cells) do
            local p = center(map, cell, o, q[1], q[2])
            local d = truth[q[2]][q[1]]
            if d == nil then
              expect(f:distance(p), "unreachable in both"):eq(nil)
            else
              expect(f:distance(p), "never shorter than the truth"):ge(d - 1e-9)
              if math.abs(q[1] - c[1]) <= 3 and math.abs(q[2] - c[2]) <= 3 and d <= 3 * cell then
                expect(f:distance(p), "exact next to the goal"):near(d, 1e-9)
              end
              if rand() < 0.02 then walk(map, cell, o, f, q, c, #cells) end
            end
          end
        end
      end
      expect(repaired, "small moves repaired, not rebuilt"):gt(20)
      expect(touched / repaired, "cells a repair touches, on average"):lt(total / 8)
    end)

  it("steers 500 agents through a 64x64 maze to the goal, never into a blocked cell, and after a moved goal",
    function()
      randomseed(64)
      local map = maze(15, 3, 40, 64)
      local cell = 1
      local g = steer.grid{ cell = cell, map = map }
      local cells = open_cells(map)
      local goal_cell = { 30, 30 }
      while map[goal_cell[2]]:sub(goal_cell[1], goal_cell[1]) == "#" do goal_cell[1] = goal_cell[1] + 1 end
      local goal = center(map, cell, { 0, 0 }, goal_cell[1], goal_cell[2])
      local f = g:flow_field{ goal = goal }
      local w = steer.world{ dt = 1 / 30, seed = 3 }
      local brain = steer.follow_flow{ field = f, stop_radius = 0.5 }
      local agents, far = {}, 0
      for k = 1, 500 do
        local c = cells[rand(#cells)]
        local p = center(map, cell, { 0, 0 }, c[1], c[2])
        far = math.max(far, f:distance(p))
        agents[k] = w:spawn{ position = p, max_speed = 4, max_force = 24, radius = 0.3, brain = brain }
      end
      local function run(target, seconds)
        local worst_entry = nil
        for _ = 1, math.ceil(seconds / w.dt) do
          w:step()
          for k = 1, #agents do
            local x, y = agents[k]:xy()
            if blocked_at(map, cell, { 0, 0 }, x, y) and not worst_entry then worst_entry = { k, x, y, w.tick } end
          end
        end
        local outside = 0
        for k = 1, #agents do
          if agents[k].position:dist(target) > 3 then outside = outside + 1 end
        end
        return worst_entry, outside
      end
      -- the bound: the longest way along the field at full speed, plus slack
      local bound = far / 4 * 1.3 + 10
      local entry, outside = run(goal, bound)
      expect(entry, "no agent entered a blocked cell"):eq(nil)
      expect(outside, "agents not within 3 m of the goal after " .. bound .. " s"):eq(0)
      -- move the goal to the far corner room: every agent goes there
      local corner = center(map, cell, { 0, 0 }, 3, 3)
      f:set_goal(corner)
      entry, outside = run(corner, f:distance(goal) / 4 * 1.3 + 10)
      expect(entry, "no agent entered a blocked cell on the way to the moved goal"):eq(nil)
      expect(outside, "agents not within 3 m of the moved goal"):eq(0)
    end)

  -- The maze(15, 1, 40, 64) that math.random made under Lua 5.1: its
  -- farthest cells are 171 m from the goal along the corridors, 236 s at
  -- the 0.72 m/s these agents average there (16 of the 100 that Lua 5.1
  -- spawned were short of the goal at 200 s, none of them stuck).
  local LONG_MAZE = {
    "###############################",
    "#...#.......#.....#.....#.....#",
    "###.#.###.###.#.#.###.#.#.#.#.#",
    "#.#.#.....#...#.#...#.#.....#.#",
    "#.#.#.#.###.###.###.#.#######.#",
    "#.#.#.#.....#.#.#.....#...#...#",
    "#.#.#####.###.#.#####.#.#.#####",
    "#.#.....#...#.#.....#.#.#.....#",
    "#.#####.###.#.#####.###.#####.#",
    "#.....#.#...#.....#.......#...#",
    "#.###.#.#.###.#.###########.#.#",
    "#.#.#...#.#.......#.....#...#.#",
    "#.#.#.###.###.###.#.###.#.###.#",
    "#.......#...#.#...#.#...#.#...#",
    "#####.#.#.#.###.#.#.#.#.#.#####",
    "#.......#.......#.#...#.#.....#",
    "###.#.#.#########.###.#.#####.#",
    "#...#.#.#.......#.#...#.#.....#",
    "#.#####.#.#####.###.###.#.#####",
    "#.....#.#...#.......#.#.#.....#",
    "#.###.#.###.#.#######.#.#####.#",
    "#.#...#.....#.......#.#.....#.#",
    "#.#.#.#######.###.#.#.#####.#.#",
    "#.#.#.#...#.....#...#...#.#.#.#",
    "###.#.#.#.###.#.#.#.#.#.#.#.#.#",
    "#...#...#.......#.#...#...#...#",
    "#.#######.#####.#.###########.#",
    "#...#.............#...#.......#",
    "#.#.###############.#.#.#######",
    "#.#.................#.........#",
    "###############################",
  }

  it("brings sluggish agents through one-cell corridors: no blocked cell entered, none stuck", function()
    -- max_speed 3, max_force 6: a velocity time constant of 0.5 s, far
    -- longer than a corridor is wide at full speed. Stuck means slower than
    -- 0.5 m/s along its path (0.7 measured): a fixed time would take the
    -- last agents of a long maze for stuck ones.
    for _, kind in ipairs{ "maze", "random", "long maze" } do
      randomseed(64)
      local map = {}
      if kind == "maze" then map = maze(15, 1, 40, 64)
      elseif kind == "random" then map = random_map(64, 64, 0.25)
      else
        for j = 1, 64 do map[j] = (LONG_MAZE[j] or "") .. ("#"):rep(64 - #(LONG_MAZE[j] or "")) end
      end
      local g = steer.grid{ cell = 1, map = map }
      local gi = 16 -- near the middle of the maze (31 x 31 cells) or of the random map
      while map[16]:sub(gi, gi) == "#" do gi = gi + 1 end
      local goal = center(map, 1, { 0, 0 }, gi, 16)
      local f = g:flow_field{ goal = goal }
      local w = steer.world{ dt = 1 / 30, seed = 5 }
      local brain = steer.follow_flow{ field = f }
      local agents, due, last = {}, {}, 0
      while #agents < 100 do
        local c = { rand(64), rand(64) }
        local p = center(map, 1, { 0, 0 }, c[1], c[2])
        if map[c[2]]:sub(c[1], c[1]) ~= "#" and f:distance(p) then
          agents[#agents + 1] = w:spawn{ position = p, max_speed = 3, max_force = 6, radius = 0.3, brain = brain }
          due[#agents] = f:distance(p) / 0.5 + 10
          last = math.max(last, due[#agents])
        end
      end
      local entered, late = 0, 0
      for t = 1, math.ceil(30 * last) do
        w:step()
        for i, a in ipairs(agents) do
          local x, y = a:xy()
          if blocked_at(map, 1, { 0, 0 }, x, y) then entered = entered + 1 end
          if due[i] and t / 30 >= due[i] then
            if a.position:dist(goal) > 2 then late = late + 1 end
            due[i] = nil
          end
        end
      end
      local away = 0
      for _, a in ipairs(agents) do if a.position:dist(goal) > 2 then away = away + 1 end end
      expect(entered, kind .. ": agent-ticks inside blocked cells"):eq(0)
      expect(late, kind .. ": agents not at the goal at 0.5 m/s along their path"):eq(0)
      expect(away, kind .. ": agents not at the goal at the end"):eq(0)
    end
  end)

  it("decomposes a pipeline's goal out of sight into points along the field (decompose_flow)", function()
    randomseed(21)
    local map = maze(6, 2, 2)
    local cell = 2
    local g = steer.grid{ cell = cell, map = map }
    local goal = center(map, cell, { 0, 0 }, #map[1] - 1, #map - 1)
    local f = g:flow_field{ goal = goal }
    local w = steer.world{}
    local starts = { center(map, cell, { 0, 0 }, 2, 2), center(map, cell, { 0, 0 }, 2, #map - 1),
                     center(map, cell, { 0, 0 }, #map[1] - 1, 2) }
    local brain = steer.pipeline{ decomposers = { steer.decompose_flow{ field = f } },
                                  actuator = steer.arrive{ slow_radius = 1.5 } }
    local agents = {}
    for i, p in ipairs(starts) do
      agents[i] = w:spawn{ position = p, target = goal, max_speed = 3, max_force = 15, radius = 0.3, brain = brain }
    end
    local inside = true
    for _ = 1, 60 * 90 do
      w:step()
      for _, a in ipairs(agents) do
        local x, y = a:xy()
        if blocked_at(map, cell, { 0, 0 }, x, y) then inside = false end
      end
    end
    expect(inside, "the agents kept out of blocked cells"):truthy()
    for i, a in ipairs(agents) do expect(a.position:dist(goal), "agent " .. i .. " at the goal"):lt(0.3) end
  end)

  it("arrives at the goal point inside the goal cell, without circling", function()
    local g = steer.grid{ cell = 4, map = { ".....", ".....", "....." } }
    local f = g:flow_field{ goal = { 17.3, 2.1 } }
    local w = steer.world{}
    local events = 0
    w:on("arrive", function() events = events + 1 end)
    local a = w:spawn{ position = { 1, 11 }, max_speed = 3, max_force = 6, brain = steer.follow_flow{ field = f } }
    for _ = 1, 60 * 15 do w:step() end
    expect(a.position:dist{ 17.3, 2.1 }, "at the goal point"):lt(0.2)
    local p = a.position
    for _ = 1, 60 * 5 do w:step() end
    expect(a.position:dist(p), "and stays there"):lt(0.05)
    expect(events, "one arrive event"):eq(1)
  end)

  it("serves several goals: each agent goes to its nearest", function()
    local g = steer.grid{ cell = 1, map = { "..........", "..........", ".........." } }
    local f = g:flow_field{ goals = { { 0.5, 1.5 }, { 9.5, 1.5 } } }
    expect(f:direction{ 2.5, 1.5 }.x, "left half goes left"):lt(-0.9)
    expect(f:direction{ 7.5, 1.5 }.x, "right half goes right"):gt(0.9)
    expect(f:distance{ 2.5, 1.5 }):near(2, 1e-9)
  end)

  it("follows run-time edits: a blocked corridor re-routes, a closed one gives zero", function()
    local map = { "#######", "#.....#", "#.###.#", "#.....#", "#######" }
    local g = steer.grid{ cell = 1, map = map }
    local f = g:flow_field{ goal = { 4.5, 1.5 } }
    expect(f:direction{ 1.5, 2.5 }.y, "around the bottom"):lt(-0.9)
    expect(g:blocked{ 1.5, 1.5 }, "a free cell"):falsy()
    g:block(1.5, 1.5)
    expect(g:blocked{ 1.5, 1.5 }, "blocked now"):truthy()
    expect(f:direction{ 1.5, 2.5 }.y, "around the top instead"):gt(0.9)
    g:set(2, 2, math.huge)
    expect(#f:direction{ 1.5, 2.5 }, "shut in: zero"):eq(0)
    expect(f:distance{ 1.5, 2.5 }, "and no distance"):eq(nil)
    g:set(2, 2, 1)
    expect(f:distance{ 1.5, 2.5 }, "open again"):near(8, 1e-9)
    g:set(3, 2, 5)
    expect(g:cost(3, 2), "a cost"):eq(5)
    -- a batch of edits rebuilds once, at its end
    local w = steer.world{}
    w:add_grid(g)
    local walls, before = #g:walls(), f:distance{ 1.5, 2.5 }
    g:batch(function()
      g:block(1.5, 3.5)
      g:block(2.5, 3.5)
      expect(f:distance{ 1.5, 2.5 }, "inside a batch the field waits"):eq(before)
    end)
    expect(f:distance{ 1.5, 2.5 }, "after it, the field has both edits"):eq(nil)
    expect(#g:walls(), "the walls changed"):ne(walls)
    expect(w:raycast({ 3.5, 3.5 }, { -1, 0 }, 5).distance, "and the world's walls"):near(0.5, 1e-5)
    expect(function() g:batch(function() g:block(1.5, 3.5, false) error("oops") end) end):raises("oops")
    expect(g:blocked{ 1.5, 3.5 }, "an edit before an error still counts"):falsy()
    expect(w:raycast({ 1.5, 2.5 }, { 0, 1 }, 5).distance, "and replaces the walls"):near(1.5, 1e-5)
  end)
end)

-- ---- walls -----------------------------------------------------------------------

describe("w:add_grid", function()
  it("makes the walls of blocked cells visible to w:raycast and avoid_walls, and follows edits", function()
    local g = steer.grid{ cell = 2, origin = { 10, 0 }, map = { "#.....", "#.....", "#...#.", "......" } }
    local w = steer.world{}
    w:add_grid(g)
    local hit = w:raycast({ 13, 1 }, { 0, 1 }, 20)
    expect(hit and hit.distance, "up to the grid's top edge (outside is blocked)"):near(7, 1e-5)
    hit = w:raycast({ 13, 5 }, { -1, 0 }, 20)
    expect(hit and hit.distance, "to the blocked cells of column 1"):near(1, 1e-5)
    hit = w:raycast({ 17, 3 }, { 1, 0 }, 20)
    expect(hit and hit.distance, "to the blocked cell (5, 3)"):near(1, 1e-5)
    g:block(17, 1)
    hit = w:raycast({ 17, 3 }, { 0, -1 }, 20)
    expect(hit and hit.distance, "to a cell blocked at run time"):near(1, 1e-5)
    g:block({ 19, 5 }, false)
    hit = w:raycast({ 17, 5 }, { 1, 0 }, 20)
    expect(hit and hit.distance, "past a cell opened at run time"):near(5, 1e-5)
    -- avoid_walls turns an agent heading for the wall
    local a = w:spawn{ position = { 14, 3 }, velocity = { -2, 0 }, max_speed = 2, max_force = 6,
                       brain = steer.avoid_walls{ length = 3 } }
    w:step()
    expect(a:force().x, "avoid_walls pushes off the grid's wall"):gt(0)
  end)
end)

-- ---- errors ------------------------------------------------------------------------

describe("bad input", function()
  local function raises(fn, ...) expect(fn):raises(...) end
  it("raises naming the function and the argument", function()
    raises(function() steer.grid{ map = {} } end, "steer.grid", "field 'map'")
    raises(function() steer.grid{} end, "steer.grid", "field 'map'")
    raises(function() steer.grid{ map = { "...", ".." } } end, "steer.grid", "line 2", "ragged")
    raises(function() steer.grid{ map = { "..x" } } end, "steer.grid", "line 1 column 3", "'x'")
    raises(function() steer.grid{ map = { "" } } end, "steer.grid", "line 1")
    raises(function() steer.grid{ map = { "..." }, cell = 0 } end, "steer.grid", "field 'cell'", ">= 1e-6")
    raises(function() steer.grid{ map = { "..." }, cell = -1 } end, "field 'cell'")
    raises(function() steer.grid{ map = { "..." }, size = 3 } end, "unknown field 'size'")
    raises(function() steer.grid{ map = { "..." }, costs = { { 1, 0, 1 } } } end, "field 'costs'",
      "a number >= 1e-6 and <= 1e30 (math.huge or false: blocked)")
    raises(function() steer.grid{ map = { "..." }, costs = { { 1, 1 } } } end, "field 'costs' row 1")
    raises(function() steer.grid{ map = { "..." }, costs = function() return "x" end } end, "field 'costs' function")
    local g = steer.grid{ map = { "....", ".#.." } }
    raises(function() g:flow_field{ goal = { 10, 1 } } end, "steer.grid:flow_field", "goal", "outside the grid")
    raises(function() g:flow_field{ goal = { 1.5, 0.5 } } end, "steer.grid:flow_field", "blocked")
    raises(function() g:flow_field{} end, "steer.grid:flow_field", "'goal'")
    raises(function() g:flow_field{ goals = { { 0.5, 0.5 }, { -1, 0 } } } end, "goals[2]", "outside")
    local f = g:flow_field{ goal = { 0.5, 0.5 } }
    raises(function() f:set_goal{ 0.5, 9 } end, "steer.flow_field:set_goal", "outside the grid")
    raises(function() f:set_goal("here") end, "steer.flow_field:set_goal", "goal")
    raises(function() g:path({ 0.5, 0.5 }, { 50, 0 }) end, "steer.grid:path", "to", "outside")
    raises(function() g:path(nil, { 0.5, 0.5 }) end, "steer.grid:path", "from")
    raises(function() g:set(5, 1, 1) end, "steer.grid:set", "1 <= i <= 4")
    raises(function() g:set(1, 1, 0) end, "steer.grid:set", "cost")
    raises(function() g:block(99, 0) end, "steer.grid:block", "outside")
    raises(function() g:block(1) end, "steer.grid:block", "g:block(x, y")
    raises(function() g:block(1, 0 / 0) end, "steer.grid:block", "NaN")
    raises(function() steer.follow_flow{} end, "steer.follow_flow", "field 'field'")
    raises(function() steer.follow_flow{ field = f, speed = -1 } end, "steer.follow_flow", "field 'speed'")
    raises(function() steer.follow_flow{ field = f, color = 1 } end, "steer.follow_flow", "unknown field 'color'")
    raises(function() steer.decompose_flow{ lookahead = 4 } end, "steer.decompose_flow", "field 'field'")
    raises(function() steer.decompose_flow{ field = f, lookahead = 0 } end, "steer.decompose_flow", "lookahead")
    raises(function() g:batch(3) end, "steer.grid:batch", "a function")
    raises(function() steer.world{ dim = 3 }:add_grid(g) end, "steer.world:add_grid", "2D")
    expect(g:path({ 0.5, 0.5 }, { 1.5, 0.5 }), "a path to a blocked cell"):eq(nil)
  end)
end)
