-- SPDX-License-Identifier: MIT
-- docs_spec.lua — every public name the bindings offer has a LuaLS
-- annotation in lua/steer/meta.lua and a line in docs/api.md, so a user
-- who finds a function by completion or in the reference finds it in both;
-- and every ```lua block of README.md and docs/api.md runs with the built
-- module, and every one of docs/mods.md runs as a mod, so the examples a
-- reader copies cannot rot.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local here = spec.root
local slurp = spec.read
local meta, api = slurp("lua/steer/meta.lua"), slurp("docs/api.md")

-- A method we cannot list from Lua (World and Agent use __index functions):
-- probed instead, so a name here that the bindings lack fails too.
local world_methods = { "step", "spawn", "agents", "neighbors", "hash", "on", "bytes", "add_obstacle",
  "add_wall", "add_plane", "add_box", "remove_shape", "raycast", "save", "restore", "same_brain" }
local agent_methods = { "xy", "vxy", "force", "remove", "contributions" }
local agent_fields = { "id", "alive", "position", "velocity", "heading", "up", "speed", "world", "tag", "brain",
  "max_speed", "max_force", "radius", "mass", "target", "data", "think", "think_hz", "kinematic" }

describe("the reference and the annotations", function()
  it("cover every function of the steer table", function()
    local names = {}
    for k, v in pairs(steer) do if type(v) == "function" then names[#names + 1] = k end end
    table.sort(names)
    expect(#names, "functions in steer"):gt(30)
    for _, k in ipairs(names) do
      expect(meta:find("function steer." .. k .. "(", 1, true) ~= nil, "meta.lua annotates steer." .. k):truthy()
      expect(api:find("steer." .. k, 1, true) ~= nil, "api.md mentions steer." .. k):truthy()
    end
  end)

  it("cover every behaviour and combiner kind", function()
    for _, k in ipairs(steer.kinds()) do
      expect(type(steer[k]), "steer." .. k .. " is a constructor"):eq("function")
    end
  end)

  it("cover the world's and the agent's methods and fields", function()
    local w = steer.world{}
    local a = w:spawn{}
    for _, m in ipairs(world_methods) do
      expect(type(w[m]), "w:" .. m .. " exists"):eq("function")
      expect(meta:find("function World:" .. m .. "(", 1, true) ~= nil, "meta.lua annotates w:" .. m):truthy()
      expect(api:find("w:" .. m, 1, true) ~= nil, "api.md mentions w:" .. m):truthy()
    end
    for _, m in ipairs(agent_methods) do
      expect(type(a[m]), "a:" .. m .. " exists"):eq("function")
      expect(meta:find("function Agent:" .. m .. "(", 1, true) ~= nil, "meta.lua annotates a:" .. m):truthy()
      expect(api:find("a:" .. m, 1, true) ~= nil, "api.md mentions a:" .. m):truthy()
    end
    for _, f in ipairs(agent_fields) do
      expect(meta:find("---@field " .. f .. " ", 1, true) ~= nil, "meta.lua annotates a." .. f):truthy()
      expect(api:find("`a." .. f .. "`", 1, true) ~= nil, "api.md lists a." .. f):truthy()
    end
  end)
end)

-- What the reference says a world does, it does: a brain no agent uses any
-- more is freed (steer.h's steer_world_uses_brain says so too), so fresh
-- brains every tick cost compilations, not memory.
describe("the performance rules", function()
  it("say what a world does with the brains no agent uses: frees them", function()
    local w = steer.world{ seed = 1 }
    local a = w:spawn{}
    local function fresh() return steer.blend{ { steer.seek{}, 1 }, { steer.wander{}, 0.5 } } end
    a.brain = fresh()
    w:step(10)
    local warm = w:bytes()
    for _ = 1, 500 do
      a.brain = fresh()
      w:step()
    end
    expect(w:bytes(), "bytes after 500 fresh brains (after one: " .. warm .. ")"):le(warm)
    local rule = api:match("Each distinct behaviour value assigned as a brain[^\n]*\n[^\n]*\n[^\n]*\n[^\n]*")
    expect(rule ~= nil, "api.md's rule on brains"):truthy()
    expect(rule:find("whole life", 1, true), "api.md's rule: " .. rule):eq(nil)
    expect(rule:find("freed", 1, true) ~= nil, "api.md's rule says unused brains are freed: " .. rule):truthy()
  end)
end)

-- A boid sees obstacles only: walls stop it only in a world with collide =
-- true (archetypes_spec shows both); the reference and the module say so.
describe("the boid archetype's docs", function()
  it("say that walls stop boids only in a world with collide = true", function()
    local row = api:match("\n(| `steer.archetypes.boid` |[^\n]*)")
    expect(row ~= nil, "api.md's row for the boid"):truthy()
    expect(row:find("collide = true", 1, true) ~= nil, "api.md's boid row names collide = true: " .. row):truthy()
    expect(slurp("lua/steer/archetypes/boid.lua"):find("collide = true", 1, true) ~= nil,
      "boid.lua's header names collide = true"):truthy()
  end)
end)

-- The ```lua blocks of a markdown text: { line = its first code line, code }.
local function lua_blocks(text, rel)
  local blocks, cur, n = {}, nil, 0
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    n = n + 1
    if cur then
      if line:match("^```") then
        cur.code = table.concat(cur.code, "\n")
        blocks[#blocks + 1] = cur
        cur = nil
      else
        cur.code[#cur.code + 1] = line
      end
    elseif line:match("^```lua%s*$") then
      cur = { line = n + 1, code = {} }
    end
  end
  assert(not cur, rel .. ": a ```lua block is not closed")
  return blocks
end

-- The reference shows many examples as fragments that lean on names defined
-- around them: a world `w`, an agent `a`, a point `goal`, a `leader` to
-- follow. Each block runs in an environment of its own whose prelude gives
-- those names (a block that makes its own shadows them); then the prelude's
-- world steps, so an event handler or brain the block set on it runs too.
local function prelude()
  local w = steer.world{ size = {200, 200}, seed = 1 }
  local leader = w:spawn{ position = {100, 100}, velocity = {1, 0}, max_speed = 2, max_force = 2 }
  local a = w:spawn{ position = {90, 100}, max_speed = 3, max_force = 3, target = {150, 150} }
  return setmetatable({ steer = steer, w = w, a = a, goal = steer.vec(150, 150), leader = leader },
    { __index = _G })
end

-- A block that shows errors puts each message on the line below the call
-- that raises it, after `--> `, as the user would see it from a script
-- named game.lua. Such a block runs as game.lua with each of those calls
-- wrapped in raises(), which checks the message to the letter.
local function with_raises(code)
  local lines = {}
  for line in (code .. "\n"):gmatch("([^\n]*)\n") do lines[#lines + 1] = line end
  for i = 1, #lines - 1 do
    local msg = lines[i + 1]:match("^%-%-> (.*)$")
    if msg then lines[i] = ("raises(function() %s end, %q)"):format(lines[i], msg) end
  end
  return table.concat(lines, "\n")
end

local function raises(f, msg)
  local ok, err = pcall(f)
  expect(ok, "raises " .. msg):falsy()
  expect(err, "the message"):eq(msg)
end

-- load with an environment, on Lua 5.1 and LuaJIT too (setfenv)
local function load_in(code, chunkname, env)
  if not setfenv then return load(code, chunkname, "t", env) end
  local chunk, err = loadstring(code, chunkname)
  return chunk and setfenv(chunk, env), err
end

-- One test per block, named by its file and line ("ok - ... README.md:26").
-- A block whose first line is `-- (not run)` is listed as skipped; the
-- comment goes on to say why: the bake's (docs/api.md), which needs a build
-- with Recast and a level's file.
describe("the Lua examples of README.md and docs/api.md", function()
  local ran = 0
  for _, rel in ipairs{ "README.md", "docs/api.md" } do
    for _, b in ipairs(lua_blocks(slurp(rel), rel)) do
      local name = rel .. ":" .. b.line
      if b.code:match("^%-%- %(not run%)") then
        print("skip - " .. name)
      else
        ran = ran + 1
        it("run: " .. name, function()
          local env = prelude()
          local code, chunkname = b.code, rel
          if code:find("\n%-%-> ") then
            code, chunkname, env.raises = with_raises(code), "game.lua", raises
          else -- blank lines first, so an error names the line of the markdown file
            code = ("\n"):rep(b.line - 1) .. code
          end
          local chunk, err = load_in(code, "=" .. chunkname, env)
          expect(chunk ~= nil, "compiles: " .. tostring(err)):truthy()
          chunk()
          env.w:step(10)
          expect(env.w.tick, "the prelude's world stepped"):eq(10)
        end)
      end
    end
  end
  it("ran the blocks (" .. ran .. ")", function()
    expect(ran, "```lua blocks run"):gt(4)
  end)
end)

-- docs/mods.md's blocks are mods: each is loaded as one, in the engine's
-- sandbox, by the steer program (STEER, as meson sets it; else build/steer,
-- for busted), beside demos/arrive.lua, whose agents raise "arrive" events.
-- A run ends with --save, which calls the mod's save(); a second run
-- --load's that snapshot, which hands the data to the mod's load(), and
-- saves again: what save() returns then must be what was saved, or the
-- state did not go back in. The block is wrapped so that save and load
-- print their data (a mod's print goes to the log as "[name] ...").
local WRAP = [[local mod = (function() %s
end)()
local function show(d)
  local keys = {}
  for k in pairs(d) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  for i, k in ipairs(keys) do keys[i] = k .. "=" .. tostring(d[k]) end
  return table.concat(keys, " ")
end
local save, load = mod.save, mod.load
if save then mod.save = function() local d = save(); print("saved " .. show(d)); return d end end
if load then mod.load = function(d) load(d); print("loaded " .. show(d)) end end
return mod
]]

local function steer_program()
  local path = os.getenv("STEER") or here .. "/build/steer"
  local f = io.open(path, "r")
  if not f then return nil end
  f:close()
  return path
end

local function sh_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

-- `steer run --headless ARGS demos/arrive.lua`: what it printed, stdout and stderr.
local function steer_run(program, args)
  local p = assert(io.popen(("%s run --headless %s %s 2>&1"):format(sh_quote(program), args,
    sh_quote(here .. "/demos/arrive.lua"))))
  local out = p:read("*a")
  p:close()
  return out
end

describe("the Lua examples of docs/mods.md, loaded as mods", function()
  local program = steer_program()
  for _, b in ipairs(lua_blocks(slurp("docs/mods.md"), "docs/mods.md")) do
    local name = "docs/mods.md:" .. b.line
    if not program then
      print("skip - " .. name .. " (no steer program: set STEER or build into build/)")
    else
      it("mod: " .. name, function()
        local base = os.tmpname()
        local mod, snap = base .. "_mod.lua", base .. ".snapshot"
        local f = assert(io.open(mod, "w"))
        f:write(WRAP:format(b.code))
        f:close()
        local first = steer_run(program, ("--ticks 600 --mod %s --save %s"):format(sh_quote(mod), sh_quote(snap)))
        local second = steer_run(program, ("--ticks 0 --load %s --mod %s --save %s"):format(sh_quote(snap),
          sh_quote(mod), sh_quote(snap .. "2")))
        for _, path in ipairs{ base, mod, snap, snap .. "2" } do os.remove(path) end
        expect(first:find("disabled", 1, true), "the mod runs 600 ticks: " .. first):falsy()
        expect(second:find("disabled", 1, true), "the mod runs after a load: " .. second):falsy()
        local saved = first:match("%] saved ([^\n]*)")
        if b.code:find("save = function", 1, true) then
          expect(saved ~= nil, "save() ran at --save: " .. first):truthy()
          expect(second:match("%] loaded ([^\n]*)"), "load() got the saved data"):eq(saved)
          expect(second:match("%] saved ([^\n]*)"), "save() after the load gives it again"):eq(saved)
        end
        if saved and saved:match("^seen=") then -- the example that counts arrivals
          expect(tonumber(saved:match("^seen=(%d+)$")), "arrivals on_event counted"):gt(0)
        end
      end)
    end
  end
end)
