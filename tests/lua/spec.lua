-- SPDX-License-Identifier: MIT
-- spec.lua — the smallest spec framework that gives useful failures.
--
--   local spec = require "spec"
--   local describe, it, expect = spec.describe, spec.it, spec.expect
--   describe("seek", function()
--     it("reaches its target", function()
--       expect(d, "distance"):lt(0.1)
--     end)
--   end)
--
-- Each `it` runs at once, in a protected call; one line per test goes to
-- stdout: "ok - name" or "FAIL - name: file:line: message". A failed
-- expectation names the spec line and both values; any other error also
-- gets a traceback. steer-spec calls report() after the file has run, which
-- prints "spec: N passed, N failed" and decides the exit status.
--
-- Under busted (`busted --lua=lua5.4` in the repository, .busted) the same
-- specs run as busted's: describe and it are busted's own, a failed
-- expectation is a busted failure, and report() does nothing (busted counts
-- and sets the exit status). busted runs a describe's body before its tests,
-- so what a test needs is made inside the test. busted is known by the
-- module its runner has loaded before any spec file; steer-spec never loads it.
local spec = {}
local busted = package.loaded["busted.runner"] and package.loaded.busted

local passed, failed = 0, 0
local names = {}
local started = os.clock()
local this_file = debug.getinfo(1, "S").source

-- A failed expectation: a table, so the handler can tell it from a crash.
local Failure = {}
Failure.__index = Failure
Failure.__tostring = function(f) return f.msg end

-- Lua 5.1 and LuaJIT have no integer subtype: there a whole number shows
-- as one.
local mtype = math.type or function(x)
  if type(x) == "number" then return x == math.floor(x) and "integer" or "float" end
  return nil
end

