-- SPDX-License-Identifier: MIT
-- api_gen.lua — writes random Lua programs against the whole steer API.
--
-- A program is text, so a failing one can be printed, saved and replayed
-- (`steer-fuzz --print SEED`, `steer-fuzz --file F`). Its choices come from
-- a source of random numbers: xorshift from a seed (the seed-range runs of
-- steer-fuzz) or the bytes libFuzzer mutates (fuzz_api), so coverage can
-- guide the choices. Each statement is one line wrapped in rt.try, so an
-- error names its line and the next statement still runs; rt (api_rt.lua)
-- checks after every step that the world holds no NaN and lost no agent.
--
-- What it reaches: worlds in 2D and 3D (wrap, collide, stuck), spawns with
-- hostile fields, every behaviour constructor and combiner (reciprocal
-- among them: the module's every kind, checked when this file loads) nested into
-- random trees, custom behaviours and eases returning anything, property
-- writes, shapes, grids from random maps with cost callbacks that edit the
-- map, flow fields, archetypes, think functions and event handlers that
-- spawn and remove, formations (members, shapes, anchors), and the query
-- methods.
local gen = {}

-- ---- random sources -------------------------------------------------------

-- xorshift64 on Lua integers (wrapping), seeded with splitmix64.
function gen.seeded(seed)
  local s = seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019
  s = (s ~ (s >> 30)) * 0xBF58476D1CE4E5B9
  s = (s ~ (s >> 27)) * 0x94D049BB133111EB
  s = s ~ (s >> 31)
  if s == 0 then s = 1 end
  return function(n) -- a whole number in [0, n)
    s = s ~ (s << 13)
    s = s ~ (s >> 7)
    s = s ~ (s << 17)
    return (s >> 1) % n
  end
end

-- The bytes of a string, two at a time; zeros once they run out (so a short
-- input is a short program: the zero choice of most rules ends a list).
function gen.bytes(data)
  local at = 1
  return function(n)
    local a, b = data:byte(at, at + 1)
    at = at + 2
    return (((a or 0) << 8) | (b or 0)) % n
  end
end

-- ---- the generator ------------------------------------------------------------

local G = {}
G.__index = G

function G:int(lo, hi) return lo + self.rand(hi - lo + 1) end
function G:chance(p) return self.rand(1000) < p * 1000 end
function G:pick(t) return t[self.rand(#t) + 1] end

-- Numbers that break code: zero, signs, denormals, float overflow, huge and
-- not-a-number, integers at the edges; and ordinary ones, which keep a
-- program alive long enough to reach deep states.
local HOSTILE = {
  "0", "-1", "1e-300", "1e-39", "1e-45", "3.4e38", "3e38", "1e30", "1e31", "1e308", "-1e308",
  "1/0", "-1/0", "0/0", "2^53", "math.maxinteger", "math.mininteger", "-0.0", "65535", "65536", "1e6",
  "2^31", "-2^31", "1e-7",
}

function G:plain_num(lo, hi)
  local n = self:int(lo * 10, hi * 10) / 10
  return string.format("%.1f", n)
end

function G:num(lo, hi)
  if self:chance(self.hostility) then return self:pick(HOSTILE) end
  return self:plain_num(lo or 0, hi or 10)
end

-- A reference into a pool the prologue and earlier statements fill; now
-- and then one past what they hold (nil).
local POOL_SIZE = { A = 8, B = 8, F = 3, G = 3, N = 2, O = 2, R = 3, W = 3 }

function G:ref(pool)
  if pool == "W" and self:chance(0.8) then return "W[1]" end
  return string.format("%s[%d]", pool, self:int(1, POOL_SIZE[pool]))
end

-- Anything at all, for fields that expect something else.
function G:any()
  local r = self.rand(12)
  if r == 0 then return "nil" end
  if r == 1 then return self:pick({ "true", "false" }) end
  if r == 2 then return self:pick({ '"x"', '""', '"loop"', '"start"', '"smooth"', '("#"):rep(70)' }) end
  if r == 3 then return "{}" end
  if r == 4 then return self:vec() end
  if r == 5 then return self:ref("A") end
  if r == 6 then return self:ref("B") end
  if r == 7 then return "function() return 0/0 end" end
  if r == 8 then return self:ref("F") end
  if r == 9 then return "setmetatable({}, { __index = function() error('meta') end })" end
  return self:num()
end

function G:vec(dim)
  dim = dim or self.dim
  local r = self:chance(self.hostility * 4) and self.rand(5) or 5 + self.rand(15)
  if r == 0 then return "steer.vec(" .. self:num(-50, 50) .. ", " .. self:num(-50, 50) .. ")" end
  if r == 1 then return "{" .. self:num() .. "}" end
  if r == 2 then return "{1, 2, 3, 4}" end
  if r == 3 then return "{x = 1, y = 2}" end
  if r == 4 then return '{"a", "b"}' end
  local parts = {}
  for i = 1, (self:chance(self.hostility) and 5 - dim or dim) do parts[i] = self:num(-50, 50) end
  return "{" .. table.concat(parts, ", ") .. "}"
end

function G:target()
  local r = self.rand(6)
  if r == 0 then return "nil" end
  if r <= 2 then return self:ref("A") end
  if r == 3 then return self:any() end
  return self:vec()
end

function G:points()
  local n = self:chance(self.hostility) and self:int(0, 1) or self:int(2, 6)
  local p = {}
  for i = 1, n do p[i] = self:vec() end
  if self:chance(0.1) then p[#p + 1] = "nil" end
  return "{" .. table.concat(p, ", ") .. "}"
end

-- A Lua function body text returning forces: plain, huge, NaN, wrong types,
-- erroring, or touching the world (removing its agent, spawning).
function G:custom_fn()
  local r = self.rand(9)
  if r == 0 then return "function(a, dt) return 0/0, 1 end" end
  if r == 1 then return "function(a, dt) return 1/0, -1/0, 0 end" end
  if r == 2 then return "function(a, dt) return 1e38, 1e38, 1e38 end" end
  if r == 3 then return "function(a, dt) error('custom boom') end" end
  if r == 4 then return "function(a, dt) return 'x' end" end
  if r == 5 then return "function(a, dt) rt.remove(a) return 1, 0 end" end
  if r == 6 then return "function(a, dt) local x, y = a:xy() return -x, -y end" end
  if r == 7 then return "function(a, dt) return " .. self:num(-5, 5) .. ", " .. self:num(-5, 5) .. " end" end
  return "function(a, dt) return nil end"
end

function G:ease()
  local r = self.rand(6)
  if r == 0 then return '"linear"' end
  if r == 1 then return '"smooth"' end
  if r == 2 then return "function(f) return 0/0 end" end
  if r == 3 then return "function(f) return f * " .. self:num(-2, 2) .. " end" end
  if r == 4 then return "function(f) error('ease') end" end
  return self:any()
end

-- Field kinds: n number, v vector, t target, b boolean, s tag, p point list,
-- e(...) an enum, f a flow field, m a navigation mesh, c an ease, h a heading, i an integer.
local KINDS = {
  seek = { target = "t", speed = "n" },
  flee = { target = "t", panic_radius = "n", speed = "n" },
  pursue = { target = "t", max_prediction = "n", speed = "n" },
  evade = { target = "t", max_prediction = "n", panic_radius = "n", speed = "n" },
  arrive = { target = "t", slow_radius = "n", stop_radius = "n", speed = "n", ease = "c" },
  wander = { variant = { "circle", "turn" }, distance = "n", radius = "n", jitter = "n", max_turn_rate = "n",
             max_turn_change = "n", speed = "n" },
  separation = { radius = "n", tag = "s" },
  alignment = { radius = "n", tag = "s" },
  cohesion = { radius = "n", tag = "s" },
  follow_path = { path = "p", loop = "b", radius = "n", predict = "n", ahead = "n", slow_radius = "n",
                  stop_radius = "n", speed = "n", join = { "start", "nearest" } },
  patrol = { points = "p", loop = "b", pause = "n", mode = { "loop", "pingpong" }, slow_radius = "n",
             stop_radius = "n", speed = "n" },
  avoid_obstacles = { lookahead = "n", margin = "n", stuck_window = "n", stuck_progress = "n" },
  avoid_walls = { whiskers = "i", length = "n", spread = "n", hold = "n" },
  hide = { target = "t", radius = "n", margin = "n", slow_radius = "n", max_prediction = "n" },
  contain = { margin = "n", lookahead = "n" },
  avoid_agents = { horizon = "n", responsibility = "n", margin = "n", range = "n", tag = "s", },
  interpose = { a = "t", b = "t", slow_radius = "n", speed = "n", max_prediction = "n" },
  offset_pursuit = { target = "t", offset = "v", slow_radius = "n", speed = "n", max_prediction = "n" },
  match_velocity = { target = "t" },
  face = { target = "t", turn_rate = "n" },
  look_where_going = { turn_rate = "n" },
  directed_seek = { target = "t", heading = "v", min_turn_radius = "n", speed = "n", behind = "n", opposite = "b" },
  follow_flow = { field = "f", speed = "n", slow_radius = "n", stop_radius = "n", clearance = "n" },
  target_position = { target = "t" },
  target_velocity = { velocity = "v" },
  decompose_path = { path = "p", radius = "n" },
  decompose_flow = { field = "f", lookahead = "n" },
  navigate = { navmesh = "m", target = "t", slow_radius = "n", stop_radius = "n", speed = "n" },
  avoid_obstacle_constraint = { margin = "n" },
  wall_constraint = { margin = "n" },
  formation_slot = { formation = "o", slow_radius = "n" },
}
-- Fields a constructor refuses to go without (named by the kind that needs it).
local REQUIRED = { points = "patrol", path = true, field = true, navmesh = true, formation = true }
local KIND_NAMES = {}
for k in pairs(KINDS) do KIND_NAMES[#KIND_NAMES + 1] = k end
-- The pipeline's stages take these kinds only.
local STAGES = {
  targeters = { "target_position", "target_velocity" },
  decomposers = { "decompose_path", "decompose_flow" },
  constraints = { "avoid_obstacle_constraint", "wall_constraint" },
}
table.sort(KIND_NAMES) -- pairs' order changes from run to run: a seed must name one program
-- The combiners (G:brain) and the kinds the pipeline's stages take.
local COMBINERS = { "blend", "priority", "truncated_sum", "dither", "pipeline", "reciprocal", "context" }
-- The kinds a context's maps take (reciprocal also writes interest: through G:brain).
local CONTEXT = {
  interest = { "seek", "arrive", "pursue", "flee", "evade", "wander", "follow_flow", "navigate" },
  danger = { "flee", "evade", "separation", "avoid_agents", "avoid_walls", "avoid_obstacles" },
}
-- reciprocal (ORCA) wraps its goal behaviours, none or several, with these
-- fields: a field kind, or the range of a number.
local RECIPROCAL = { { "bias", { 0, 1.5 } }, { "horizon", "n" }, { "margin", "n" }, { "neighbors", { 0, 48 } },
                     { "obstacle_horizon", "n" }, { "obstacles", "b" }, { "range", "n" }, { "responsibility", { 0, 1 } },
                     { "tag", "s" } }
-- Every kind the module has is generated: a new kind without a row here
-- stops the generator (and so the test fuzz-api-seeds).
do
  local known = { custom = true }
  for _, k in ipairs(KIND_NAMES) do known[k] = true end
  for _, k in ipairs(COMBINERS) do known[k] = true end
  for _, k in ipairs(require("steer").kinds()) do
    if not known[k] then error("api_gen.lua: the kind '" .. k .. "' is not generated: add it to KINDS or COMBINERS", 0) end
  end
end

function G:field(kind)
  if type(kind) == "table" then
    if self:chance(0.1) then return self:any() end
    return '"' .. self:pick(kind) .. '"'
  end
  if self:chance(self.hostility / 2) then return self:any() end
  if kind == "n" then return self:num(0, 10) end
  if kind == "i" then return tostring(self:int(-1, 20)) end
  if kind == "v" then return self:vec() end
  if kind == "t" then return self:target() end
  if kind == "b" then return self:pick({ "true", "false" }) end
  if kind == "s" then return self:pick({ '"a"', '"b"', "nil" }) end
  if kind == "p" then return self:points() end
  if kind == "f" then return self:ref("F") end
  if kind == "m" then return self:ref("N") end
  if kind == "o" then return self:ref("O") end
  if kind == "c" then return self:ease() end
  return "nil"
end

function G:leaf()
  local name = self:pick(KIND_NAMES)
  if self:chance(0.05) then return "steer.custom(" .. self:custom_fn() .. ")" end
  local fields = KINDS[name]
  local keys = {}
  for k in pairs(fields) do keys[#keys + 1] = k end
  table.sort(keys)
  local parts = {}
  for _, k in ipairs(keys) do
    local required = (REQUIRED[k] == true or REQUIRED[k] == name) and not self:chance(self.hostility)
    if required or self:chance(0.5) then parts[#parts + 1] = k .. " = " .. self:field(fields[k]) end
  end
  if self:chance(self.hostility / 2) then parts[#parts + 1] = "bogus = 1" end
  if self:chance(0.1) then parts[#parts + 1] = 'name = "n' .. self:int(1, 3) .. '"' end
  return "steer." .. name .. "{ " .. table.concat(parts, ", ") .. " }"
end

function G:brain(depth)
  if depth <= 0 or self:chance(0.45) then
    if self:chance(0.15) then return self:ref("B") end
    return self:leaf()
  end
  local n = self:int(self:chance(self.hostility) and 0 or 1, 3)
  local kids = {}
  local combiner = self:pick(COMBINERS)
  if combiner == "pipeline" then
    local function list(kinds)
      local l = {}
      for i = 1, self:int(0, 2) do
        if self:chance(self.hostility) then l[i] = self:brain(depth - 1)
        else
          local saved = KIND_NAMES
          KIND_NAMES = kinds
          l[i] = self:leaf()
          KIND_NAMES = saved
        end
      end
      return "{" .. table.concat(l, ", ") .. "}"
    end
    local parts = { "targeters = " .. list(STAGES.targeters), "decomposers = " .. list(STAGES.decomposers),
                    "constraints = " .. list(STAGES.constraints) }
    if self:chance(0.5) then parts[#parts + 1] = "actuator = " .. self:brain(depth - 1) end
    if self:chance(0.3) then parts[#parts + 1] = "fallback = " .. self:brain(depth - 1) end
    if self:chance(0.3) then parts[#parts + 1] = "passes = " .. self:field("i") end
    return "steer.pipeline{ " .. table.concat(parts, ", ") .. " }"
  end
  if combiner == "context" then
    -- entries of the map's kinds (weighted or not), now and then any brain
    local function list(kinds, least)
      local l = {}
      for i = 1, self:int(self:chance(self.hostility) and 0 or least, 3) do
        local b
        if self:chance(self.hostility) then b = self:brain(depth - 1)
        else
          local saved = KIND_NAMES
          KIND_NAMES = kinds
          b = self:leaf()
          KIND_NAMES = saved
        end
        l[i] = self:chance(0.5) and "{ " .. b .. ", " .. self:num(0, 2) .. " }" or b
      end
      return "{" .. table.concat(l, ", ") .. "}"
    end
    local parts = { "interest = " .. list(CONTEXT.interest, 1), "danger = " .. list(CONTEXT.danger, 0) }
    if self:chance(0.5) then parts[#parts + 1] = "slots = " .. (self:chance(self.hostility) and self:field("i") or tostring(self:int(4, 64))) end
    if self:chance(0.3) then parts[#parts + 1] = "threshold = " .. self:num(0, 1) end
    if self:chance(0.3) then parts[#parts + 1] = "smoothing = " .. self:num(0, 0.99) end
    return "steer.context{ " .. table.concat(parts, ", ") .. " }"
  end
  for i = 1, n do
    local b = self:brain(depth - 1)
    if combiner == "priority" then kids[i] = b
    else kids[i] = "{ " .. b .. ", " .. self:num(0, 2) .. " }" end
  end
  if combiner == "priority" then
    if self:chance(0.3) then kids[#kids + 1] = "epsilon = " .. self:num(0, 1) end
    if self:chance(0.3) then kids[#kids + 1] = "hold = " .. self:num(0, 1) end
    if self:chance(0.3) then kids[#kids + 1] = "margin = " .. self:num(0, 2) end
  elseif combiner == "dither" and self:chance(0.3) then
    kids[#kids + 1] = "epsilon = " .. self:num(0, 1)
  elseif combiner == "reciprocal" then
    if self:chance(0.2) then kids = {} end -- avoidance alone
    for _, f in ipairs(RECIPROCAL) do
      if self:chance(0.3) then
        local range = type(f[2]) == "table" and f[2]
        kids[#kids + 1] = f[1] .. " = " .. (range and self:num(range[1], range[2]) or self:field(f[2]))
      end
    end
  end
  return "steer." .. combiner .. "{ " .. table.concat(kids, ", ") .. " }"
end

function G:spawn_desc()
  local parts = { "position = " .. self:vec() }
  local opt = {
    { "velocity", function() return self:vec() end },
    { "mass", function() return self:num(0, 5) end },
    { "max_speed", function() return self:num(0, 10) end },
    { "max_force", function() return self:num(0, 20) end },
    { "radius", function() return self:num(0, 3) end },
    { "brain", function() return self:chance(0.5) and self:ref("B") or self:brain(3) end },
    { "tag", function() return self:pick({ '"a"', '"b"', '"red"', "1" }) end },
    { "target", function() return self:target() end },
    { "data", function() return self:pick({ "{ n = 1 }", "{}", "5" }) end },
    { "think", function() return self:think_fn() end },
    { "think_hz", function() return self:num(0, 100) end },
  }
  for _, o in ipairs(opt) do
    if self:chance(0.35) then parts[#parts + 1] = o[1] .. " = " .. o[2]() end
  end
  -- a craft, or the craft fields on their own (refused)
  local craft = self:chance(0.25)
  if craft or self:chance(self.hostility) then
    parts[#parts + 1] = "model = " .. (craft and '"craft"' or self:pick({ '"point"', '"tank"' }))
    parts[#parts + 1] = "min_turn_radius = " .. self:num(0.5, 10)
    if self:chance(0.4) then parts[#parts + 1] = "min_speed = " .. self:num(0, 1) end
    if self:chance(0.3) then parts[#parts + 1] = "max_turn_accel = " .. self:num(0, 10) end
  end
  return "{ " .. table.concat(parts, ", ") .. " }"
end

-- Think functions and event handlers: they edit the world from inside it.
function G:think_fn()
  local r = self.rand(8)
  if r == 0 then return "function(a, dt) rt.remove(a) end" end
  if r == 1 then return "function(a, dt) rt.spawn(a.world, { position = { a:xy() } }) end" end
  if r == 2 then return "function(a, dt) a.brain = B[" .. self:int(1, 8) .. "] end" end
  if r == 3 then return "function(a, dt) a.target = A[" .. self:int(1, 8) .. "] end" end
  if r == 4 then return "function(a, dt) error('think boom') end" end
  if r == 5 then return "function(a, dt) a.max_speed = " .. self:num(0, 5) .. " end" end
  if r == 6 then return "function(a, dt) for o in a.world:agents() do if o ~= a then rt.remove(o) break end end end" end
  return "function(a, dt) a.data.n = (a.data.n or 0) + 1 end"
end

local AGENT_FIELDS = {
  { "position", "v" }, { "velocity", "v" }, { "heading", "v" }, { "max_speed", "n" }, { "max_force", "n" },
  { "radius", "n" }, { "mass", "n" }, { "tag", "s" }, { "target", "t" }, { "min_turn_radius", "n" },
  { "min_speed", "n" }, { "max_turn_accel", "n" }, { "think_hz", "n" }, { "data", "any" },
  { "model", { "point", "craft" } }, { "record", "b" },
}

function G:map()
  local w, h = self:int(0, 12), self:int(0, 8)
  if self:chance(0.1) then w = 64 end
  local rows = {}
  for j = 1, h do
    local row = {}
    local len = self:chance(0.05) and self:int(0, 14) or w
    for i = 1, len do row[i] = self:pick({ ".", ".", ".", ".", "#", "#", "1", "9", self:chance(self.hostility) and "x" or "." }) end
    rows[j] = '"' .. table.concat(row) .. '"'
  end
  if self:chance(0.05) then rows[#rows + 1] = "5" end
  return "{" .. table.concat(rows, ", ") .. "}"
end

function G:costs_fn()
  local r = self.rand(7)
  if r == 0 then return "function(i, j, c) MAP[2] = {} return 1 end" end
  if r == 1 then return 'function(i, j, c) MAP[1] = "." return 1 end' end
  if r == 2 then return "function(i, j, c) return 0/0 end" end
  if r == 3 then return "function(i, j, c) return false end" end
  if r == 4 then return "function(i, j, c) error('cost') end" end
  if r == 5 then return "function(i, j, c) return " .. self:num(0, 5) .. " end" end
  return "{ { 1, 2 }, { 3 } }"
end

-- One statement: a line of its own.
function G:statement()
  local r = self.rand(100)
  local a, b = self:ref("A"), self:ref("B")
  if r < 14 then
    return string.format("A[%d] = rt.spawn(%s, %s)", self:int(1, 8), self:ref("W"), self:spawn_desc())
  elseif r < 20 then
    return string.format("A[%d] = rt.spawn(%s, %s, %s)", self:int(1, 8), self:ref("W"), self:ref("R"), self:spawn_desc())
  elseif r < 32 then
    return string.format("B[%d] = %s", self:int(1, 8), self:brain(3))
  elseif r < 44 then
    return string.format("rt.step(%s, %s)", self:ref("W"), self:pick({ "1", "2", "5", "10", "30", "60", "0", "-1", "0/0" }))
  elseif r < 54 then
    local f = self:pick(AGENT_FIELDS)
    local v = f[2] == "any" and self:any() or self:field(f[2])
    if f[1] == "record" then return string.format("%s.record = %s", self:ref("W"), v) end
    return string.format("%s.%s = %s", a, f[1], v)
  elseif r < 58 then
    return string.format("%s.brain = %s", a, b)
  elseif r < 60 then
    return string.format("rt.remove(%s)", a)
  elseif r < 63 then
    return string.format("rt.contributions(%s)", a)
  elseif r < 66 then
    local shape = self.rand(5)
    local w = self:ref("W")
    if shape == 0 then return string.format("S[#S + 1] = %s:add_obstacle{ position = %s, radius = %s }", w, self:vec(), self:num(0, 5)) end
    if shape == 1 then return string.format("S[#S + 1] = %s:add_wall{ from = %s, to = %s }", w, self:vec(), self:vec()) end
    if shape == 2 then return string.format("S[#S + 1] = %s:add_plane{ point = %s, normal = %s }", w, self:vec(3), self:vec(3)) end
    if shape == 3 then return string.format("S[#S + 1] = %s:add_box{ min = %s, max = %s }", w, self:vec(), self:vec()) end
    return string.format("%s:remove_shape(S[%d])", w, self:int(1, 4))
  elseif r < 70 then
    return string.format("rt.touch(%s:neighbors(%s, %s, %s))", self:ref("W"), self:vec(), self:num(0, 20),
      self:pick({ "nil", '"a"', "5" }))
  elseif r < 72 then
    return string.format("rt.touch(%s:raycast(%s, %s, %s))", self:ref("W"), self:vec(), self:vec(), self:num(0, 50))
  elseif r < 76 then
    return string.format("MAP = %s; G[%d] = steer.grid{ cell = %s, origin = %s, map = MAP%s }", self:map(), self:int(1, 3),
      self:num(0, 3), self:vec(2), self:chance(0.4) and (", costs = " .. self:costs_fn()) or "")
  elseif r < 79 then
    local g = self:ref("G")
    local m = self.rand(8)
    if m == 0 then return string.format("F[%d] = %s:flow_field{ goal = %s }", self:int(1, 3), g, self:vec(2)) end
    if m == 1 then return string.format("F[%d] = %s:flow_field{ goals = %s }", self:int(1, 3), g, self:points()) end
    if m == 2 then return string.format("rt.touch(%s:path(%s, %s))", g, self:vec(2), self:vec(2)) end
    if m == 3 then return string.format("%s:set(%s, %s, %s)", g, self:num(-1, 13), self:num(-1, 9), self:any()) end
    if m == 4 then return string.format("%s:block(%s, %s)", g, self:vec(2), self:pick({ "true", "false", "2" })) end
    if m == 5 then return string.format("%s:add_grid(%s)", self:ref("W"), g) end
    if m == 6 then return string.format("%s:batch(function() %s:set(1, 1, false) end)", g, g) end
    return string.format("rt.touch(%s:line_of_sight(%s, %s))", g, self:vec(2), self:vec(2))
  elseif r < 81 then
    local f = self:ref("F")
    local m = self.rand(4)
    if m == 0 then return string.format("%s:set_goal(%s)", f, self:vec(2)) end
    if m == 1 then return string.format("%s:set_goals(%s)", f, self:points()) end
    if m == 2 then return string.format("rt.touch(%s:direction(%s))", f, self:vec(2)) end
    return string.format("rt.touch(%s:distance(%s))", f, self:vec(2))
  elseif r < 84 then
    local parts = { 'name = "' .. self:pick({ "z", "y", "x" }) .. '"' }
    if self:chance(0.7) then
      parts[#parts + 1] = string.format("vehicle = { max_speed = %s, max_force = %s, radius = %s, mass = %s }",
        self:num(0, 5), self:num(0, 5), self:num(0, 2), self:num(0, 3))
    end
    if self:chance(0.6) then parts[#parts + 1] = "brain = " .. self:brain(2) end
    if self:chance(0.3) then parts[#parts + 1] = "think = " .. self:think_fn() end
    if self:chance(0.2) then parts[#parts + 1] = "think_hz = " .. self:num(0, 50) end
    return string.format("R[%d] = steer.archetype{ %s }", self:int(1, 3), table.concat(parts, ", "))
  elseif r < 87 then
    local ev = self:pick({ '"arrive"', '"collide"', '"stuck"', '"lost_target"', '"bogus"' })
    return string.format("%s:on(%s, %s)", self:ref("W"), ev, self:think_fn():gsub("%(a, dt%)", "(a, other)"))
  elseif r < 89 then
    return string.format("rt.touch(%s:hash(), %s.count, %s:force())", self:ref("W"), self:ref("W"), a)
  elseif r < 91 then
    return string.format("rt.touch(steer.directed_seek_plan(%s, %s))", a, b)
  elseif r < 93 then
    return string.format("rt.touch(%s:agents(%s))", self:ref("W"), self:pick({ "nil", '"a"', "1" }))
  elseif r < 94 then
    return string.format("rt.touch(%s + %s, %s:len(), %s:normalized())", self:vec(), self:vec(),
      "steer.vec(" .. self:num() .. ", " .. self:num() .. ")", "steer.vec(" .. self:num() .. ", 0)")
  elseif r < 95 then
    return string.format("rt.save(%s)", self:ref("W"))
  elseif r < 96 then
    return string.format("W[%d] = %s", self:int(2, 3), self:world_desc())
  elseif r < 97 then
    if self:chance(0.5) then -- a snapshot of an older version, loaded or restored into a world
      local into = self:chance(0.3) and self:ref("W") or "nil"
      return string.format("W[%d] = rt.old_snapshot(1, %s)", self:int(1, 3), into)
    end
    return string.format("rt.snapshot(%s, %s)", self:ref("W"), self:pick({ "true", "false" }))
  elseif r < 98 then
    return string.format("rt.restore(%s)", self:ref("W")) -- in place, at a random later moment
  elseif r < 99 then
    return string.format("%s.think = %s", a, self:think_fn())
  else -- a formation: members, shape, anchor
    local f = self:ref("O")
    local m = self.rand(8)
    if m == 0 then return string.format("%s:add(%s)", f, a) end
    if m == 1 then return string.format("%s:remove(%s)", f, a) end
    if m == 2 then
      return string.format("%s.pattern = %s", f, self:pick({ '"line"', '"column"', '"wedge"', '"circle"', '"box"', '"blob"',
        "function(i, n) return -i, i - n / 2 end", "function(i) return i end", "function() return 0/0, 1 end" }))
    end
    if m == 3 then return string.format("%s.target = %s", f, self:chance(0.2) and "nil" or self:vec()) end
    if m == 4 then return string.format("%s.leader = %s", f, self:chance(0.2) and "nil" or a) end
    if m == 5 then return string.format("%s.spacing = %s", f, self:num(0, 5)) end
    if m == 6 then return string.format("%s.position, %s.heading = %s, %s", f, f, self:vec(), self:vec()) end
    return string.format("rt.touch(%s:members(), %s:slot(), %s.position, %s.velocity)", f, a, f, f)
  end
end

function G:world_desc()
  local parts = { "dim = " .. (self:chance(1 - self.hostility) and tostring(self.dim) or self:any()) }
  if self:chance(0.7) then
    local v = {}
    for i = 1, self.dim do v[i] = self:num(0, 100) end
    parts[#parts + 1] = "size = { " .. table.concat(v, ", ") .. " }"
  end
  if self:chance(0.3) then parts[#parts + 1] = "wrap = " .. self:pick({ "true", "false" }) end
  if self:chance(0.5) then parts[#parts + 1] = "seed = " .. tostring(self:int(0, 99)) end
  if self:chance(0.4) then parts[#parts + 1] = "collide = " .. self:pick({ "true", "false", "{ iterations = 3 }", "{ iterations = 99 }" }) end
  if self:chance(0.2) then parts[#parts + 1] = "stuck = { window = " .. self:num(0, 3) .. " }" end
  if self:chance(0.2) then
    parts[#parts + 1] = "dt = " .. (self:chance(self.hostility) and self:pick({ "0", "2", "-1", "0/0" }) or self:pick({ "1/60", "0.25", "1", "1e-6" }))
  end
  if self:chance(0.1) then parts[#parts + 1] = "record = false" end
  return "steer.world{ " .. table.concat(parts, ", ") .. " }"
end

-- The whole program: a prologue that fills the pools so that references
-- mostly name something, then statements, then a last check.
function gen.program(rand, max_statements)
  local self = setmetatable({ rand = rand }, G)
  self.dim = self:chance(0.75) and 2 or 3
  -- how often a value is one that breaks code: a few programs mostly valid
  -- (they reach deep states), a few mostly hostile
  self.hostility = self:pick({ 0.005, 0.02, 0.05, 0.15 })
  local D = self.dim
  local hostility = self.hostility
  self.hostility = 0
  local world = self:world_desc()
  local function v(...) return "{ " .. table.concat({ ... }, ", ", 1, D) .. " }" end
  local out = {
    "local steer, rt = require 'steer', ...",
    "local A, B, F, G, N, O, R, S, W, MAP = {}, {}, {}, {}, {}, {}, {}, {}, {}, nil",
    "rt.try(function() W[1] = " .. world .. " end)",
    "rt.try(function() W[2] = steer.world{ dim = " .. D .. ", size = " .. v(60, 60, 60) ..
      ", wrap = true, collide = true, seed = 2 } end)",
    "rt.try(function() W[3] = steer.world{ dim = " .. D .. ", collide = { iterations = 2 }, stuck = {} } end)",
    "rt.try(function() G[1] = steer.grid{ cell = 4, map = { '......', '.##...', '...1..', '......' } } end)",
    "rt.try(function() F[1] = G[1]:flow_field{ goal = { 2, 2 } } end)",
    "rt.try(function() F[2] = G[1]:flow_field{ goal = { 20, 10 } } end)",
    "rt.try(function() N[1] = steer.navmesh{ outline = { { -30, -30 }, { 30, -30 }, { 30, 30 }, { -30, 30 } }, " ..
      "obstacles = { { { -2, -2 }, { 2, -2 }, { 2, 2 }, { -2, 2 } } } } end)",
    "rt.try(function() O[1] = steer.formation{ pattern = 'wedge', target = { 20, 5 } } end)",
    "rt.try(function() O[2] = steer.formation{ pattern = function(i) return -i, i % 2 end, spacing = 1.5 } end)",
    "rt.try(function() R[1] = steer.archetype{ name = 'fuzz', vehicle = { max_speed = 2 }, brain = steer.wander{} } end)",
  }
  -- valid brains and agents first, so that references name something
  for i = 1, POOL_SIZE.B do out[#out + 1] = "rt.try(function() B[" .. i .. "] = " .. self:brain(2) .. " end)" end
  for i = 1, POOL_SIZE.A do
    out[#out + 1] = string.format("rt.try(function() A[%d] = rt.spawn(W[%d], { position = %s, velocity = %s, brain = B[%d] }) end)",
      i, i <= 5 and 1 or self:int(2, 3), v(self:plain_num(-20, 20), self:plain_num(-20, 20), self:plain_num(-20, 20)),
      v(self:plain_num(-2, 2), self:plain_num(-2, 2), self:plain_num(-2, 2)), self:int(1, POOL_SIZE.B))
  end
  out[#out + 1] = "rt.try(function() for i = 1, 5 do O[1]:add(A[i]) end end)"
  -- a crowd, so the neighbour passes, collisions and events have work
  out[#out + 1] = string.format("rt.try(function() for i = 1, %d do rt.spawn(W[%d], { position = { (i * 7.31) %% 40 - 20, " ..
    "(i * 3.17) %% 40 - 20%s }, velocity = { 1, 0%s }, radius = %s, brain = B[1 + i %% %d] }) end end)",
    self:int(0, 120), self:int(1, 3), D == 3 and ", (i * 1.93) % 40 - 20" or "", D == 3 and ", 0" or "",
    self:plain_num(0, 1.5), POOL_SIZE.B)
  self.hostility = hostility
  local n = self:int(1, max_statements or 60)
  for _ = 1, n do out[#out + 1] = "rt.try(function() " .. self:statement() .. " end)" end
  out[#out + 1] = "rt.try(function() rt.step(W[1], 3) end)"
  out[#out + 1] = "rt.finish(W)"
  return table.concat(out, "\n") .. "\n"
end

return gen
