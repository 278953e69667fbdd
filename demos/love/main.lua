-- SPDX-License-Identifier: MIT
-- main.lua — steer inside a LÖVE 11 game (LuaJIT 2.1): two worlds side by
-- side. Left, a flock of 300 boids in a wrapped world (separation,
-- alignment, cohesion and a little wander, one brain for all). Right, 400
-- zombies (lua/steer/archetypes/zombie.lua) hunt a player through a town of
-- walls along one flow field; the player walks a round of the town on its
-- own, along a flow field of its own. The simulation runs at the worlds'
-- fixed tick whatever the frame rate; LÖVE only draws.
--
-- Keys: hold the left mouse button over the town to lead the player there,
-- or steer it with the arrow keys (it goes back to its round 3 s after);
-- Space pauses, Esc quits.
--
-- Run from the checkout, after `meson setup build && ninja -C build` (the
-- LuaJIT module is built when libluajit-5.1-dev and lua-compat53-dev are
-- installed):  love demos/love
-- STEER_BUILD=DIR names another build directory. Nothing needs installing:
-- the module is DIR/modules/luajit/steer.so and steer's Lua files are the
-- checkout's lua/; an installed steer (lib/lua/5.1) is found as well.
--
-- For the tests: love demos/love --screenshot FILE --seconds N runs N
-- simulated seconds as fast as it can, saves the screen to FILE (a PNG),
-- checks that every agent's screen position shows its colour, prints the
-- counts and exits 0 when at least 90% of each kind are found, else 1.

local FLOCK, HORDE = 300, 400
local LED_FOR = 3                 -- seconds the player follows the mouse or keys after they let go
local SHOT_STEPS_PER_FRAME = 6    -- ticks per frame in screenshot mode
local FOUND_ENOUGH = 0.9

local function rgb(r, g, b) return { r / 255, g / 255, b / 255 } end
local COLOUR = {
  background = rgb(20, 22, 28), panel = rgb(32, 35, 44), wall = rgb(84, 86, 100), text = rgb(220, 220, 225),
  boid = rgb(110, 200, 255), zombie = rgb(140, 220, 70), player = rgb(255, 210, 60), goal = rgb(255, 120, 60),
}

-- The town: W x H cells of CELL metres, blocks of houses on a street plan,
-- some left out as squares (demos/zombie_horde.lua's, smaller).
local W, H, CELL = 39, 33, 2
local function town()
  local map = {}
  for j = 1, H do
    local row = {}
    for i = 1, W do
      local edge = i == 1 or j == 1 or i == W or j == H
      local bx, by = (i - 2) % 7, (j - 2) % 6
      local square = (math.floor((i - 2) / 7) + math.floor((j - 2) / 6)) % 5 == 2
      row[i] = (edge or (bx >= 2 and by >= 2 and not square)) and "#" or "."
    end
    map[j] = table.concat(row)
  end
  return map
end
local MAP = town()
-- The player's round: the corners of the streets round the town (each
-- street is two cells wide, and the round runs down its middle).
local ROUND = { { 4, 4 }, { W * CELL - 4, 4 }, { W * CELL - 4, H * CELL - 4 }, { 4, H * CELL - 4 } }

local steer, load_error
local flock, horde       -- the two worlds
local town_state = {}    -- the town's grid, its two fields, the player, its round and who leads it
local views = {}         -- where each world is drawn: x, y (pixels), scale (pixels a metre), size (metres)
local batches = {}       -- one triangle Mesh per kind of agent
local shot               -- screenshot mode: { file, ticks }
local accumulated, paused = 0, false
local rate = { frames = 0 }  -- frames drawn since `since`, and the last rate measured over half a second

-- The module and steer's Lua files, found from this game's own directory
-- (<repo>/demos/love). The system's paths stay in the list, after ours.
local function require_steer()
  local repo = love.filesystem.getSource():gsub("/+$", ""):gsub("/[^/]+/[^/]+$", "")
  local build = os.getenv("STEER_BUILD") or repo .. "/build"
  package.cpath = build .. "/modules/luajit/?.so;" .. package.cpath
  package.path = repo .. "/lua/?.lua;" .. package.path
  local ok, result = pcall(require, "steer")
  if ok then return result end
  return nil, ("steer's Lua module for LuaJIT was not found in %s/modules/luajit/.\n\n"
    .. "Build it in %s (it needs the packages libluajit-5.1-dev and lua-compat53-dev):\n"
    .. "    meson setup build && ninja -C build\n"
    .. "or set STEER_BUILD to a build directory, or install steer (meson install puts steer.so in lib/lua/5.1).\n\n"
    .. "require said: %s"):format(build, repo, tostring(result))
