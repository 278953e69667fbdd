-- SPDX-License-Identifier: MIT
-- api_rt.lua — what a generated program (api_gen.lua) runs its statements
-- through, and the promises it checks on the way:
--   * an error is a message that starts with the caller's file:line;
--   * after every step, every agent's position, velocity and heading are
--     finite and the world's count is the number of agents it iterates;
--   * no agent is lost: every agent spawned and not removed is alive;
--   * a snapshot (w:save) loads to the same hash and saves to the same
--     bytes again, and w:restore puts the world back to that hash;
--   * a snapshot an older version saved (tests/lua/data/) loads, and saved
--     again in this build's format loads to the same hash.
--   * w:restore at a later moment (rt.save, then rt.restore): the saved
--     hash, the agents removed since alive again, and a handle of an
--     agent spawned since stale for good (also once the replay spawns
--     agents with its id again).
-- A broken promise raises a Failure, which no rt.try swallows; steer-fuzz
-- reports it with the seed (and a crash or a hang is reported by the driver).
local rt = {}

local Failure = setmetatable({}, { __tostring = function() return "Failure" end })
Failure.__index = Failure
Failure.__tostring = function(f) return f.msg end
rt.Failure = Failure

local VERBOSE = os.getenv("STEER_FUZZ_VERBOSE")
local MAX_AGENTS = 3000 -- spawning handlers must not grow a program without end

local tracked = {} -- { agent = a, world = w } of every spawn (gone = true: a restore took it back)
local removed = setmetatable({}, { __mode = "k" }) -- world -> { [a.id] = true } removed through rt.remove
local removals = {} -- { id = a.id, world = w } of each, in order
local saves = setmetatable({}, { __mode = "k" }) -- world -> its last rt.save
rt.errors, rt.steps = 0, 0

function rt.fail(msg)
  error(setmetatable({ msg = msg }, Failure), 0)
end

local function is_failure(e) return getmetatable(e) == Failure end
rt.is_failure = is_failure

-- Run one statement. An error is fine (hostile input should raise), but it
-- must say where: "chunk:line: message".
function rt.try(f)
  local ok, err = pcall(f)
  if ok then return end
  if is_failure(err) then error(err, 0) end
  rt.errors = rt.errors + 1
  if VERBOSE then io.stderr:write("error: ", tostring(err), "\n") end
  if type(err) ~= "string" then
    rt.fail("an error that is not a message: " .. type(err) .. " " .. tostring(err))
  end
  if not err:find("^[^\n]-:%d+: ") then
    rt.fail("an error without file:line: " .. err)
  end
end

local function finite(...)
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    if type(v) ~= "number" or v ~= v or v == math.huge or v == -math.huge then return false end
  end
  return true
end

function rt.check(w)
  if type(w) ~= "userdata" then return end
  local n = 0
  for a in w:agents() do
    n = n + 1
    if not finite(a:xy()) then rt.fail(string.format("agent %d: position not finite: %s", a.id, tostring(a.position))) end
    if not finite(a:vxy()) then rt.fail(string.format("agent %d: velocity not finite: %s", a.id, tostring(a.velocity))) end
    local h = a.heading
    if not finite(h.x, h.y, h.z) then rt.fail(string.format("agent %d: heading not finite: %s", a.id, tostring(h))) end
  end
  if n ~= w.count then rt.fail(string.format("w.count is %d but w:agents() gives %d", w.count, n)) end
  for _, t in ipairs(tracked) do
    if t.world == w and t.gone and t.agent.alive then
      rt.fail(string.format("agent %d, taken back by a restore, is alive again", t.agent.id))
    elseif t.world == w and not t.gone and not (removed[w] and removed[w][t.agent.id]) and not t.agent.alive then
      rt.fail(string.format("agent %d was lost (never removed, no longer alive)", t.agent.id))
    end
  end
  local hash = w:hash()
  if type(hash) ~= "string" then rt.fail("w:hash() is not a string") end
end

