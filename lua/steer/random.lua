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
-- the same numbers on every machine.
local M = {}

-- A new stream from an integer seed (0 is replaced, as xorshift needs).
function M.new(seed)
  local s = math.tointeger(seed) or 0
  s = s & 0xFFFFFFFF
  return { state = s ~= 0 and s or 0x9E3779B9 }
end

-- The next number in [0, 1).
function M.float(r)
  local x = r.state
  x = (x ~ (x << 13)) & 0xFFFFFFFF
  x = x ~ (x >> 17)
  x = (x ~ (x << 5)) & 0xFFFFFFFF
  r.state = x
  return (x >> 8) / 16777216
end

-- An integer from 1 to n.
function M.int(r, n)
  return 1 + math.floor(M.float(r) * n)
end

return M