end

local function make_flock(random)
  local WIDTH, HEIGHT = 120, 100
  local w = steer.world{ dim = 2, size = { WIDTH, HEIGHT }, wrap = true, seed = 7, collide = true }
  -- demos/flock.lua's weights (it says why they are these)
  local brain = steer.blend{
    { steer.separation{ radius = 2.5 }, 10 },
    { steer.alignment{ radius = 6 }, 6 },
    { steer.cohesion{ radius = 8 }, 0.15 },
    { steer.wander{ distance = 4, radius = 2, jitter = 6 }, 0.5 },
  }
  local r = random.new(7)
  for _ = 1, FLOCK do
    local angle, speed = random.float(r) * 2 * math.pi, 3 + 3 * random.float(r)
    w:spawn{
      position = { random.float(r) * WIDTH, random.float(r) * HEIGHT },
      velocity = { speed * math.cos(angle), speed * math.sin(angle) },
      max_speed = 8, max_force = 10, radius = 0.5, brain = brain, tag = "boid",
    }
  end
  return w, WIDTH, HEIGHT
end

local function make_horde(random, zombie)
  local w = steer.world{ dim = 2, size = { W * CELL, H * CELL }, seed = 5 }
  local grid = steer.grid{ cell = CELL, map = MAP }
  w:add_grid(grid)
  local to = grid:flow_field{ goal = ROUND[2] }
  local player = w:spawn{
    position = ROUND[1], tag = "player", radius = 0.5, max_speed = 2.6, max_force = 10,
    -- follow_flow alone keeps it off the walls (it brakes for blocked cells)
    brain = steer.follow_flow{ field = to, stop_radius = 0.5, clearance = 0.5 },
  }
  local field = grid:flow_field{ goal = ROUND[1] }
  local r = random.new(12345)
  for _ = 1, HORDE do
    local p
    repeat
      p = { random.float(r) * W * CELL, random.float(r) * H * CELL }
    until not grid:blocked(p) and (p[1] - ROUND[1][1]) ^ 2 + (p[2] - ROUND[1][2]) ^ 2 > 30 ^ 2
    zombie.spawn(w, field, { position = p, data = { player = player } })
  end
  town_state = { grid = grid, field = field, to = to, player = player, zombie = zombie,
    corner = 2, last_track = -1 }
  return w
end

-- Send the player toward `p` (metres) when that is an open cell.
local function lead_player(p)
  local s = town_state
  if s.grid:blocked(p) then return end
  s.to:set_goal(p)
  s.led_until = horde.time + LED_FOR
end

-- After each tick: the player's round, and four times a second the
-- horde's field follows the player (a repair of the field, not a rebuild).
local function town_tick()
  local s = town_state
  local t = horde.time
  if s.led_until and t >= s.led_until then
    -- let go: back to the corner it was walking to
    s.led_until = nil
    s.to:set_goal(ROUND[s.corner])
  elseif not s.led_until then
    local x, y = s.player:xy()
    local c = ROUND[s.corner]
    if (x - c[1]) ^ 2 + (y - c[2]) ^ 2 < 2 ^ 2 then
      s.corner = s.corner % #ROUND + 1
      s.to:set_goal(ROUND[s.corner])
    end
  end
  if t - s.last_track >= 0.25 then
    s.zombie.track(s.field, s.player.position)
    s.last_track = t
  end
end

local function step()
  flock:step()
  horde:step()
  town_tick()
end

-- Worlds have y up (a grid's map is read as seen from above, its first
-- line the top row); the screen has y down.
local function to_screen(view, x, y)
  return view.x + x * view.scale, view.y + (view.height - y) * view.scale
end

local function new_batch(count)
  local vertices = {}
  for i = 1, 3 * count do vertices[i] = { 0, 0 } end
  local mesh = love.graphics.newMesh({ { "VertexPosition", "float", 2 } }, 3 * count, "triangles", "stream")
  return { mesh = mesh, vertices = vertices }
end

