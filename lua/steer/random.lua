-- SPDX-License-Identifier: MIT
-- random.lua — a random stream a snapshot keeps: its whole state is one
-- integer in a plain table, so it can live in a.data or in what a
-- scenario's save(w) returns, and a load or a rewind goes on with the same
-- numbers. Lua's math.random keeps its state where no snapshot sees it.
--
--   local random = require "steer.random"
--   local r = random.new(7)
--   random.float(r)      -- [0, 1)
--   random.int(r, 6)     -- 1 .. 6
--
-- The stream is the xorshift32 of docs/benchmarks.md, with 24-bit draws:
-- the same numbers on every machine and every Lua (5.1 to 5.4, LuaJIT).
-- The step is steer.xorshift32, in C: Lua 5.1 has no bitwise operators.
local xorshift32 = require("steer").xorshift32
local floor = math.floor

-- math.tointeger, which Lua 5.1 and LuaJIT lack (their numbers are floats)
local tointeger = math.tointeger or function(x)
  x = tonumber(x)
  if x and x == floor(x) and x > -2 ^ 63 and x < 2 ^ 63 then return x end
  return nil
end

local M = {}

-- A new stream from an integer seed (0 is replaced, as xorshift needs).
function M.new(seed)
  local s = (type(seed) == "number" or type(seed) == "string") and tointeger(seed) or 0
  s = s % 4294967296
  return { state = s ~= 0 and s or 0x9E3779B9 }
end

-- The next number in [0, 1).
function M.float(r)
  local x = xorshift32(r.state)
  r.state = x
  return floor(x / 256) / 16777216
end

-- An integer from 1 to n.
function M.int(r, n)
  return 1 + math.floor(M.float(r) * n)
end

return M
