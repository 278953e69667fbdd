-- SPDX-License-Identifier: MIT
-- edges.lua — the sweep of tests/c/test_edges.c, which gives it
-- number_fields(), a function returning every number field of every kind
-- as { kind, field, min, max }, from the kinds' table. Each number at both ends of its range goes into a world that is
-- stepped, saved, loaded (steer.load) and restored in place (w:restore);
-- both must give the saved bytes again. Returns the number of values
-- tried, of values steer refused at construction (a cross-field rule), and
-- a list of failures.
local number_fields = ...
local steer = require "steer"

local MIN, MAX = 1e-6, 1e30

-- The least positive value and the maximum of a range.
local function edges(min, max)
  return { min == 0 and MIN or min, max }
end

local grid = steer.grid{ cell = 1, map = { "....", "....", "....", "...." } }
local flow = grid:flow_field{ goal = { 3, 3 } }
local function seek() return steer.seek{} end
-- functions a snapshot names must live in a module's table
local fns = { custom = function() return 0, 0 end, think = function() end }
package.loaded.edges_fns = fns

-- What each kind needs besides the field under test.
local needs = {
  blend = function(t) t[1] = { seek(), 1 } end,
  priority = function(t) t[1] = seek() end,
  truncated_sum = function(t) t[1] = { seek(), 1 } end,
  dither = function(t) t[1] = { seek(), 1 } end,
  decompose_path = function(t) t.path = { { 1, 1 }, { 5, 5 } } end,
  follow_path = function(t) t.path = { { 1, 1 }, { 5, 5 } } end,
  patrol = function(t) t.points = { { 1, 1 }, { 5, 5 } } end,
  custom = function(t) t.fn = fns.custom end,
  follow_flow = function(t) t.field = flow end,
  decompose_flow = function(t) t.field = flow end,
}

