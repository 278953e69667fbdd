-- SPDX-License-Identifier: MIT
-- navmesh_bench_spec.lua — `steer-bench navmesh --times FILE` (STEER_BENCH,
-- as meson sets it; bench/navmesh.c): each pair's time and whether a path
-- was found, the per-pair record bench/navmesh-vs-detour.py intersects
-- with detour-nav's to time only the pairs both sides found a path for.
-- Its found flags must agree with --lengths (a length, or "-" for no path).
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local here = debug.getinfo(1, "S").source:match("^@(.*)/tests/lua/[^/]*$") or "."
local bench = os.getenv("STEER_BENCH") or here .. "/build/bench/steer-bench"

local function quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local function lines(path)
  local out = {}
  for line in io.lines(path) do out[#out + 1] = line end
  return out
end

describe("steer-bench navmesh --times", function()
  it("writes each pair's time and found flag, as --lengths has them", function()
    local times, lens = os.tmpname(), os.tmpname()
    os.remove(times)
    os.remove(lens)
    local cmd = ("%s navmesh --level city --queries 60 --repeat 1 --times %s --lengths %s 2>&1")
      :format(quote(bench), quote(times), quote(lens))
    local p = assert(io.popen(cmd))
    local out = p:read("*a")
    local ok = p:close()
    expect(ok, cmd .. "\n" .. out):truthy()
    expect(select(2, out:gsub("navmesh level=city", "")), "lines, radius 0 and 0.5"):eq(2)
    local t, l = lines(times), lines(lens)
    os.remove(times)
    os.remove(lens)
    expect(#t, "--times lines"):eq(120)
    expect(#l, "--lengths lines"):eq(120)
    local found = 0
    for i = 1, #t do
      local level, radius, index, us, flag = t[i]:match("^(%S+) (%S+) (%d+) (%S+) ([01])$")
      expect(level, t[i]):eq("city")
      local llevel, lradius, lindex, len = l[i]:match("^(%S+) (%S+) (%d+) (%S+)$")
      expect(llevel .. " " .. lradius .. " " .. lindex, l[i]):eq(level .. " " .. radius .. " " .. index)
      expect(tonumber(us), t[i]):gt(0)
      expect(flag == "1", t[i] .. " against " .. l[i]):eq(len ~= "-")
      found = found + (flag == "1" and 1 or 0)
    end
    -- city at r 0.5 has pairs with no way wide enough: both kinds are there
    expect(found, "pairs found"):gt(0)
    expect(found, "pairs found"):lt(120)
  end)
end)
