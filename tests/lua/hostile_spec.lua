-- SPDX-License-Identifier: MIT
-- hostile_spec.lua — scripts that try to break the host (issue 14): huge
-- and tiny numbers, callbacks that edit what the C side is reading, empty
-- worlds, brains with thousands of nodes of one name. None may crash, hang,
-- put NaN or infinity into the world or lose an agent; a bad value gets an
-- error that names the function and the field, states the accepted range
-- and points at the script's line.
--
-- Run it in the sanitizer build too: the grid callbacks and the empty
-- world's neighbours were memory and undefined-behaviour errors there.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect
local unpack = table.unpack or unpack -- Lua 5.1 and LuaJIT have only the global

-- Every agent's position and velocity are finite numbers.
local function expect_finite(w, what)
  for a in w:agents() do
    local x, y = a:xy()
    local vx, vy = a:vxy()
    for _, v in ipairs{ x, y, vx, vy } do
      if not (v == v and math.abs(v) < math.huge) then
        spec.fail(what .. ": agent " .. a.id .. " is at " .. tostring(a.position) .. " moving " .. tostring(a.velocity))
      end
    end
  end
end

describe("huge radii in a collide world (item 1)", function()
  it("are refused beyond 1e30 with the range, and agents at the limit collide and stay finite", function()
    local w = steer.world{ collide = true }
    expect(function() w:spawn{ position = { 0, 0 }, radius = 3e38 } end):raises_here("steer.world:spawn",
      "field 'radius' expected 0 or a number >= 1e-6 and <= 1e30", "3e+38")
    w:spawn{ position = { 0, 0 }, radius = 1e30 }
    w:spawn{ position = { 0, 0 }, radius = 1e30 }
    -- at the float limit the pushes of 39 neighbours would overflow: such an agent stays put
    for _ = 1, 40 do w:spawn{ position = { 3.4028234e38, 0 }, radius = 1e30 } end
    w:step(1)
    w:step(3)
    expect(w.count, "agents"):eq(42)
    expect_finite(w, "after colliding")
  end)
end)

describe("a grid's costs function (item 2)", function()
  it("may edit the map while the grid is built: the grid keeps the map it was given", function()
    local map = { "....", "..#.", "...." }
    local g = steer.grid{ map = map, costs = function() map[2] = {}; return 2 end }
    expect(g:cost(3, 2), "the wall of the map as given"):eq(math.huge)
    expect(g:cost(1, 2), "a cost from the function"):eq(2)
    local row = string.rep(".", 64)
    local long = { row, row, row }
    g = steer.grid{ map = long, costs = function(i) long[2] = "."; long[3] = nil; return i end }
    expect(g.width, "width"):eq(64)
    expect(g.height, "height"):eq(3)
    expect(g:cost(64, 3), "the last cell"):eq(64)
  end)
end)

describe("a grid edited after one of its flow fields or worlds was collected (steer-fuzz seed 8604)", function()
  it("skips the freed field; the live ones follow the edit", function()
    local g = steer.grid{ map = { "....", "....", "...." } }
    local live = g:flow_field{ goal = g:center(4, 3) }
    do local _ = g:flow_field{ goal = g:center(1, 1) } end
    -- the collected field's __gc ran; its key stays in the grid's weak
    -- table until the next cycle, and an edit walks that table
    collectgarbage()
    g:block(g:center(3, 3), true)
    expect(g:blocked(g:center(3, 3)), "the edited cell"):eq(true)
    local d = live:direction(g:center(2, 3))
    expect(d.x == d.x and d.y == d.y, "a finite direction from the live field"):eq(true)
  end)
  it("skips the freed world; the live one gets the new walls", function()
    local g = steer.grid{ map = { "....", "....", "...." } }
    local w = steer.world{}
    w:add_grid(g)
    do steer.world{}:add_grid(g) end
    collectgarbage()
    g:block(g:center(3, 3), true)
    local hit = w:raycast(g:center(1, 3), { 1, 0 }, 10)
    expect(hit ~= nil, "a ray into the new wall"):eq(true)
  end)
end)

