-- SPDX-License-Identifier: MIT
-- snapshot_spec.lua — w:save() and steer.load(s): every demo, N ticks,
-- saved, loaded and stepped M ticks, gives the hash of N + M ticks without
-- the break, in this process and in a fresh one (this runner again, as a
-- child, STEER_SPEC); a loaded world saves to the same bytes; a.data keeps
-- its shared tables and cycles; and every way a save or a load can go
-- wrong raises a message that says what and where.
local steer = require "steer"
local spec = require "spec"
local demo = require "demo_run"
local describe, it, expect = spec.describe, spec.it, spec.expect

local root = demo.root
local run_demo = demo.run -- the demo's world after n engine ticks (step, then the scenario's update)
local child = os.getenv("STEER_SPEC")

-- patrol keeps its patrol brain in a.data: saved as a reference to the tree.
-- dogfighter's think assigns trees of a module's table (fighter's
-- M.brains): a load gives those brains the module's trees back, by name.
-- zombie_horde's think assigns trees of a cache keyed by its flow field:
-- w:same_brain finds the loaded world's copies of them.
local demos = demo.names
local N, M = 150, 90

local function quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local function write(path, s)
  local f = assert(io.open(path, "wb"))
  f:write(s)
  f:close()
end

-- In a fresh process: require the demo's module, load the snapshot, step
-- m ticks; returns the hash (or nil and the output).
local function fresh(name, snapshot, m)
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir " .. quote(dir)))
  write(dir .. "/snap.bin", snapshot)
  write(dir .. "/child_spec.lua", ([[
package.path = %q .. "/?.lua;" .. package.path
local steer = require "steer"
local spec = require "spec"
require("demos." .. %q)
spec.it("continues", function()
  local f = assert(io.open(%q, "rb"))
  local s = f:read("*a")
  f:close()
  local w = steer.load(s)
  print("RESAVED " .. tostring(w:save() == s))
  w:step(%d)
  print("HASH " .. w:hash())
end)
]]):format(root, name, dir .. "/snap.bin", m))
  local p = assert(io.popen(quote(child) .. " " .. quote(dir .. "/child_spec.lua") .. " 2>&1"))
  local out = p:read("*a")
  p:close()
  os.execute("rm -r " .. quote(dir))
  return out:match("HASH (%x+)"), out
end

