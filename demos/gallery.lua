-- SPDX-License-Identifier: MIT
-- gallery.lua — every behaviour and combiner, side by side, labelled.
--
-- The world is a wall of 30 m panels, one per behaviour or combiner. Each
-- panel is a tiny scene under a band that holds its label: the agent
-- being shown is light, the agents and things it reacts to are dark, and
-- the label names what is shown. Agents that read other agents (flocking,
-- avoid_agents) only see their own panel's tag, so the panels do not
-- disturb each other. Each scene is a small wrapped world: steer.contain
-- keeps agents inside the world's bounds only, not a panel's, so `update`
-- brings an agent that leaves its scene back in at the opposite side
-- (a.data.panel names its panel), and none walks over a label. In a
-- combiner's label, "seek > wander" means seek comes first. The
-- contain panel sits in the world's bottom right corner, where two of its
-- edges are the world's; the flock has walls round it, as a wrap would
-- split it. Moving targets are moved by plain Lua in `update` at a low
-- rate. Which agents those updates move, and their random stream, are the
-- scenario's own state: in steer.state, which snapshots carry, so a rewind
-- or a load replays the same run (and a hot reload keeps them).
--
-- Headless: steer run --headless --ticks 1200 demos/gallery.lua

local steer = require "steer"
local random = require "steer.random" -- a stream a snapshot keeps (math.random's is not)

local P = 30     -- panel size in metres
local COLS = 6
local H = 24     -- a panel's scene is H m high; its label has the band above
-- A label's lines: at the window's opening zoom (1280x720) a panel is 112
-- px and a character 6 px, so 16 characters (96 px) stay clear of the next
-- panel's label; two lines, 2.8 m (10.5 px) apart from 1.5 m under the
-- panel's top, fill the band.
local LABEL_WIDTH, LINE = 16, 2.8

local panels = {} -- { label, lines, x, y }
-- S.rng: the updates' random stream; S.moved: scene index -> the agents its update moves
local S = steer.state

-- A panel at index i: its corner, and a point in its scene from fractions
-- of the scene's width and height.
local function corner(i)
  local c, r = (i - 1) % COLS, math.floor((i - 1) / COLS)
  return c * P, r * P
end

local function at(ox, oy, fx, fy) return { ox + fx * P, oy + fy * H } end

-- A target dot that walks round the panel (for seek, pursue, face, ...).
local function runner(w, ox, oy, tag)
  return w:spawn{
    position = at(ox, oy, 0.2, 0.2), tag = tag, max_speed = 3, max_force = 6,
    brain = steer.patrol{ points = { at(ox, oy, 0.2, 0.2), at(ox, oy, 0.8, 0.2), at(ox, oy, 0.8, 0.8),
                                     at(ox, oy, 0.2, 0.8) }, stop_radius = 1 },
  }
end

local V = { max_speed = 4, max_force = 8 } -- the shown agent's vehicle

local function shown(w, fields)
  for k, v in pairs(V) do if fields[k] == nil then fields[k] = v end end
  fields.tag = fields.tag or "shown"
  return w:spawn(fields)
end

local scenario -- the table this file returns (below)

-- Each entry: a label, a setup function (w, ox, oy, tag) -> the agents its
-- update moves (or nil), and that update (w, t, agents, ox, oy), run once a
-- second with t in seconds.
local scenes = {
  { "seek", function(w, ox, oy)
    local r = runner(w, ox, oy, "prop")
    shown(w, { position = at(ox, oy, 0.5, 0.5), brain = steer.seek{}, target = r, max_speed = 2.5 })
  end },
  { "flee (panic radius 8)", function(w, ox, oy)
    local r = runner(w, ox, oy, "prop")
    shown(w, { position = at(ox, oy, 0.5, 0.5), brain = steer.priority{ steer.contain{ margin = 1 },
      steer.flee{ panic_radius = 8 } }, target = r })
  end },
  { "arrive (smooth)", function(w, ox, oy)
    local a = shown(w, { position = at(ox, oy, 0.2, 0.5), brain = steer.arrive{ slow_radius = 8, ease = "smooth" },
      target = at(ox, oy, 0.8, 0.5) })
    return { a }
  end, function(_, t, ag, ox, oy)
    if t % 8 == 0 then ag[1].target = at(ox, oy, 0.2 + 0.6 * random.float(S.rng), 0.2 + 0.6 * random.float(S.rng)) end
  end },
  { "pursue", function(w, ox, oy)
    local r = runner(w, ox, oy, "prop")
    shown(w, { position = at(ox, oy, 0.5, 0.5), brain = steer.pursue{ max_prediction = 1 }, target = r, max_speed = 2.5 })
  end },
  { "evade", function(w, ox, oy)
    local r = runner(w, ox, oy, "prop")
    shown(w, { position = at(ox, oy, 0.5, 0.5), brain = steer.priority{ steer.contain{ margin = 1 },
      steer.evade{ panic_radius = 8 } }, target = r })
  end },
  { "contain (world's edges)", function(w, ox, oy)
    for k = 1, 5 do
      shown(w, { position = at(ox, oy, 0.7, 0.3), velocity = { 3 * math.cos(k), 3 * math.sin(k) }, max_speed = 3,
        brain = steer.blend{ { steer.contain{ margin = 4 }, 3 }, { steer.wander{}, 1 } } })
    end
  end },
  { "wander (turn rate)", function(w, ox, oy)
    shown(w, { position = at(ox, oy, 0.5, 0.5), max_speed = 2,
      brain = steer.priority{ steer.contain{ margin = 3 }, steer.wander{ variant = "turn" } } })
  end },
  { "separation + alignment + cohesion", function(w, ox, oy, tag)
    -- walls keep the flock whole (neighbours are not seen across a wrap),
    -- and under the third line of its label
    local corners = { at(ox, oy, 0.05, 0.05), at(ox, oy, 0.95, 0.05), at(ox, oy, 0.95, 0.7), at(ox, oy, 0.05, 0.7) }
    for k = 1, 4 do w:add_wall{ from = corners[k], to = corners[k % 4 + 1] } end
    local brain = steer.priority{ steer.avoid_walls{ length = 3 }, steer.blend{
      { steer.separation{ radius = 2, tag = tag }, 1.5 }, { steer.alignment{ radius = 6, tag = tag }, 1 },
      { steer.cohesion{ radius = 6, tag = tag }, 1 }, { steer.wander{}, 0.3 } } }
    for i = 1, 12 do
      shown(w, { position = at(ox, oy, 0.3 + 0.04 * i, 0.3 + 0.03 * (i % 5)), tag = tag, brain = brain,
        velocity = { math.cos(i), math.sin(i) }, max_speed = 2, max_force = 3 })
    end
  end },
  { "follow_path (looping)", function(w, ox, oy)
    local path = {}
    for k = 0, 11 do
      local t = k / 12 * 2 * math.pi
      path[#path + 1] = at(ox, oy, 0.5 + 0.3 * math.cos(t), 0.5 + 0.3 * math.sin(2 * t) / 1.5)
    end
    shown(w, { position = at(ox, oy, 0.5, 0.1), brain = steer.follow_path{ path = path, loop = true, radius = 1 } })
  end },
  { "patrol (ping-pong, 1 s)", function(w, ox, oy)
    shown(w, { position = at(ox, oy, 0.2, 0.2), brain = steer.patrol{ mode = "pingpong", pause = 1,
      points = { at(ox, oy, 0.2, 0.2), at(ox, oy, 0.8, 0.3), at(ox, oy, 0.5, 0.8) } } })
  end },
  { "avoid_obstacles", function(w, ox, oy)
    for k = 1, 5 do w:add_obstacle{ position = at(ox, oy, 0.2 + 0.15 * k, 0.3 + 0.4 * (k % 2)), radius = 2 } end
    shown(w, { position = at(ox, oy, 0.1, 0.5), brain = steer.priority{ steer.avoid_obstacles{},
      steer.patrol{ points = { at(ox, oy, 0.1, 0.5), at(ox, oy, 0.9, 0.5) }, mode = "pingpong" } } })
  end },
  { "avoid_walls (whiskers)", function(w, ox, oy)
    w:add_wall{ from = at(ox, oy, 0.1, 0.1), to = at(ox, oy, 0.9, 0.1) }
    w:add_wall{ from = at(ox, oy, 0.9, 0.1), to = at(ox, oy, 0.9, 0.9) }
    w:add_wall{ from = at(ox, oy, 0.9, 0.9), to = at(ox, oy, 0.1, 0.9) }
    w:add_wall{ from = at(ox, oy, 0.1, 0.9), to = at(ox, oy, 0.1, 0.1) }
    w:add_wall{ from = at(ox, oy, 0.5, 0.1), to = at(ox, oy, 0.5, 0.6) }
    shown(w, { position = at(ox, oy, 0.3, 0.5), brain = steer.blend{ { steer.avoid_walls{ length = 4 }, 3 },
      { steer.wander{}, 1 } }, max_speed = 3 })
  end },
  { "avoid_agents", function(w, ox, oy, tag)
    local brain = steer.blend{ { steer.avoid_agents{ tag = tag }, 2 }, { steer.arrive{ slow_radius = 3 }, 1 } }
    local people = {}
    for k = 1, 8 do
      local t = k / 8 * 2 * math.pi
      people[k] = shown(w, { position = at(ox, oy, 0.5 + 0.35 * math.cos(t), 0.5 + 0.35 * math.sin(t)), tag = tag,
        brain = brain, max_speed = 3, radius = 0.6 })
    end
    return people
  end, function(_, t, people, ox, oy)
    if t % 12 == 0 then
      for _, a in ipairs(people) do
        local x, y = a:xy()
        a.target = { 2 * (ox + P / 2) - x, 2 * (oy + H / 2) - y }
      end
    end
  end },
  { "hide", function(w, ox, oy)
    for k = 1, 3 do w:add_obstacle{ position = at(ox, oy, 0.25 * k, 0.5 + 0.2 * (k - 2)), radius = 1.5 } end
    local r = runner(w, ox, oy, "prop")
    shown(w, { position = at(ox, oy, 0.5, 0.5), brain = steer.hide{ radius = 20 }, target = r })
  end },
  { "interpose", function(w, ox, oy)
    local a = runner(w, ox, oy, "prop")
    local b = w:spawn{ position = at(ox, oy, 0.5, 0.5), tag = "prop", max_speed = 2,
      brain = steer.priority{ steer.contain{ margin = 4 }, steer.wander{} } }
    shown(w, { position = at(ox, oy, 0.5, 0.2), brain = steer.interpose{ a = a, b = b } })
  end },
  { "offset_pursuit (a V formation)", function(w, ox, oy)
    local leader = runner(w, ox, oy, "prop")
    leader.max_speed = 2
    for k, off in ipairs{ { -2, 2 }, { -2, -2 }, { -4, 4 }, { -4, -4 } } do
      shown(w, { position = at(ox, oy, 0.2 + 0.02 * k, 0.3), brain = steer.offset_pursuit{ target = leader, offset = off } })
    end
  end },
  { "wander (circle)", function(w, ox, oy)
    shown(w, { position = at(ox, oy, 0.5, 0.5), max_speed = 2,
      brain = steer.priority{ steer.contain{ margin = 3 }, steer.wander{ variant = "circle" } } })
  end },
  { "face (stands, turns)", function(w, ox, oy)
    local r = runner(w, ox, oy, "prop")
    shown(w, { position = at(ox, oy, 0.5, 0.5), brain = steer.face{ turn_rate = 2 }, target = r })
  end },
  { "look_where_going", function(w, ox, oy)
    shown(w, { position = at(ox, oy, 0.5, 0.5), max_speed = 2, brain = steer.blend{
      { steer.priority{ steer.contain{ margin = 3 }, steer.wander{} }, 1 }, { steer.look_where_going{ turn_rate = 3 }, 1 } } })
  end },
  { "match_velocity", function(w, ox, oy)
    local r = runner(w, ox, oy, "prop")
    shown(w, { position = at(ox, oy, 0.5, 0.5), brain = steer.priority{ steer.contain{ margin = 2 },
      steer.match_velocity{} }, target = r })
  end },
  { "blend (seek + wander)", function(w, ox, oy)
    local r = runner(w, ox, oy, "prop")
    shown(w, { position = at(ox, oy, 0.5, 0.5), max_speed = 2.5,
      brain = steer.blend{ { steer.seek{}, 1 }, { steer.wander{ jitter = 20 }, 1 } }, target = r })
  end },
  { "priority (walls > arrive)", function(w, ox, oy)
    w:add_wall{ from = at(ox, oy, 0.5, 0.2), to = at(ox, oy, 0.5, 0.8) }
    local a = shown(w, { position = at(ox, oy, 0.2, 0.5), brain = steer.priority{ steer.avoid_walls{ length = 3 },
      steer.arrive{ slow_radius = 4 }, margin = 1.5, hold = 0.3 }, target = at(ox, oy, 0.8, 0.5) })
    return { a }
  end, function(_, t, ag, ox, oy)
    if t % 10 == 0 then ag[1].target = math.floor(t / 10) % 2 == 0 and at(ox, oy, 0.2, 0.5) or at(ox, oy, 0.8, 0.5) end
  end },
  { "truncated_sum (seek > wander)", function(w, ox, oy)
    local r = runner(w, ox, oy, "prop")
    shown(w, { position = at(ox, oy, 0.5, 0.5), max_speed = 3, brain = steer.truncated_sum{
      { steer.seek{}, 1 }, { steer.wander{ jitter = 20 }, 1 } }, target = r })
  end },
  { "dither (seek or wander)", function(w, ox, oy)
    local r = runner(w, ox, oy, "prop")
    shown(w, { position = at(ox, oy, 0.5, 0.5), max_speed = 2.5, brain = steer.dither{
      { steer.seek{}, 0.3 }, { steer.wander{}, 0.7 } }, target = r })
  end },
  { "pipeline (a constraint)", function(w, ox, oy)
    w:add_wall{ from = at(ox, oy, 0.5, 0.15), to = at(ox, oy, 0.5, 0.85) }
    local a = shown(w, { position = at(ox, oy, 0.2, 0.5), brain = steer.pipeline{
      constraints = { steer.wall_constraint{ margin = 1 } }, actuator = steer.arrive{ slow_radius = 3 } },
      target = at(ox, oy, 0.8, 0.5) })
    return { a }
  end, function(_, t, ag, ox, oy)
    if t % 12 == 0 then ag[1].target = math.floor(t / 12) % 2 == 0 and at(ox, oy, 0.2, 0.5) or at(ox, oy, 0.8, 0.5) end
  end },
  { "custom (a Lua spiral)", function(w, ox, oy)
    -- the function is the scenario's `spiral`, so that a snapshot (w:save)
    -- can name it; the centre it circles is the agent's data
    shown(w, { position = at(ox, oy, 0.7, 0.5), max_speed = 3, data = { centre = { ox + P / 2, oy + H / 2 } },
      brain = steer.custom(scenario.spiral) })
  end },
}

-- A label in lines of at most `width` characters: the name, then its
-- "(...)" from a line of its own, words kept whole.
local function wrap(text, width)
  local lines = {}
  local name, detail = text:match("^(.-) (%(.*)$")
  for _, part in ipairs(name and { name, detail } or { text }) do
    local line
    for word in part:gmatch("%S+") do
      if line and #line + 1 + #word <= width then
        line = line .. " " .. word
      else
        lines[#lines + 1] = line
        line = word
      end
    end
    lines[#lines + 1] = line
  end
  return lines
end

-- the panels' frames and labels, for draw (the same after a load)
for i, sc in ipairs(scenes) do
  local ox, oy = corner(i)
  panels[i] = { label = sc[1], lines = wrap(sc[1], LABEL_WIDTH), x = ox, y = oy }
end

scenario = {
  world = { dim = 2, size = { COLS * P, math.ceil(#scenes / COLS) * P }, seed = 13 },

  setup = function(w)
    S.rng, S.moved = random.new(13), {}
    for i, s in ipairs(scenes) do
      local ox, oy = corner(i)
      S.moved[i] = s[2](w, ox, oy, "panel" .. i)
      for a in w:agents() do a.data.panel = a.data.panel or i end
    end
  end,

  update = function(w)
    -- an agent that left its panel's scene comes back in at the opposite
    -- side (one spawned by someone else, a mod or a test, has no panel)
    for a in w:agents() do
      if a.data.panel then
        local ox, oy = corner(a.data.panel)
        local x, y = a:xy()
        local wx, wy = ox + (x - ox) % P, oy + (y - oy) % H
        if wx ~= x or wy ~= y then a.position = { wx, wy } end
      end
    end
    if w.tick % 60 ~= 0 then return end -- once a second
    local t = math.floor(w.tick / 60)
    for i, s in ipairs(scenes) do
      if s[3] then s[3](w, t, S.moved[i], corner(i)) end
    end
  end,

  -- (a snapshot saved before steer.state held its save()'s data, now
  -- steer.state's: the moved agents by id)
  load = function(w)
    local by_id = {}
    for a in w:agents() do by_id[a.id] = a end
    for _, ag in pairs(S.moved) do
      for k, a in ipairs(ag) do ag[k] = by_id[a] or a end
    end
  end,

  draw = function(d)
    for _, p in ipairs(panels) do
      d:line(p.x, p.y, p.x + P, p.y, { 60, 60, 70 })
      d:line(p.x, p.y, p.x, p.y + P, { 60, 60, 70 })
      for i, line in ipairs(p.lines) do
        d:text(p.x + 1, p.y + P - 1.5 - LINE * (i - 1), line, i == 1 and { 230, 230, 230 } or { 160, 165, 180 })
      end
    end
  end,

  -- steer.custom's function in the custom panel: toward a circle of radius
  -- 8 round the centre in a.data, and along it
  spiral = function(a)
    local cx, cy = a.data.centre[1], a.data.centre[2]
    local x, y = a:xy()
    local vx, vy = a:vxy()
    local dx, dy = x - cx, y - cy
    local d = math.sqrt(dx * dx + dy * dy) + 1e-9
    local tx, ty = -dy / d * 3 - dx / d * (d - 8), dx / d * 3 - dy / d * (d - 8)
    return 2 * (tx - vx), 2 * (ty - vy)
  end,
}
return scenario