function love.load(args)
  for i = 1, #args - 1 do
    if args[i] == "--screenshot" then shot = shot or {}; shot.file = args[i + 1] end
    if args[i] == "--seconds" then shot = shot or {}; shot.seconds = tonumber(args[i + 1]) end
  end
  if shot then
    -- no error screen waiting for a key: a test gets the message and a failure at once
    function love.errorhandler(message)
      io.stderr:write("love: ", debug.traceback(tostring(message), 2), "\n")
      return function() return 1 end
    end
    if not (shot.file and shot.seconds) then error("usage: love demos/love --screenshot FILE --seconds N") end
  end
  steer, load_error = require_steer()
  if not steer then
    if shot then io.stderr:write("love: ", load_error, "\n"); love.event.quit(1) end
    return
  end
  local random, zombie = require "steer.random", require "steer.archetypes.zombie"
  local width, height
  flock, width, height = make_flock(random)
  horde = make_horde(random, zombie)
  -- each world scaled into a 620 x 640 pixel box below the status line
  local function view(x, w, h) return { x = x, y = 56, scale = math.min(620 / w, 640 / h), width = w, height = h } end
  views.flock, views.horde = view(10, width, height), view(650, W * CELL, H * CELL)
  batches.boid, batches.zombie = new_batch(FLOCK), new_batch(HORDE)
  if shot then shot.ticks = math.floor(shot.seconds / flock.dt + 0.5) end
end

function love.update(dt)
  if not steer or paused or shot and shot.done then return end
  if shot then
    for _ = 1, math.min(SHOT_STEPS_PER_FRAME, shot.ticks - flock.tick) do step() end
    return
  end
  local v = views.horde
  if love.mouse.isDown(1) then
    local mx, my = love.mouse.getPosition()
    lead_player({ (mx - v.x) / v.scale, v.height - (my - v.y) / v.scale })
  end
  local dx = (love.keyboard.isDown("right") and 1 or 0) - (love.keyboard.isDown("left") and 1 or 0)
  local dy = (love.keyboard.isDown("up") and 1 or 0) - (love.keyboard.isDown("down") and 1 or 0)
  if dx ~= 0 or dy ~= 0 then
    local x, y = town_state.player:xy()
    lead_player({ x + 4 * dx, y + 4 * dy })
  end
  -- whole ticks of the worlds' fixed dt; a long stall is dropped, not caught up
  accumulated = math.min(accumulated + dt, 0.25)
  while accumulated >= flock.dt do
    step()
    accumulated = accumulated - flock.dt
  end
end

function love.keypressed(key)
  if key == "escape" then love.event.quit(0) end
  if key == "space" then paused = not paused end
end

-- Each agent of `tag` as a triangle along its velocity (+x when it stands
-- still), its body radius across, into one Mesh drawn in one call.
local function draw_agents(w, tag, view, colour)
  local batch = batches[tag]
  local v, n = batch.vertices, 0
  for a in w:agents(tag) do
    local x, y = a:xy()
    local vx, vy = a:vxy()
    local speed = math.sqrt(vx * vx + vy * vy)
    local hx, hy = 1, 0 -- on the screen: y down
    if speed > 1e-6 then hx, hy = vx / speed, -vy / speed end
    local s = view.scale * a.radius
    local sx, sy = to_screen(view, x, y)
    v[n + 1][1], v[n + 1][2] = sx + 1.8 * s * hx, sy + 1.8 * s * hy
    v[n + 2][1], v[n + 2][2] = sx - s * hx - s * hy, sy - s * hy + s * hx
    v[n + 3][1], v[n + 3][2] = sx - s * hx + s * hy, sy - s * hy - s * hx
    n = n + 3
  end
  if n == 0 then return end
  batch.mesh:setVertices(v)
  batch.mesh:setDrawRange(1, n)
  love.graphics.setColor(colour)
  love.graphics.draw(batch.mesh)
end

-- A world's background, its title above; drawing is clipped to it from
-- here (a boid that wraps is half on each side, not over the next view).
local function panel(view, title)
  local w, h = view.width * view.scale, view.height * view.scale
  love.graphics.setScissor()
  love.graphics.setColor(COLOUR.text)
  love.graphics.print(title, view.x, view.y - 22)
  love.graphics.setColor(COLOUR.panel)
  love.graphics.rectangle("fill", view.x, view.y, w, h)
  love.graphics.setScissor(view.x, view.y, w, h)