describe("w:save and steer.load", function()
  it("have the child runner", function() expect(child, "STEER_SPEC"):type("string") end)

  for _, name in ipairs(demos) do
    it(name .. ": N ticks, save, load, M ticks is N + M ticks, here and in a fresh process", function()
      local w = run_demo(name, N)
      local s = w:save()
      expect(#s, "snapshot bytes"):gt(0)
      local loaded = steer.load(s)
      expect(loaded:hash(), "hash right after the load"):eq(w:hash())
      expect(loaded:save() == s, "save -> load -> save gives the same bytes"):truthy()
      w:step(M)
      loaded:step(M)
      expect(loaded:hash(), "in this process after M ticks"):eq(w:hash())
      local h, out = fresh(name, s, M)
      expect(h, "the child's hash; its output:\n" .. tostring(out)):eq(w:hash())
      expect(out, "the child saved the same bytes"):contains("RESAVED true")
    end)
  end

  it("keep a.data: values, shared subtables and cycles, and one brain value per tree", function()
    local w = steer.world{ seed = 2 }
    local brain = steer.seek{}
    local shared = { x = 1.5, tags = { "a", "b" } }
    local a = w:spawn{ brain = brain, target = { 5, 5 }, data = { n = 3, s = "text", flag = false, shared = shared } }
    a.data.again = shared
    a.data.self = a.data
    local b = w:spawn{ brain = brain, data = { other = shared } }
    local w2 = steer.load(w:save())
    local a2, b2
    for x in w2:agents() do
      if x.id == a.id then a2 = x elseif x.id == b.id then b2 = x end
    end
    local d = a2.data
    expect(d.n):eq(3)
    expect(d.s):eq("text")
    expect(d.flag):eq(false)
    expect(d.shared.x):eq(1.5)
    expect(d.shared.tags[2]):eq("b")
    expect(rawequal(d.shared, d.again), "a shared subtable stays shared"):truthy()
    expect(rawequal(d.self, d), "a cycle stays a cycle"):truthy()
    expect(rawequal(b2.data.other, d.shared), "and so between agents"):truthy()
    expect(a2.brain == b2.brain, "agents that shared a brain share one"):truthy()
    expect(a2.brain.kind):eq("seek")
  end)

  it("raise for a function in a.data, naming the agent and the key path", function()
    local w = steer.world{}
    w:spawn{}
    local a = w:spawn{ data = { path = { 1, 2, { fn = print } } } }
    local ok, err = pcall(function() w:save() end)
    expect(ok):eq(false)
    expect(err):contains("snapshot_spec.lua:", "steer.world:save: agent " .. a.id .. "'s a.data.path[3].fn: ",
      "a function cannot be saved")
  end)

  it("keep references in a.data: agents, trees, grids and flow fields of the world", function()
    local w = steer.world{ seed = 3 }
    local g = steer.grid{ map = { "....", ".#..", "...." }, cell = 1 }
    local lone = steer.grid{ map = { "...", "..." }, cell = 2 }
    local f = g:flow_field{ goal = g:center(4, 3) }
    local follow = steer.follow_flow{ field = f, name = "flow" }
    local spare = steer.blend{ { follow, 1 }, { steer.wander{}, 0.5 } } -- no agent's brain; shares follow
    local patrol = steer.seek{ name = "patrol" }
    local a = w:spawn{ brain = patrol, position = { 1, 1 } }
    local b = w:spawn{ brain = follow, position = { 2, 2 } }
    local gone = w:spawn{ position = { 3, 3 } }
    gone:remove()
    a.data = { patrol = patrol, again = patrol, spare = spare, friend = b, gone = gone, field = f, grid = g,
               lone = lone, list = { b, spare } }
    b.data = { spare = spare }
    w:step(5)
    local s = w:save()
    local w2 = steer.load(s)
    expect(w2:save() == s, "save -> load -> save gives the same bytes"):truthy()
    local a2, b2
    for x in w2:agents() do
      if x.id == a.id then a2 = x elseif x.id == b.id then b2 = x end
    end
    local d = a2.data
    expect(d.friend == b2, "an agent of the world is the loaded world's agent"):truthy()
    expect(d.friend.world == w2, "of the loaded world"):truthy()
    expect(d.gone.id):eq(gone.id)
    expect(d.gone.alive, "a stale handle stays stale"):eq(false)
    expect(rawequal(d.patrol, a2.brain), "a brain's tree is the brain again"):truthy()
    expect(rawequal(d.again, d.patrol), "and one value"):truthy()
    expect(d.spare.kind):eq("blend")
    expect(rawequal(d.spare, b2.data.spare), "a tree that is no brain, shared between agents"):truthy()
    expect(rawequal(d.list[2], d.spare)):truthy()
    expect(b2.brain.kind):eq("follow_flow")
    expect(d.field.grid == d.grid, "the field is on the grid"):truthy()
    expect(d.lone:cost(1, 1), "a grid the world does not otherwise save is saved"):eq(lone:cost(1, 1))
    expect(d.field:distance(g:center(1, 1))):eq(f:distance(g:center(1, 1)))
    w:step(20)
    w2:step(20)
    expect(w2:hash(), "the same steps after the load"):eq(w:hash())
    -- an agent of another world names the path
    local other = steer.world{}
    a.data = { foe = other:spawn{} }
    local ok, err = pcall(function() w:save() end)
    expect(ok):eq(false)
    expect(err):contains("snapshot_spec.lua:", "agent " .. a.id .. "'s a.data.foe: an agent of another world",
      "cannot be saved")
    -- functions and coroutines still raise with the agent and the key path
    a.data = { deep = { co = coroutine.create(function() end) } }
    ok, err = pcall(function() w:save() end)
    expect(ok):eq(false)
    expect(err):contains("agent " .. a.id .. "'s a.data.deep.co: a thread cannot be saved")
    a.data = { fn = print }
    ok, err = pcall(function() w:save() end)
    expect(ok):eq(false)
    expect(err):contains("agent " .. a.id .. "'s a.data.fn: a function cannot be saved")
    a.data = { file = io.stdout }
    ok, err = pcall(function() w:save() end)
    expect(ok):eq(false)
    expect(err):contains("agent " .. a.id .. "'s a.data.file: a userdata cannot be saved")
  end)

  it("keep a steer.vec in a.data as a new vec of the same components", function()
    local w = steer.world{}
    local v = steer.vec(1.5, -0.0, 3)
    local a = w:spawn{ data = { seen = v, again = v, flat = steer.vec(2, 4) } }
    local s = w:save()
    local w2 = steer.load(s)
    expect(w2:save() == s, "save -> load -> save gives the same bytes"):truthy()
    local d
    for x in w2:agents() do if x.id == a.id then d = x.data end end
    expect(getmetatable(d.seen), "a steer.vec"):eq(getmetatable(v))
    expect(d.seen == v, "the same components"):truthy()
    expect(1 / d.seen.y, "-0.0 stays -0.0"):eq(-math.huge)
    expect(d.flat == steer.vec(2, 4)):truthy()
    expect(d.again == d.seen):truthy()
  end)

  it("give a brain the tree a table names back, when it is the same; keep the copy when it changed", function()
    local t = { brains = { go = steer.arrive{ target = { 4, 4 }, name = "go" } } }
    local w = steer.world{ seed = 5 }
    local a = w:spawn{ brain = t.brains.go, data = { mine = t.brains.go } }
    local other = steer.seek{ target = { 1, 1 } }
    w:spawn{ brain = other }
    w:step(10)
    local s = w:save{ roots = { t = t } }
    local w2 = steer.load(s, { roots = { t = t } })
    expect(w2:hash(), "the same hash"):eq(w:hash())
    expect(w2:save{ roots = { t = t } } == s, "the same bytes"):truthy()
    local a2, b2
    for x in w2:agents() do if x.id == a.id then a2 = x else b2 = x end end
    expect(rawequal(a2.brain, t.brains.go), "the table's tree is the brain again"):truthy()
    expect(rawequal(a2.data.mine, t.brains.go), "and a.data's reference to it"):truthy()
    expect(rawequal(b2.brain, other), "a tree nothing names is a copy"):eq(false)
    a2.brain = t.brains.go -- the think's assignment: the same brain, its memory kept
    w:step(10)
    w2:step(10)
    expect(w2:hash(), "after the same assignment"):eq(w:hash())
    local changed = { brains = { go = steer.arrive{ target = { 5, 4 }, name = "go" } } }
    local w3 = steer.load(s, { roots = { t = changed } })
    for x in w3:agents() do
      if x.id == a.id then expect(rawequal(x.brain, changed.brains.go), "a changed tree: the copy"):eq(false) end
    end
  end)

  it("w:same_brain finds the brain a tree is the same as, else gives the tree back", function()
    local w = steer.world{}
    local brain = steer.blend{ { steer.seek{ target = { 1, 2 } }, 1 }, { steer.wander{}, 0.5 }, name = "mix" }
    w:spawn{ brain = brain }
    local w2 = steer.load(w:save())
    local copy
    for x in w2:agents() do copy = x.brain end
    local again = steer.blend{ { steer.seek{ target = { 1, 2 } }, 1 }, { steer.wander{}, 0.5 }, name = "mix" }
    expect(rawequal(w2:same_brain(again), copy), "the loaded brain"):truthy()
    local unlike = steer.blend{ { steer.seek{ target = { 1, 3 } }, 1 }, { steer.wander{}, 0.5 }, name = "mix" }
    expect(rawequal(w2:same_brain(unlike), unlike), "another tree: itself"):truthy()
    expect(rawequal(w:same_brain(brain), brain), "the brain's own tree: itself"):truthy()
    local ok, err = pcall(function() w:same_brain({}) end)
    expect(ok):eq(false)
    expect(err):contains("same_brain", "a behaviour tree")
  end)

  it("raise for a function that nothing names, saying where it is", function()
    local w = steer.world{}
    local a = w:spawn{ brain = steer.custom{ fn = function() return 0, 0 end, name = "spiral" } }
    local ok, err = pcall(function() w:save() end)
    expect(ok):eq(false)
    expect(err):contains("snapshot_spec.lua:", "agent " .. a.id .. "'s brain node 'spiral' (custom) holds a Lua function",
      "no archetype or module table holds")
    w = steer.world{}
    local t = w:spawn{ think = function() end }
    ok, err = pcall(function() w:save() end)
    expect(ok):eq(false)
    expect(err):contains("agent " .. t.id .. "'s think holds a Lua function")
  end)

  it("name functions by the tables in opts.roots, and need them again at load", function()
    local mine = { inner = { push = function() return 1, 0 end } }
    local w = steer.world{}
    w:spawn{ brain = steer.custom(mine.inner.push), max_speed = 2 }
    local s = w:save{ roots = { mine = mine } }
    local w2 = steer.load(s, { roots = { mine = mine } })
    w:step(10)
    w2:step(10)
    expect(w2:hash()):eq(w:hash())
    local ok, err = pcall(function() steer.load(s) end)
    expect(ok):eq(false)
    expect(err):contains("snapshot_spec.lua:", "steer.load: ", "'mine'")
    ok, err = pcall(function() steer.load(s, { roots = { mine = {} } }) end)
    expect(ok):eq(false)
    expect(err):contains("mine.inner.push is not a function")
  end)

  it("give agents their archetype back by name: as saved when unchanged, the new definition when redefined",
    function()
      local def = { name = "snap_spec", vehicle = { max_speed = 2 }, brain = steer.wander{} }
      local arch = steer.archetype(def)
      local w = steer.world{ seed = 4 }
      local a = w:spawn(arch, { position = { 1, 1 } })
      w:step(20)
      local s = w:save()
      local w2 = steer.load(s)
      w:step(20)
      w2:step(20)
      expect(w2:hash(), "unchanged: exactly as saved"):eq(w:hash())
      local registry = debug.getregistry()["steer.archetypes"]
      registry.snap_spec = nil
      local ok, err = pcall(function() steer.load(s) end)
      expect(ok):eq(false)
      expect(err):contains("snapshot_spec.lua:", "agent " .. a.id .. " was spawned from archetype 'snap_spec'",
        "not defined")
      local seek = steer.seek{}
      steer.archetype{ name = "snap_spec", vehicle = { max_speed = 3 }, brain = seek }
      local w3 = steer.load(s)
      w3:step(1)
      for x in w3:agents() do
        expect(x.brain, "the redefined brain"):eq(seek)
        expect(x.max_speed):eq(3)
      end
    end)

  it("w:restore rewinds in place: the same world value, the same bits, the handlers kept", function()
    local w = run_demo("flock", 40)
    local a = w:agents()() -- the first agent
    a.data = { laps = 1 }
    local s = w:save()
    w:step(30)
    local later = w:hash()
    a.data.laps = 99
    local extra = w:spawn{ position = { 1, 1 } }
    expect(w:restore(s), "returns the world itself"):eq(w)
    expect(extra.alive, "an agent spawned after the save is gone"):eq(false)
    expect(a.alive, "a handle taken before the save still works"):eq(true)
    expect(a.data.laps, "a.data as it was at the save"):eq(1)
    w:step(30)
    expect(w:hash(), "the replay gives the same bits"):eq(later)
    -- a bad snapshot raises and leaves the world as it was
    local before = w:hash()
    local ok, err = pcall(function() w:restore(s:sub(1, #s - 3)) end)
    expect(ok):eq(false)
    expect(err):contains("snapshot_spec.lua:", "truncated")
    expect(w:hash(), "unchanged after a refused restore"):eq(before)
    -- the handlers registered before the restore still fire
    local ww = steer.world{}
    local got = 0
    ww:on("arrive", function() got = got + 1 end)
    local saved = ww:save()
    ww:spawn{ brain = steer.arrive{ target = { 1, 0 }, stop_radius = 0.2 }, max_speed = 5, max_force = 50 }
    ww:restore(saved)
    ww:spawn{ brain = steer.arrive{ target = { 1, 0 }, stop_radius = 0.2 }, max_speed = 5, max_force = 50 }
    ww:step(120)
    expect(got, "the arrive handler survived the restore"):gt(0)
  end)

  -- Issue 29, item 2: the grids and flow fields the script holds are the
  -- restored world's (their twins: the same serial), not copies beside it.
  it("w:restore: the grids the script holds are the restored world's (saved again, their edits move its walls)",
     function()
    local w = steer.world{ size = { 20, 20 } }
    local g = steer.grid{ cell = 2, map = { "..........", "..........", "..........", "..........", ".........." } }
    w:add_grid(g)
    local a = w:spawn{ position = { 1, 1 }, data = { grid = g } }
    local s = w:save()
    g:block({ 1, 9 }) -- after the save: undone by the restore
    w:step(3)
    expect(w:restore(s):save() == s, "restored, then saved: the same bytes (its walls with it)"):eq(true)
    local later = steer.grid{ cell = 2, map = { ".." } } -- made and added after the save: not the restored world's
    w:add_grid(later)
    w:restore(s)
    expect(a.data.grid == g, "a.data's grid is the script's own"):eq(true)
    expect(g:blocked({ 1, 9 }), "the script's grid has the saved costs back"):eq(false)
    local function hit() return w:raycast({ 7, 5 }, { 1, 0 }, 4, { agents = false }) end
    expect(hit(), "no wall yet"):eq(nil)
    later:block({ 1, 1 })
    local again = steer.load(w:save())
    expect(#again:save() == #s, "a grid added after the save is not the restored world's"):eq(true)
    g:block({ 9, 5 })
    local h = hit()
    expect(h and h.shape ~= nil, "an edit of the script's grid moves the restored world's walls"):eq(true)
    expect(h.point.x):near(8, 1e-9)
    -- steer.load beside it makes copies of its own: edits of those change only the loaded world
    local copy = steer.load(s)
    local before = copy:save()
    g:set(2, 4, 5)
    expect(copy:save() == before, "the script's grid is not the copy's"):eq(true)
  end)

  -- The same script actions (goal moves and edits by tick) on a world that
  -- saved, ran on, restored and ran again, and on one that ran straight
  -- through: the same bits, so the restored world steers on the script's
  -- field and grid.
  it("w:restore: the script's flow field and grid steer the restored world (a rewind replays as uninterrupted)",
     function()
    local function build()
      local w = steer.world{ size = { 40, 40 }, seed = 5 }
      local map = {}
      for j = 1, 20 do map[j] = string.rep(".", 20) end
      map[10] = "..........######...."
      local g = steer.grid{ cell = 2, map = map }
      w:add_grid(g)
      local f = g:flow_field{ goal = { 35, 35 } }
      local follow = steer.follow_flow{ field = f, stop_radius = 1 }
      for i = 1, 12 do
        w:spawn{ position = { 3 * i, 4 }, max_speed = 4, max_force = 10, brain = follow }
      end
      return w, g, f
    end
    local function act(w, g, f, to)
      while w.tick < to do
        if w.tick == 20 then f:set_goal({ 5, 35 }) end
        if w.tick == 50 then g:block({ 13, 25 }) end
        if w.tick == 70 then f:set_goal({ 35, 30 }) end
        if w.tick == 90 then g:set(11, 10, 3) end
        w:step(1)
      end
    end
    local w, g, f = build()
    act(w, g, f, 40)
    local s = w:save()
    act(w, g, f, 100)
    local straight = w:hash()
    expect(w:restore(s).tick):eq(40)
    expect(f.goal.x, "the script's field has the saved goal back"):eq(5)
    act(w, g, f, 100)
    expect(w:hash(), "restored at 40 and run on to 100, as straight through"):eq(straight)
    -- and a second world, built the same way, run straight through
    local w2, g2, f2 = build()
    act(w2, g2, f2, 100)
    expect(w2:hash(), "another world straight through"):eq(straight)
    -- the agents follow the script's field: a goal moved now turns them
    w:restore(s):step(30)
    local unmoved = w:hash()
    w:restore(s)
    f:set_goal({ 35, 5 })
    w:step(30)
    expect(w:hash() ~= unmoved, "the moved goal steers the restored world's agents"):eq(true)
  end)

  it("w:restore: a handle to an agent spawned after the save stays stale, though the replay reissues its id",
     function()
    local w = steer.world{}
    local a = w:spawn{ position = { 1, 1 } }
    local s = w:save()
    local b = w:spawn{ position = { 2, 2 } }
    local b_id = b.id
    w:restore(s)
    local c = w:spawn{ position = { 3, 3 } }
    expect(c.id, "the replay's spawn takes the id again (the same bits as the first time)"):eq(b_id)
    expect(b.alive, "the old handle names no agent"):eq(false)
    expect(b == c, "nor is it equal to the new one"):eq(false)
    expect(b.id, "it keeps its id"):eq(b_id)
    local ok, err = pcall(function() return b.position end)
    expect(ok):eq(false)
    expect(err):contains("snapshot_spec.lua:", "stale handle")
    ok = pcall(function() b.max_speed = 9 end)
    expect(ok, "it changes nothing"):eq(false)
    expect(c.max_speed):eq(1)
    expect(a.alive and a == w:agents()(), "a handle taken before the save names its agent"):eq(true)
    -- saved in a.data, it stays stale after a load
    a.data = { old = b, new = c }
    local w2 = steer.load(w:save())
    local a2 = w2:agents()()
    expect(a2.data.old.alive, "a stale handle in a.data stays stale"):eq(false)
    expect(a2.data.new.alive):eq(true)
    -- and a restore of a restore: the handle stays stale
    w:restore(s)
    expect(b.alive):eq(false)
    expect(c.alive, "the new agent is not in the snapshot either"):eq(false)
    expect(w:spawn{}.id):eq(b_id)
    expect(c.alive, "its handle stays stale too"):eq(false)
    -- an agent removed before a save is not taken from its handles for good:
    -- restored to an earlier state where it lives, its handle names it
    local w3 = steer.world{}
    local x = w3:spawn{}
    local s1 = w3:save()
    x:remove()
    w3:restore(w3:save())
    expect(x.alive):eq(false)
    w3:restore(s1)
    expect(x.alive, "back with the state where it lives"):eq(true)
  end)

  it("w:restore: a restored tree that targets an agent belongs to the restored world", function()
    local w = steer.world{}
    local leader = w:spawn{ position = { 1, 1 } }
    w:spawn{ position = { 5, 5 }, brain = steer.seek{ target = leader } }
    w:step()
    w:restore(w:save())
    local br
    for a in w:agents() do if a.brain then br = a.brain end end
    local ok, err = pcall(function()
      return w:spawn{ position = { 3, 3 }, brain = steer.blend{ { br, 1 }, { steer.wander{}, 1 } } }
    end)
    expect(ok, "a brain made of the restored tree runs in its world: " .. tostring(err)):eq(true)
  end)

  it("load a snapshot of version 3 (flow fields bound by node), as 0.1 at e28028b saved it", function()
    -- tests/lua/data/snapshot-v3-flow.bin: a world of five agents on a
    -- grid's flow field (follow_flow alone and in a blend) and one arriving
    -- with an ease function named through package.loaded.v3_fixture, saved
    -- at tick 40; the saving run reached e8617313028a8a75 at tick 100
    package.loaded["v3_fixture"] = { ease = function(x) return x * x end }
    local f = assert(io.open(root .. "/tests/lua/data/snapshot-v3-flow.bin", "rb"))
    local s = f:read("*a")
    f:close()
    local w = steer.load(s)
    local kinds = {}
    for a in w:agents() do kinds[a.brain.kind] = (kinds[a.brain.kind] or 0) + 1 end
    expect(kinds.follow_flow):eq(2)
    expect(kinds.blend):eq(2)
    expect(kinds.arrive):eq(1)
    w:step(60)
    expect(w.tick):eq(100)
    expect(w:hash(), "the flow fields and the ease function are bound again"):eq("e8617313028a8a75")
    local again = steer.load(w:save())
    again:step(10)
    w:step(10)
    expect(again:hash(), "saved again in this build's format"):eq(w:hash())
    package.loaded["v3_fixture"] = nil
  end)

  it("refuse what is not an intact snapshot, naming what is wrong", function()
    local w = steer.world{}
    w:spawn{ data = { n = 1 } }
    local s = w:save()
    local function refuse(input, ...)
      local ok, err = pcall(function() steer.load(input) end)
      expect(ok, "refused"):eq(false)
      expect(err):contains("snapshot_spec.lua:", "steer.load: ", ...)
    end
    refuse("hello", "not a steer snapshot")
    refuse(s:sub(1, 12), "truncated")
    refuse(s:sub(1, #s - 1), "truncated")
    refuse(s .. "x", "bytes past its end")
    local mid = math.floor(#s / 2)
    refuse(s:sub(1, mid - 1) .. string.char((s:byte(mid) + 1) % 256) .. s:sub(mid + 1), "checksum mismatch")
    refuse(s:sub(1, 8) .. "\6\0\0\0" .. s:sub(13), "version 6")
    local ok, err = pcall(function() steer.load(42) end)
    expect(ok):eq(false)
    expect(err):contains("steer.load", "a snapshot")
    -- every shorter prefix is refused, none crashes
    for n = 0, #s - 1, 7 do expect((pcall(steer.load, s:sub(1, n))), "prefix of " .. n):eq(false) end
  end)
end)
