-- SPDX-License-Identifier: MIT
-- routes_spec.lua — a patrol whose straight legs run into the walls of a
-- grid the world holds (w:add_grid) is warned about once, through the
-- world's log, at the script's line: when the brain is given to an agent
-- of a world with grids, and when a grid is added to a world whose agents
-- patrol. Routes clear of the walls, or away from the grid, say nothing.
-- The scenarios run in the steer program (STEER, as meson sets it), whose
-- log is stderr.
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local here = debug.getinfo(1, "S").source:match("^@(.*)/tests/lua/[^/]*$") or "."
local steer_exe = os.getenv("STEER") or here .. "/build/steer"

local function quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

-- Run a scenario whose setup(w) is `body` (a grid `g` is made first) for a
-- few ticks; its output, stdout and stderr together.
local function run(body)
  local path = os.tmpname() .. ".lua"
  local f = assert(io.open(path, "w"))
  f:write(([[
local steer = require "steer"
local function grid()
  return steer.grid{ cell = 1, map = {
    "..........",
    "....#.....",
    "....#.....",
    "....#.....",
    "..........",
  } }
end
return {
  world = { seed = 1, size = { 40, 40 } },
  setup = function(w)
    local g = grid()
%s
  end,
}
]]):format(body))
  f:close()
  local p = assert(io.popen(quote(steer_exe) .. " run --headless --ticks 5 " .. quote(path) .. " 2>&1"))
  local out = p:read("*a")
  p:close()
  os.remove(path)
  return out, path
end

local function count(s, pat)
  local n = 0
  for _ in s:gmatch(pat) do n = n + 1 end
  return n
end

describe("a patrol route through a grid's walls", function()
  it("is warned about once, at the spawn's line, naming the patrol and the leg", function()
    local out, path = run([[
    w:add_grid(g)
    local route = steer.patrol{ points = { { 1.5, 2.5 }, { 8.5, 2.5 } }, name = "guard" }
    for _ = 1, 5 do w:spawn{ position = { 1.5, 2.5 }, brain = route } end]])
    expect(count(out, "warning"), "warnings in:\n" .. out):eq(1)
    -- the spawn is line 17 of the scenario (the body starts at line 15)
    expect(out:find(path .. ":17: warning: steer.patrol 'guard': the leg from point 1 (1.5, 2.5) to point 2 "
      .. "(8.5, 2.5) runs into the walls of a grid this world holds (w:add_grid)", 1, true) ~= nil,
      "the warning names the line, the patrol and the leg:\n" .. out):truthy()
    expect(out:find("g:path(from, to)", 1, true) ~= nil, "and says how to route it:\n" .. out):truthy()
  end)

  it("is warned about when the grid comes after the agents, and for a.brain and a loop's closing leg", function()
    local out = run([[
    local a = w:spawn{ position = { 1.5, 0.5 } }
    a.brain = steer.patrol{ points = { { 1.5, 0.5 }, { 8.5, 0.5 }, { 8.5, 4.5 } } }
    w:add_grid(g)]])
    -- the closing leg, from (8.5, 4.5) back to (1.5, 0.5), crosses the wall
    expect(count(out, "warning"), "warnings in:\n" .. out):eq(1)
    expect(out:find(":17: warning: steer.patrol 'patrol': the leg from point 3 (8.5, 4.5) to point 1 (1.5, 0.5)", 1,
      true) ~= nil, "the add_grid line, the closing leg:\n" .. out):truthy()
  end)

  it("says nothing of routes clear of the walls, nor of routes away from the grid", function()
    local out = run([[
    w:add_grid(g)
    w:spawn{ brain = steer.patrol{ points = { { 1.5, 0.5 }, { 8.5, 0.5 }, { 8.5, 4.5 } }, mode = "pingpong" } }
    w:spawn{ brain = steer.patrol{ points = { { 1.5, 4.5 }, { 8.5, 4.5 } } } }
    w:spawn{ brain = steer.patrol{ points = { { 20, 20 }, { 30, 30 } } } }]])
    expect(count(out, "warning"), "warnings in:\n" .. out):eq(0)
  end)

  it("warns of a leg that crosses the grid's edge (outside counts as blocked)", function()
    local out = run([[
    w:add_grid(g)
    w:spawn{ brain = steer.patrol{ points = { { 1.5, 0.5 }, { 1.5, 20 } }, loop = false } }]])
    expect(count(out, "warning"), "warnings in:\n" .. out):eq(1)
  end)
end)

spec.report()