-- Show a value so that a failure message can be read without a debugger:
-- numbers to full precision, strings quoted, short tables inline.
local function show(v, depth)
  depth = depth or 0
  local t = type(v)
  if t == "number" then
    if mtype(v) == "integer" then return tostring(v) end
    if v ~= v then return "NaN" end
    return string.format("%.17g", v)
  elseif t == "string" then
    return string.format("%q", v)
  elseif t == "table" and depth < 2 then
    local parts, n = {}, 0
    for k, x in pairs(v) do
      n = n + 1
      if n > 8 then parts[#parts + 1] = "..." break end
      local key = mtype(k) == "integer" and "" or (tostring(k) .. " = ")
      parts[#parts + 1] = key .. show(x, depth + 1)
    end
    return "{" .. table.concat(parts, ", ") .. "}"
  end
  return tostring(v)
end
spec.show = show

-- file:line of the first frame outside this file: the spec's own line.
local function where()
  for level = 2, 50 do
    local info = debug.getinfo(level, "Sl")
    if not info then break end
    if info.source ~= this_file and info.currentline > 0 then
      return info.short_src .. ":" .. info.currentline .. ": "
    end
  end
  return ""
end

function spec.fail(msg)
  -- level 0: the message already names the spec's line
  if busted then busted.fail(where() .. msg, 0) end
  error(setmetatable({ msg = where() .. msg }, Failure), 0)
end

local function handler(e)
  if getmetatable(e) == Failure then return e.msg end
  return debug.traceback(tostring(e), 2)
end

-- The first line on the FAIL line, the traceback (if any) indented below.
local function print_failure(name, err)
  local first, rest = tostring(err):match("^([^\n]*)\n?(.*)$")
  print("FAIL - " .. name .. ": " .. first)
  if rest ~= "" then print((rest:gsub("[^\n]+", "    %0"))) end
end

function spec.describe(name, fn)
  names[#names + 1] = name
  local ok, err = xpcall(fn, handler)
  names[#names] = nil
  if not ok then
    -- an error between the `it` blocks: count it, keep going
    failed = failed + 1
    print_failure(name .. " (outside any test)", err)
  end
end

function spec.it(name, fn)
  local full = table.concat(names, " ") .. (#names > 0 and " " or "") .. name
  local ok, err = xpcall(fn, handler)
  if ok then
    passed = passed + 1
    print("ok - " .. full)
  else
    failed = failed + 1
    print_failure(full, err)
  end
  io.stdout:flush()
end

function spec.report()
  print(string.format("spec: %d passed, %d failed (%.2f s)", passed, failed, os.clock() - started))
  io.stdout:flush()
  return failed == 0 and passed > 0
end

if busted then
  spec.describe, spec.it = busted.describe, busted.it
  function spec.report() return true end
end

-- ---- expectations --------------------------------------------------------

-- `not (v < x)` rather than `v >= x`: a NaN value fails every comparison.
-- luacheck: ignore 581

local Expect = {}
Expect.__index = Expect

-- expect(value [, label]): the label names the value in failure messages.
function spec.expect(value, label)
  return setmetatable({ value = value, label = label }, Expect)
end

local function fail(e, fmt, ...)
  local what = e.label and (e.label .. ": ") or ""
  spec.fail(what .. string.format(fmt, ...))
end

function Expect:eq(x)
  if not (self.value == x) then fail(self, "expected %s, got %s", show(x), show(self.value)) end
  return self
end

function Expect:ne(x)
  if self.value == x then fail(self, "expected anything but %s", show(x)) end
  return self
end

local function number(e)
  if type(e.value) ~= "number" then fail(e, "expected a number, got %s", show(e.value)) end
  return e.value
end

function Expect:near(x, tol)
  local v = number(self)
  if not (math.abs(v - x) <= tol) then
    fail(self, "expected %s within %s, got %s (off by %s)", show(x), show(tol), show(v), show(math.abs(v - x)))
  end
  return self
end

function Expect:lt(x)
  if not (number(self) < x) then fail(self, "expected < %s, got %s", show(x), show(self.value)) end
  return self
end

function Expect:le(x)
  if not (number(self) <= x) then fail(self, "expected <= %s, got %s", show(x), show(self.value)) end
  return self
end

function Expect:gt(x)
  if not (number(self) > x) then fail(self, "expected > %s, got %s", show(x), show(self.value)) end
  return self
end

function Expect:ge(x)
  if not (number(self) >= x) then fail(self, "expected >= %s, got %s", show(x), show(self.value)) end
  return self
end

function Expect:finite()
  local v = number(self)
  if not (v == v and v ~= math.huge and v ~= -math.huge) then fail(self, "expected a finite number, got %s", show(v)) end
  return self
end

function Expect:truthy()
  if not self.value then fail(self, "expected a true value, got %s", show(self.value)) end
  return self
end

function Expect:falsy()
  if self.value then fail(self, "expected false or nil, got %s", show(self.value)) end
  return self
end

function Expect:type(t)
  if type(self.value) ~= t then fail(self, "expected a %s, got %s (%s)", t, type(self.value), show(self.value)) end
  return self
end

-- The value is a string containing every argument as plain text.
function Expect:contains(...)
  if type(self.value) ~= "string" then fail(self, "expected a string, got %s", show(self.value)) end
  for i = 1, select("#", ...) do
    local s = select(i, ...)
    if not self.value:find(s, 1, true) then fail(self, "expected %s to contain %s", show(self.value), show(s)) end
  end
  return self
end

function Expect:matches(pattern)
  if type(self.value) ~= "string" or not self.value:match(pattern) then
    fail(self, "expected a string matching %s, got %s", show(pattern), show(self.value))
  end
  return self
end

-- The value is a function that raises; every argument must appear in the
-- message as plain text. Returns the message for further checks.
function Expect:raises(...)
  local ok, msg = pcall(self.value)
  if ok then fail(self, "expected an error, but the call succeeded") end
  msg = tostring(msg)
  for i = 1, select("#", ...) do
    local s = select(i, ...)
    if not msg:find(s, 1, true) then fail(self, "expected the error to contain %s, got %s", show(s), show(msg)) end
  end
  return msg
end

-- As raises, and the message starts with the position of the function
-- itself (its file:line): write the bad call as a one-line function at the
-- call site, and its error must point there.
function Expect:raises_here(...)
  local msg = self:raises(...)
  local info = debug.getinfo(self.value, "S")
  local here = info.short_src .. ":" .. info.linedefined .. ": "
  if msg:sub(1, #here) ~= here then fail(self, "expected the error to start with %s, got %s", show(here), show(msg)) end
  return msg
end

function Expect:succeeds()
  local ok, msg = pcall(self.value)
  if not ok then fail(self, "expected no error, got %s", show(tostring(msg))) end
  return self
end

-- The repository's root, from this file's path (tests/lua/spec.lua).
spec.root = debug.getinfo(1, "S").source:match("^@(.*)/tests/lua/[^/]*$") or "."

-- A file of the repository (a path from its root), whole, as bytes.
function spec.read(rel)
  local f = assert(io.open(spec.root .. "/" .. rel, "rb"))
  local s = f:read("*a") -- (Lua 5.1 knows only "*a")
  f:close()
  return s
end

return spec