end

local function draw_town(view)
  local s = view.scale
  love.graphics.setColor(COLOUR.wall)
  for j = 1, H do
    -- one rectangle per run of blocked cells along the row
    local i = 1
    while i <= W do
      local first, last = MAP[j]:find("#+", i)
      if not first then break end
      love.graphics.rectangle("fill", view.x + (first - 1) * CELL * s, view.y + (j - 1) * CELL * s,
        (last - first + 1) * CELL * s, CELL * s)
      i = last + 1
    end
  end
  local x, y = to_screen(view, town_state.player:xy())
  love.graphics.setColor(COLOUR.player)
  love.graphics.circle("fill", x, y, 1.2 * s)
  if town_state.led_until then
    local goal = town_state.to.goal
    x, y = to_screen(view, goal.x, goal.y)
    love.graphics.setColor(COLOUR.goal)
    love.graphics.setLineWidth(2)
    love.graphics.circle("line", x, y, s)
  end
end

-- How many agents of `tag` show their colour at their own screen position.
local function count_drawn(image, w, tag, view, colour)
  local found, total = 0, 0
  local iw, ih = image:getDimensions()
  for a in w:agents(tag) do
    total = total + 1
    local sx, sy = to_screen(view, a:xy())
    local px, py = math.floor(sx), math.floor(sy)
    if px >= 0 and py >= 0 and px < iw and py < ih then
      local r, g, b = image:getPixel(px, py)
      if math.abs(r - colour[1]) < 0.02 and math.abs(g - colour[2]) < 0.02 and math.abs(b - colour[3]) < 0.02 then
        found = found + 1
      end
    end
  end
  return found, total
end

local function check_screenshot(image)
  local boids, flock_total = count_drawn(image, flock, "boid", views.flock, COLOUR.boid)
  local zombies, horde_total = count_drawn(image, horde, "zombie", views.horde, COLOUR.zombie)
  local out = io.open(shot.file, "wb")
  if out then
    out:write(image:encode("png"):getString())
    out:close()
  end
  print(("love: %d of %d boids and %d of %d zombies drawn"):format(boids, flock_total, zombies, horde_total))
  local ok = out and boids >= FOUND_ENOUGH * flock_total and zombies >= FOUND_ENOUGH * horde_total
  if not out then io.stderr:write("love: cannot write ", shot.file, "\n") end
  love.event.quit(ok and 0 or 1)
end

-- Frames per second over the last half second, measured here:
-- love.timer.getFPS() reads 0 until a whole second has passed (a
-- screenshot is taken sooner). Before the first measure: the rate so far.
local function frame_rate()
  local now = love.timer.getTime()
  rate.since = rate.since or now
  rate.frames = rate.frames + 1
  local span = now - rate.since
  if span >= 0.5 then
    rate.value, rate.frames, rate.since = rate.frames / span, 0, now
  end
  return rate.value or (span > 0 and rate.frames / span) or nil
end

function love.draw()
  love.graphics.clear(COLOUR.background)
  if not steer then
    love.graphics.setColor(COLOUR.text)
    love.graphics.printf(load_error, 40, 40, 1200)
    return
  end
  panel(views.flock, ("flock: %d boids in a wrapped world"):format(flock.count))
  draw_agents(flock, "boid", views.flock, COLOUR.boid)
  panel(views.horde, ("horde: %d zombies hunt the player (the mouse or the arrow keys lead it)"):format(horde.count - 1))
  draw_town(views.horde)
  draw_agents(horde, "zombie", views.horde, COLOUR.zombie)
  love.graphics.setScissor()
  love.graphics.setColor(COLOUR.text)
  local fps = frame_rate()
  local status = ("%s fps   %d agents   t = %.1f s   %s, %s   steer %s%s"):format(
    fps and ("%.0f"):format(fps) or "--", flock.count + horde.count, flock.time, _VERSION,
    jit and jit.version or "no JIT", steer.version, paused and "   paused" or "")
  love.graphics.print(status, 10, 8)
  love.graphics.print("Hold the left mouse button over the town to lead the player there, or steer it with the arrow keys."
    .. "   Space pauses, Esc quits.", 10, 596)
  if shot and not shot.done and flock.tick >= shot.ticks then
    shot.done = true
    print("love: the status line reads: " .. status)
    love.graphics.captureScreenshot(check_screenshot)
  end
end