function rt.spawn(w, a, b)
  if type(w) == "userdata" and w.count >= MAX_AGENTS then return nil end
  local agent
  if b ~= nil then agent = w:spawn(a, b) else agent = w:spawn(a) end
  tracked[#tracked + 1] = { agent = agent, world = w }
  return agent
end

function rt.remove(a)
  local w = a.world
  a:remove()
  removed[w] = removed[w] or {}
  removed[w][a.id] = true
  removals[#removals + 1] = { id = a.id, world = w }
end

function rt.step(w, n)
  local ok, err = pcall(function() w:step(n) end)
  rt.steps = rt.steps + 1
  rt.check(w)
  if not ok then error(err, 0) end
end

function rt.contributions(a)
  for name, f in pairs(a:contributions()) do
    if type(name) ~= "string" then rt.fail("contributions: a key that is not a name: " .. tostring(name)) end
    if not finite(f.x, f.y, f.z) then rt.fail("contributions: " .. name .. " is not finite: " .. tostring(f)) end
  end
end

-- Use query results: walk tables, call iterators a few times.
function rt.touch(...)
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    if type(v) == "table" then
      for _, x in pairs(v) do local _ = tostring(x) end
    elseif type(v) == "function" then
      for _ = 1, 3 do if v() == nil then break end end
    end
  end
end

-- A snapshot round trip. A save that raises (an unnamed function, a.data
-- that is not plain data) is an error like any other.
function rt.snapshot(w, restore)
  local s = w:save()
  local h = w:hash()
  local w2 = require("steer").load(s)
  if w2:hash() ~= h then rt.fail("steer.load(w:save()) gives another hash") end
  if w2:save() ~= s then rt.fail("save -> load -> save gives other bytes") end
  rt.check(w2)
  if restore then
    pcall(w.step, w, 2)
    w:restore(s)
    if w:hash() ~= h then rt.fail("w:restore(s) does not give the saved hash back") end
    rt.check(w)
  end
end

-- Snapshots saved by older versions of steer (tests/lua/data/): each must
-- load in this build; the loaded world then lives on as one of the
-- program's worlds (its statements spawn into it, step it, save it in this
-- build's format and load that again). `into`: restore it into that world
-- instead, in place (the world's earlier agents are gone then).
local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "tests/fuzz"
local FIXTURES = {
  -- 0.1 at e28028b, format version 3: flow fields bound by node, an ease function named by a module
  { file = "snapshot-v3-flow.bin", tick = 40, modules = { v3_fixture = { ease = function(x) return x * x end } } },
}
local fixture_bytes = {}

function rt.old_snapshot(k, into)
  local steer = require "steer"
  local fx = FIXTURES[1 + (k - 1) % #FIXTURES]
  for name, m in pairs(fx.modules) do package.loaded[name] = m end
  local s = fixture_bytes[fx.file]
  if not s then
    local f = io.open(here .. "/../lua/data/" .. fx.file, "rb")
    if not f then rt.fail("the fixture tests/lua/data/" .. fx.file .. " cannot be read") end
    s = f:read("*a")
    f:close()
    fixture_bytes[fx.file] = s
  end
  local ok, w = pcall(steer.load, s)
  if not ok then rt.fail("a snapshot of an older version (" .. fx.file .. ") does not load: " .. tostring(w)) end
  if w.tick ~= fx.tick then rt.fail(fx.file .. " loads at tick " .. tostring(w.tick)) end
  rt.check(w)
  local now = w:save()
  local again = steer.load(now)
  if again:hash() ~= w:hash() then rt.fail(fx.file .. " saved in this build's format loads to another hash") end
  if again:save() ~= now then rt.fail(fx.file .. ": save -> load -> save gives other bytes") end
  if into == nil then return w end
  -- the world's earlier agents are the fixture's now, or none: an id the
  -- fixture also holds names its agent (as any restore of another world's
  -- snapshot), so they are neither lost nor checked stale
  removed[into] = removed[into] or {}
  for _, t in ipairs(tracked) do
    if t.world == into then removed[into][t.agent.id] = true end
  end
  into:restore(s) -- may refuse (another dimension): an error like any other
  if into:hash() ~= w:hash() then rt.fail("w:restore of " .. fx.file .. " gives another hash than steer.load") end
  rt.check(into)
  return into
end

-- A save kept for a restore at a later moment (the last one of each world).
function rt.save(w)
  local s = w:save()
  saves[w] = { s = s, hash = w:hash(), spawned = #tracked, removed = #removals }
end

function rt.restore(w)
  local saved = saves[w]
  if not saved then return end
  w:restore(saved.s)
  if w:hash() ~= saved.hash then rt.fail("w:restore(s) at a later moment does not give the saved hash back") end
  for i = saved.spawned + 1, #tracked do
    local t = tracked[i]
    if t.world == w then
      t.gone = true
      if t.agent.alive then rt.fail(string.format("agent %d, spawned after the save, is alive after the restore", t.agent.id)) end
    end
  end
  for i = saved.removed + 1, #removals do -- removed since the save: back
    if removals[i].world == w then removed[w][removals[i].id] = nil end
  end
  rt.check(w)
end

function rt.finish(worlds)
  for _, w in pairs(worlds) do rt.check(w) end
end

return rt