local tried, refused, failures = 0, 0, {}
local function fail(what, msg) failures[#failures + 1] = what .. ": " .. tostring(msg) end

-- The world w makes (a function, so that restoring into a world of its
-- own kind is possible), stepped, saved, loaded and restored.
local function roundtrip(what, make)
  local ok, w = pcall(make)
  if not ok then return fail(what, "not built: " .. tostring(w)) end
  w:step(2)
  local s = w:save()
  local loaded, l = pcall(steer.load, s)
  if not loaded then return fail(what, l) end
  if l:save() ~= s then fail(what, "steer.load then w:save gives other bytes") end
  w:step(1)
  local restored, e = pcall(w.restore, w, s)
  if not restored then return fail(what, e) end
  if w:save() ~= s then fail(what, "w:restore then w:save gives other bytes") end
  l:step(3)
  w:step(3)
  if l:hash() ~= w:hash() then fail(what, "the loaded and the restored world step apart") end
end

local function world(t)
  t = t or {}
  t.size = t.size or { 100, 100 }
  t.seed = 1
  return steer.world(t)
end

-- every number field of every kind
local fields_of = {}
for _, f in ipairs(number_fields()) do
  fields_of[f[1]] = fields_of[f[1]] or {}
  fields_of[f[1]][f[2]] = true
end
-- a cross-field rule may refuse an end of a range beside a default (a
-- slow_radius below the default stop_radius): then try it beside these at 0
local partners = { "stop_radius", "stuck_window" }
for _, f in ipairs(number_fields()) do
  local kind, field = f[1], f[2]
  for _, v in ipairs(edges(f[3], f[4])) do
    tried = tried + 1
    local t = {}
    if needs[kind] then needs[kind](t) end
    t[field] = v
    local ok, b = pcall(steer[kind], t)
    if not ok then
      for _, p in ipairs(partners) do
        if p ~= field and fields_of[kind][p] then t[p] = 0 end
      end
      ok, b = pcall(steer[kind], t)
    end
    if ok then
      roundtrip(("%s.%s = %g"):format(kind, field, v), function()
        local w = world()
        w:spawn{ position = { 1, 1 }, velocity = { 1, 0 }, brain = b, target = { 5, 5 }, min_turn_radius = 1 }
        w:spawn{ position = { 3, 2 }, brain = seek(), target = { 1, 1 } }
        return w
      end)
    else
      refused = refused + 1
      if os.getenv("EDGES_VERBOSE") then print(kind, field, v, b) end
    end
  end
end

-- the agent's numbers, by w:spawn and by an archetype's vehicle
local vehicle = {
  mass = { MIN, MAX }, max_speed = { MIN, MAX }, max_force = { MIN, MAX }, radius = { MIN, MAX },
  min_turn_radius = { MIN, MAX }, max_turn_accel = { MIN, MAX },
}
local names = {}
for name in pairs(vehicle) do names[#names + 1] = name end
table.sort(names)
for _, name in ipairs(names) do
  for _, v in ipairs(vehicle[name]) do
    for _, model in ipairs{ "point", "craft" } do
      tried = tried + 1
      local desc = { position = { 1, 1 }, velocity = { 1, 0 }, brain = seek(), target = { 5, 5 }, model = model,
        min_turn_radius = 1 }
      desc[name] = v
      roundtrip(("w:spawn{ model = %s, %s = %g }"):format(model, name, v), function()
        local w = world()
        w:spawn(desc)
        return w
      end)
      tried = tried + 1
      local arch = { min_turn_radius = 1, model = model }
      arch[name] = v
      roundtrip(("archetype vehicle { model = %s, %s = %g }"):format(model, name, v), function()
        local edge = steer.archetype{ name = "edge", vehicle = arch, brain = seek() }
        local w = world()
        w:spawn(edge, { position = { 1, 1 }, target = { 5, 5 } })
        return w
      end)
    end
  end
end
-- a craft's min_speed: up to its max_speed
for _, v in ipairs{ MIN, MAX } do
  tried = tried + 1
  roundtrip(("w:spawn{ model = craft, min_speed = max_speed = %g }"):format(v), function()
    local w = world()
    w:spawn{ position = { 1, 1 }, model = "craft", min_turn_radius = 1, min_speed = v, max_speed = v }
    return w
  end)
end
-- think_hz, and the agent's fields set after the spawn
for _, v in ipairs{ MIN, 1e6 } do
  tried = tried + 1
  roundtrip(("think_hz = %g"):format(v), function()
    local w = world()
    w:spawn{ position = { 1, 1 }, think = fns.think, think_hz = v }
    return w
  end)
end
for _, name in ipairs{ "mass", "max_speed", "max_force", "radius" } do
  for _, v in ipairs{ MIN, MAX } do
    tried = tried + 1
    roundtrip(("a.%s = %g"):format(name, v), function()
      local w = world()
      local a = w:spawn{ position = { 1, 1 }, brain = seek(), target = { 5, 5 } }
      a[name] = v
      return w
    end)
  end
end

-- the world's numbers
for _, v in ipairs{ MIN, MAX } do
  for _, dim in ipairs{ 2, 3 } do
    tried = tried + 1
    roundtrip(("steer.world{ dim = %d, size = %g }"):format(dim, v), function()
      local w = world{ dim = dim, size = { v, v, v } }
      w:spawn{ position = { 0, 0, 0 } }
      return w
    end)
  end
  for _, name in ipairs{ "window", "progress" } do
    tried = tried + 1
    roundtrip(("steer.world{ stuck = { %s = %g } }"):format(name, v), function()
      local w = world{ stuck = { [name] = v } }
      w:spawn{ position = { 1, 1 }, brain = seek(), target = { 5, 5 } }
      return w
    end)
  end
end
for _, v in ipairs{ MIN, 1 } do
  tried = tried + 1
  roundtrip(("steer.world{ dt = %g }"):format(v), function()
    local w = world{ dt = v }
    w:spawn{ position = { 1, 1 }, brain = seek(), target = { 5, 5 } }
    return w
  end)
end

-- a grid's cell and costs, held by a flow field an agent steers on
for _, v in ipairs{ MIN, MAX } do
  for _, what in ipairs{ "cell", "cost" } do
    tried = tried + 1
    roundtrip(("steer.grid{ %s = %g }"):format(what, v), function()
      local g = steer.grid{ cell = what == "cell" and v or 1, map = { "...", "...", "..." },
        costs = what == "cost" and function() return v end or nil }
      local ff = g:flow_field{ goal = { 0, 0 } }
      local w = world()
      w:spawn{ position = { 1, 1 }, brain = steer.follow_flow{ field = ff } }
      return w
    end)
  end
end

return tried, refused, failures