describe("an empty world (item 3)", function()
  it("has no neighbours anywhere, with or without a tag", function()
    local w = steer.world{}
    expect(#w:neighbors({ 0, 0 }, 1), "neighbours"):eq(0)
    expect(#w:neighbors({ 0, 0 }, 1e300, "x"), "tagged neighbours"):eq(0)
    local a = w:spawn{}
    a:remove()
    expect(#w:neighbors({ 0, 0 }, 10), "after a removal"):eq(0)
    w:step()
    expect(#w:neighbors({ 0, 0 }, 10), "after a step"):eq(0)
  end)
end)

-- A blend of n copies of the behaviour b.
local function blend_of(n, b)
  local list = {}
  for i = 1, n do list[i] = b end
  return steer.blend(list)
end

describe("a:contributions() (item 4)", function()
  it("lists every node of a 61k-node brain whose nodes share one name", function()
    local s = steer.seek{ target = { 1, 0 } }
    local w = steer.world{}
    local a = w:spawn{ brain = blend_of(39, blend_of(39, blend_of(39, s))) }
    w:step()
    local c = a:contributions()
    local n = 0
    for _ in pairs(c) do n = n + 1 end
    expect(n, "entries"):eq(1 + 39 + 39 * 39 + 39 * 39 * 39)
    expect(c["seek#59319"] ~= nil, "the last seek is seek#59319"):truthy()
    expect(c["seek#59320"], "no more seeks"):eq(nil)
  end)

  it("keeps names of any length apart (a cut key used to repeat forever)", function()
    local long = string.rep("x", 300)
    local w = steer.world{}
    local brain = steer.blend{ steer.seek{ name = long }, steer.seek{ name = long }, steer.seek{ name = long .. "#2" } }
    local a = w:spawn{ brain = brain }
    w:step()
    local c = a:contributions()
    local n = 0
    for _ in pairs(c) do n = n + 1 end
    expect(n, "entries: the blend and its three seeks"):eq(4)
    expect(c[long] ~= nil and c[long .. "#2"] ~= nil, "the two of one name"):truthy()
    expect(c[long .. "#2#2"] ~= nil, "the node named ...#2 moved on"):truthy()
  end)
end)

describe("an archetype's vehicle (item 10)", function()
  it("is checked by spawn's own rules and messages", function()
    local w = steer.world{}
    for _, bad in ipairs{ { "max_speed", 1e-300 }, { "mass", 1e-39 }, { "radius", 3.4e38 }, { "max_force", -1 },
                          { "min_turn_radius", 1e-300 } } do
      local field, v = bad[1], bad[2]
      local vehicle = { model = "craft", min_turn_radius = 1 }
      vehicle[field] = v
      local spawn_msg = expect(function() w:spawn(vehicle) end)
        :raises("steer.world:spawn: field '" .. field .. "' expected")
      local arch_msg = expect(function() steer.archetype{ name = "z", vehicle = vehicle } end)
        :raises("steer.archetype: field 'vehicle': field '" .. field .. "' expected")
      expect(arch_msg:match("field '" .. field .. "' expected.*$"), field .. ": the same message")
        :eq(spawn_msg:match("field '" .. field .. "' expected.*$"))
    end
    expect(w.count, "no agent from the failed spawns"):eq(0)
  end)

  it("defined again with a brain its agents cannot take raises once, at the caller's line", function()
    local w, elsewhere = steer.world{}, steer.world{}
    local other = elsewhere:spawn{}
    local z = steer.archetype{ name = "hostile_z", vehicle = { max_speed = 1 } }
    local a = w:spawn(z)
    steer.archetype{ name = "hostile_z", vehicle = { max_speed = 2 }, brain = steer.seek{ target = other } }
    expect(function() w:step() end):raises_here("steer.world:step", "hostile_z", "another world")
    w:step()
    w:step()
    expect(w.tick, "ticks"):eq(2)
    expect(w.count, "agents"):eq(1)
    expect(a.alive, "the agent"):truthy()
  end)
end)

describe("steer.follow_flow and steer.decompose_flow (item 11)", function()
  it("raise at the script's line and list 'field' among the accepted names", function()
    local g = steer.grid{ map = { "...", "..." } }
    local f = g:flow_field{ goal = { 0.5, 0.5 } }
    for _, k in ipairs{ "follow_flow", "decompose_flow" } do
      expect(function() steer[k]{ feild = f } end):raises_here("steer." .. k, "unknown field 'feild'", "field")
      expect(expect(function() steer[k]{ feild = f } end):raises("expected one of"), k):matches("[:,] field[,)]")
      expect(function() steer[k]{} end):raises_here("steer." .. k, "field 'field' expected a flow field")
      expect(function() steer[k]{ field = 3 } end)
        :raises_here("steer." .. k, "field 'field' expected a flow field", "3")
    end
    expect(function() steer.follow_flow{ field = f, speed = -1 } end):raises_here("steer.follow_flow",
      "field 'speed'", "0 or a number >= 1e-6 and <= 1e30", "-1")
    expect(function() steer.decompose_flow{ field = f, lookahead = 0 } end):raises_here("steer.decompose_flow",
      "field 'lookahead'", ">= 1 and <= 1024")
  end)
end)

-- The field names of a kind, from its "unknown field" error.
local function fields_of(kind, args)
  args.zz_no_such_field = 1
  local ok, msg = pcall(steer[kind], args)
  args.zz_no_such_field = nil
  assert(not ok, kind .. " accepted an unknown field")
  local list = assert(msg:match("expected one of: ([^)]*)%)"), msg)
  local names = {}
  for name in list:gmatch("[%w_]+") do names[#names + 1] = name end
  return names
end

describe("number fields (item 12)", function()
  it("refuse a float's range beyond 1e30 saying so, not contradicting themselves", function()
    expect(function() steer.seek{ speed = 3.4e38 } end):raises_here("steer.seek", "field 'speed'",
      "expected 0 or a number >= 1e-6 and <= 1e30 (0 = the agent's max_speed)", "3.4e+38")
    local w = steer.world{}
    for _, field in ipairs{ "max_speed", "max_force", "radius" } do
      for _, v in ipairs{ 1e-39, 1e-300, 5e-7 } do
        expect(function() w:spawn{ [field] = v } end):raises_here("steer.world:spawn", "field '" .. field .. "'",
          "0 or a number >= 1e-6 and <= 1e30")
      end
    end
    expect(function() w:spawn{ mass = 1e-300 } end)
      :raises_here("steer.world:spawn", "field 'mass'", "a number >= 1e-6 and <= 1e30")
    local a = w:spawn{}
    expect(function() a.max_speed = 1e-300 end)
      :raises_here("steer.agent", "field 'max_speed'", "0 or a number >= 1e-6 and <= 1e30")
    expect(function() a.mass = 2e30 end):raises_here("steer.agent", "field 'mass'", "a number >= 1e-6 and <= 1e30")
    expect(w.count, "agents"):eq(1)
  end)

  it("of every kind accept exactly the range their message states, and steer finitely at its ends", function()
    local g = steer.grid{ map = { "....", ".#..", "...." } }
    local f = g:flow_field{ goal = { 0.5, 0.5 } }
    local base = { follow_flow = { field = f }, decompose_flow = { field = f } }
    local checked, zeros = 0, 0
    for _, kind in ipairs(steer.kinds()) do
      local function args(field, v)
        local t = { steer.seek{ target = { 1, 1 } } }
        local ok = pcall(steer[kind], t)
        if not ok then t = {} end -- a leaf: named fields only
        for k, x in pairs(base[kind] or {}) do t[k] = x end
        if field then t[field] = v end
        return t
      end
      for _, field in ipairs(fields_of(kind, args())) do
        local name = kind .. "." .. field
        local refused = "field '" .. field .. "' expected"
        local ok, msg = pcall(steer[kind], args(field, 3.4e38))
        local wanted = not ok and msg:find(refused, 1, true) and msg:match("expected (.-), got") or ""
        local what = wanted:gsub("^0 or ", "")
        if what:find("^a [%w ]*number") or what:find("^an angle") then
          local lo, hi = msg:match(">= ([%d%.e%+%-]+) and <= ([%d%.e%+%-]+)")
          lo, hi = tonumber(lo), tonumber(hi)
          if not (lo and hi) then spec.fail(name .. " does not state its range: " .. msg) end
          -- a field that takes 0 (which often means "the default") takes
          -- nothing between 0 and 1e-6, where a float would make it 0
          local zero = pcall(steer[kind], args(field, 0))
          local accept, refuse = { lo, hi }, { hi * 1.01 }
          if zero then
            zeros = zeros + 1
            if not wanted:find("^0 or ") or lo ~= 1e-6 then
              spec.fail(name .. " takes 0 but does not say \"0 or\" and 1e-6: " .. msg)
            end
            accept[#accept + 1] = 0
            for _, v in ipairs{ -1e-300, 1e-300, 1e-7, lo * 0.99 } do refuse[#refuse + 1] = v end
          else
            refuse[#refuse + 1] = lo > 0 and lo * 0.99 or lo * 1.01
          end
          for _, v in ipairs(accept) do
            local made, b = pcall(steer[kind], args(field, v))
            if not made and b:find(refused, 1, true) then spec.fail(name .. " refuses " .. v .. ": " .. b) end
            if made then
              local w = steer.world{ collide = true }
              w:add_obstacle{ position = { 3, 0 }, radius = 1 }
              local t = w:spawn{ position = { 2, 2 }, velocity = { 0, 1 } }
              for i = 1, 3 do
                local target = i == 1 and t or { 4, 1 }
                w:spawn{ position = { i * 0.3, 0 }, velocity = { 1, 0.2 }, brain = b, target = target }
              end
              w:step(10)
              expect_finite(w, kind .. "{ " .. field .. " = " .. v .. " }")
            end
          end
          for _, v in ipairs(refuse) do
            local made, b = pcall(steer[kind], args(field, v))
            if made or not b:find(refused, 1, true) then
              spec.fail(name .. " = " .. v .. " is outside " .. wanted .. " but " ..
                        (made and "accepted" or "refused with: " .. b))
            end
            if not made and not b:find(wanted, 1, true) then
              spec.fail(name .. " = " .. v .. " is refused with another range: " .. b)
            end
          end
          checked = checked + 1
        end
      end
    end
    expect(checked, "number fields checked"):gt(60)
    expect(zeros, "fields that take 0 checked"):gt(40)
  end)

  it("elsewhere that take 0 take nothing between 0 and 1e-6, and say so", function()
    local w = steer.world{}
    local craft = { model = "craft", min_turn_radius = 1, max_speed = 2 }
    local function with(t, k, v)
      local c = {}
      for key, x in pairs(t) do c[key] = x end
      c[k] = v
      return c
    end
    for _, v in ipairs{ 1e-300, 1e-7 } do
      for _, field in ipairs{ "max_speed", "max_force", "radius", "max_turn_accel", "min_speed" } do
        expect(function() w:spawn(with(craft, field, v)) end)
          :raises_here("steer.world:spawn", "field '" .. field .. "' expected 0 or a number")
        expect(function() steer.archetype{ name = "tiny", vehicle = with(craft, field, v) } end)
          :raises_here("steer.archetype", "field '" .. field .. "' expected 0 or a number")
      end
      local a = w:spawn(craft)
      for _, field in ipairs{ "max_speed", "max_force", "radius", "max_turn_accel", "min_speed" } do
        expect(function() a[field] = v end):raises_here("steer.agent", "field '" .. field .. "' expected 0 or a number")
      end
      expect(function() steer.world{ size = { 10, v } } end)
        :raises_here("steer.world", "field 'size' expected", "each 0 or a size >= 1e-6 and <= 1e30")
      for _, field in ipairs{ "speed", "dt" } do
        expect(function() steer.directed_seek_plan{ position = { 0, 0 }, direction = { 1, 0 },
          target = { 5, 5 }, heading = { 1, 0 }, min_turn_radius = 1, [field] = v } end)
          :raises_here("steer.directed_seek_plan", "field '" .. field .. "' expected 0 or a number", ">= 1e-6")
      end
      expect(function() steer.grid{ map = { "..." }, costs = { { 1, v, 1 } } } end)
        :raises_here("steer.grid", "field 'costs'", "expected a number >= 1e-6 and <= 1e30")
      local g = steer.grid{ map = { "..." } }
      expect(function() g:set(1, 1, v) end):raises_here("steer.grid:set", "expected a number >= 1e-6 and <= 1e30")
    end
    -- and 0 itself
    for _, field in ipairs{ "max_speed", "max_force", "radius", "max_turn_accel", "min_speed" } do
      expect(w:spawn(with(craft, field, 0))[field], field .. " = 0"):eq(0)
      steer.archetype{ name = "zero", vehicle = with(craft, field, 0) }
    end
    expect(steer.world{ size = { 10, 0 } }.count, "a world with an unbounded axis"):eq(0)
    -- and past the top of the range, which the message states
    for _, v in ipairs{ 1.0000001e30, 1e35, 3.4e38 } do
      expect(function() steer.world{ size = { v, 10 } } end)
        :raises_here("steer.world", "field 'size' expected", "<= 1e30")
    end
    expect(steer.world{ size = { 1e30, 10 } }.count, "a world 1e30 wide"):eq(0)
    expect(type(steer.directed_seek_plan{ position = { 0, 0 }, direction = { 1, 0 }, target = { 5, 5 },
      heading = { 1, 0 }, min_turn_radius = 1, speed = 0, dt = 0 }), "a plan at speed 0, dt 0"):eq("table")
  end)

  it("of the world, grids and shapes state their range too", function()
    local w = steer.world{}
    expect(function() steer.world{ stuck = { window = 1e300 } } end):raises_here("steer.world: field 'stuck'",
      "field 'window'", ">= 1e-6 and <= 1e30", "1e+300")
    expect(function() steer.grid{ map = { "..." }, cell = 1e-300 } end):raises_here("steer.grid", "field 'cell'",
      ">= 1e-6 and <= 1e30")
    expect(function() w:add_obstacle{ position = { 0, 0 }, radius = 1e300 } end)
      :raises_here("steer.world:add_obstacle",
      "field 'radius'", ">= 1e-6 and <= 1e30")
    expect(function() w:raycast({ 0, 0 }, { 1, 0 }, 1e300) end)
      :raises_here("steer.world:raycast", "(length)", "<= 3.4e38")
    expect(function() steer.directed_seek_plan{ position = { 0, 0 }, direction = { 1, 0 }, target = { 5, 5 },
      heading = { 1, 0 }, min_turn_radius = 1e-300 } end)
      :raises_here("steer.directed_seek_plan", "field 'min_turn_radius'", ">= 1e-6")
  end)
end)

describe("lists and vectors a binding takes (plain data)", function()
  it("are read raw: no __index or __len of the caller's runs for an element", function()
    local proxy = setmetatable({}, { __index = { x = 1, y = 2 } })
    expect(function() steer.seek{ target = proxy } end):raises_here("steer.seek", "field 'target'", "got a table")
    expect(function() steer.patrol{ points = { { 0, 0 }, proxy } } end)
      :raises_here("steer.patrol", "field 'points'", "point 2 is not a finite vector")
    local hidden = setmetatable({}, { __index = { { 0, 0 }, { 1, 1 } }, __len = function() return 2 end })
    expect(function() steer.patrol{ points = hidden } end)
      :raises_here("steer.patrol", "field 'points'", "a list of at least 2 points")
    local g = steer.grid{ map = { "....", "...." } }
    expect(function() g:flow_field{ goals = hidden } end)
      :raises_here("steer.grid:flow_field", "field 'goals'", "a non-empty list of vectors")
    -- a plain vector with a metatable of its own is still a vector
    local vec = setmetatable({ x = 1.5, y = 1.5 }, { __index = function() error("looked up") end })
    expect(g:flow_field{ goals = { vec } }:direction(vec), "a flow field to a plain goal"):ne(nil)
  end)

  -- A loop of a binding over a long list makes no call of its own; a stop
  -- hook (a mod's watchdog, lua.c's interrupt) acts only at a call. The
  -- binding runs in a coroutine whose call hook raises at the first call
  -- made inside it.
  local function stopped_inside(binding, ...)
    local args, n = { ... }, select("#", ...)
    local co = coroutine.create(function() binding(unpack(args, 1, n)) end)
    local inside = false
    debug.sethook(co, function()
      local f = debug.getinfo(2, "f").func
      if f == binding then inside = true elseif inside then error("stopped inside", 0) end
    end, "c")
    return select(2, coroutine.resume(co))
  end

  -- LuaJIT has one hook for the whole VM, not one per coroutine, so this
  -- cannot be watched there; the watchdog it serves is the engine's, on 5.4.
  local it_hooked = jit and function(name) print("skip - " .. name .. " (LuaJIT: hooks are not per coroutine)") end
    or it
  it_hooked("offer a stop hook a call while they run through long lists", function()
    local row, map = string.rep(".", 512), {}
    for j = 1, 512 do map[j] = row end
    expect(stopped_inside(steer.grid, { map = map }), "steer.grid, 512 x 512 cells"):eq("stopped inside")
    local points = {}
    for i = 1, 5000 do points[i] = { i % 4 + 0.5, 0.5 } end
    expect(stopped_inside(steer.patrol, { points = points }), "steer.patrol, 5000 points"):eq("stopped inside")
    local g = steer.grid{ map = { "....", "...." } }
    expect(stopped_inside(g.flow_field, g, { goals = points }), "g:flow_field, 5000 goals"):eq("stopped inside")
    local kids = {}
    for i = 1, 5000 do kids[i] = steer.seek{} end
    expect(stopped_inside(steer.priority, kids), "steer.priority, a table of 5000 entries"):eq("stopped inside")
    local w = steer.world{}
    local a = w:spawn{ brain = blend_of(20, blend_of(20, blend_of(20, kids[1]))) }
    w:step()
    expect(stopped_inside(a.contributions, a), "a:contributions, 8421 nodes"):eq("stopped inside")
    local over = {}
    for i = 1, 5000 do over["k" .. i] = i end
    expect(stopped_inside(w.spawn, w, steer.archetype{ name = "plain" }, over), "w:spawn, 5000 overrides")
      :eq("stopped inside")
  end)
end)

describe("snapshots of worlds that keep no behaviour memory", function()
  -- fuzz_api found it (tests/fuzz/corpus/api/api-crash-bcf66838...): a 3D
  -- world whose agents have no brain keeps no memory rows at all, and the
  -- loader's check of each agent's row added its offset to that NULL (UB
  -- that clang's UBSan reports; gcc's does not)
  it("save and load, agents and all", function()
    local w = steer.world{ dim = 3 }
    for i = 1, 5 do w:spawn{ position = { i, -i, 2 * i }, velocity = { 1, 0, -1 } } end
    w:step(3)
    local back = steer.load(w:save())
    expect(back.count, "agents after the load"):eq(5)
    expect(back:hash(), "hash after the load"):eq(w:hash())
  end)
end)
