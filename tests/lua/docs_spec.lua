-- SPDX-License-Identifier: MIT
-- docs_spec.lua — every public name the bindings offer has a LuaLS
-- annotation in lua/steer/meta.lua and a line in docs/api.md, so a user
-- who finds a function by completion or in the reference finds it in both.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

-- The repository root, from this file's path (tests/lua/docs_spec.lua).
local here = debug.getinfo(1, "S").source:match("^@(.*)/tests/lua/[^/]*$") or "."
local function slurp(rel)
  local f = assert(io.open(here .. "/" .. rel, "r"))
  local s = f:read("a")
  f:close()
  return s
end
local meta, api = slurp("lua/steer/meta.lua"), slurp("docs/api.md")

-- A method we cannot list from Lua (World and Agent use __index functions):
-- probed instead, so a name here that the bindings lack fails too.
local world_methods = { "step", "spawn", "agents", "neighbors", "hash", "on", "bytes", "add_obstacle",
  "add_wall", "add_plane", "add_box", "remove_shape", "raycast", "save", "restore", "same_brain" }
local agent_methods = { "xy", "vxy", "force", "remove", "contributions" }
local agent_fields = { "id", "alive", "position", "velocity", "heading", "up", "speed", "world", "tag", "brain",
  "max_speed", "max_force", "radius", "mass", "target", "data", "think", "think_hz" }

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
