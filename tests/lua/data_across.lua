-- SPDX-License-Identifier: MIT
-- data_across.lua — a.data from Lua 5.4 on another Lua, and back
-- (tests/luaversions.sh). Lua 5.1 and LuaJIT hold every number as a double:
-- a load there refuses, naming its path, each number it cannot hold as
-- saved (an integer past 2^53, two keys that would become one, a float
-- with no fraction, which it would save back as an integer); everything
-- else loads and saves back to the same bytes. On 5.3 everything loads.
--   lua5.4 tests/lua/data_across.lua save DIR    -- the cases' snapshots
--   lua tests/lua/data_across.lua check DIR      -- load them here
--   lua tests/lua/data_across.lua make DIR       -- a snapshot made here
--   lua5.4 tests/lua/data_across.lua verify DIR  -- ... read back by 5.4
-- Exit status 0 when every check passed.
local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. here .. "/../../lua/?.lua;" .. package.path
local steer = require "steer"
local mode, dir = arg[1], arg[2]
local doubles = math.type == nil -- Lua 5.1 and LuaJIT

-- Each case: a.data's contents (built under 5.4), and what a 5.1 load
-- says after "agent ID's " (nil: it loads, and saves back the same bytes).
local cases = {
  { "integer past 2^53", function(d) d.v = math.tointeger(2 ^ 53) + 1 end,
    "a.data.v: the integer 9007199254740993 cannot be loaded exactly" },
  { "keys 2^53 and 2^53 + 1", function(d) d.keys = { [math.tointeger(2 ^ 53)] = "a", [math.tointeger(2 ^ 53) + 1] = "b" } end,
    "a.data.keys[9007199254740993]: the integer 9007199254740993 cannot be loaded exactly" },
  { "the largest integer", function(d) d.v = math.maxinteger end,
    "a.data.v: the integer 9223372036854775807 cannot be loaded exactly" },
  { "deep in a list", function(d) d.t = { list = { 1, math.tointeger(2 ^ 60) + 1 } } end,
    "a.data.t.list[2]: the integer 1152921504606846977 cannot be loaded exactly" },
  { "float 3.0", function(d) d.v = 3.0 end, "a.data.v: the float 3.0 cannot be loaded exactly" },
  { "float 2^62 under a float key", function(d) d[0.5] = { x = 2.0 ^ 62 } end,
    "a.data[0.5].x: the float 4611686018427387904.0 cannot be loaded exactly" },
  { "exact numbers", function(d)
      d.a, d.b, d.c, d.m = math.tointeger(2 ^ 53), -math.tointeger(2 ^ 53), math.tointeger(2 ^ 60), math.mininteger
      d.h, d.z, d.e, d.inf, d.ninf, d.big = 0.5, -0.0, 1e300, math.huge, -math.huge, 2.0 ^ 63
      d[1], d[-3], d[0.25] = true, "three", { 7, -0.0 }
    end },
}

local function path(i) return dir .. "/case" .. i .. ".snap" end
local function read(p)
  local f = assert(io.open(p, "rb"))
  local s = f:read("*a")
  f:close()
  return s
end
local function write(p, s)
  local f = assert(io.open(p, "wb"))
  f:write(s)
  f:close()
end

local failed = 0
local function fail(msg)
  failed = failed + 1
  print("FAIL: " .. msg)
end

if mode == "save" then
  for i, c in ipairs(cases) do
    local w = steer.world{ seed = 1 }
    local a = w:spawn{ position = { 1, 1 } }
    c[2](a.data)
    write(path(i), w:save())
  end
elseif mode == "check" then
  for i, c in ipairs(cases) do
    local s = read(path(i))
    local ok, w = pcall(steer.load, s)
    local want = doubles and c[3] or nil
    if want then
      if ok then fail(c[1] .. ": loaded; expected the refusal '" .. want .. "'")
      elseif not tostring(w):find("^steer%.load: agent %d+'s ") or not tostring(w):find(want, 1, true) then
        fail(c[1] .. ": expected '" .. want .. "', got '" .. tostring(w) .. "'")
      end
    elseif not ok then
      fail(c[1] .. ": refused: " .. tostring(w))
    else
      if w:save() ~= s then fail(c[1] .. ": saved back to other bytes") end
      local ok2, e = pcall(w.restore, w, s)
      if not ok2 then fail(c[1] .. ": w:restore refused: " .. tostring(e)) end
    end
  end
  print(("data_across: %d cases on %s, %d failed"):format(#cases, _VERSION, failed))
elseif mode == "make" then
  local w = steer.world{ seed = 1 }
  local a = w:spawn{ position = { 1, 1 } }
  -- (Lua 5.1 folds the constant -0.0 into 0)
  local neg0, big = -1 / math.huge, math.tointeger and math.tointeger(2 ^ 60) or 2 ^ 60
  a.data.z, a.data.i, a.data.h, a.data.big, a.data.huge = neg0, 3, 0.5, big, 2 ^ 63
  a.data[neg0] = "zero key"
  write(dir .. "/made.snap", w:save())
elseif mode == "verify" then
  local w = steer.load(read(dir .. "/made.snap"))
  local d
  for a in w:agents() do d = a.data end
  local function check(what, ok) if not ok then fail(what) end end
  check("-0.0 stays the float -0.0", math.type(d.z) == "float" and 1 / d.z < 0)
  check("3 is the integer 3", math.type(d.i) == "integer" and d.i == 3)
  check("0.5 is the float 0.5", d.h == 0.5)
  check("2^60 is the integer 2^60", math.type(d.big) == "integer" and d.big == math.tointeger(2 ^ 60))
  check("2^63 is the float 2^63", math.type(d.huge) == "float" and d.huge == 2.0 ^ 63)
  check("the key -0.0 is the key 0", d[0] == "zero key")
  print(("data_across: made elsewhere, read by %s, %d failed"):format(_VERSION, failed))
else
  io.stderr:write("usage: data_across.lua save|check|make|verify DIR\n")
  os.exit(2)
end
os.exit(failed == 0 and 0 or 1)
