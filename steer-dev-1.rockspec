-- SPDX-License-Identifier: MIT
-- steer-dev-1.rockspec — `luarocks make` in a checkout builds the `steer`
-- Lua module with meson (release, no viewer, no tests) and installs it with
-- its Lua files (the archetypes, steer.random, the LuaLS annotations) into
-- the rocks tree. Needs meson, ninja, a C compiler and the Lua headers
-- (Debian: meson ninja-build liblua5.4-dev); tests/rockspec.sh checks it.
package = "steer"
version = "dev-1"
source = { url = "git+https://example.invalid/steer.git" } -- `luarocks make` builds the checkout it runs in
description = {
  summary = "A steering engine for autonomous agents: behaviours, combiners, crowds, flow fields",
  detailed = [[
steer steers agents (guards, hordes, aircraft, flocks, crowds) with the
classic behaviours and combiners, ORCA crowds, directed seek, navigation
grids and flow fields, in a fast C11 core, with bit-exact replays and
snapshots.]],
  license = "MIT",
}
dependencies = { "lua >= 5.4, < 5.5" }
build = {
  type = "command",
  build_command = [[
    ( [ -f build-rock/build.ninja ] || meson setup build-rock -Dbuildtype=release -Dtests=false -Dviewer=disabled ) &&
    ninja -C build-rock steer.so
  ]],
  install = {
    lib = { steer = "build-rock/steer.so" },
    lua = {
      ["steer.random"] = "lua/steer/random.lua",
      ["steer.meta"] = "lua/steer/meta.lua",
      ["steer.archetypes.boid"] = "lua/steer/archetypes/boid.lua",
      ["steer.archetypes.fighter"] = "lua/steer/archetypes/fighter.lua",
      ["steer.archetypes.guard"] = "lua/steer/archetypes/guard.lua",
      ["steer.archetypes.pedestrian"] = "lua/steer/archetypes/pedestrian.lua",
      ["steer.archetypes.predator"] = "lua/steer/archetypes/predator.lua",
      ["steer.archetypes.prey"] = "lua/steer/archetypes/prey.lua",
      ["steer.archetypes.zombie"] = "lua/steer/archetypes/zombie.lua",
    },
  },
}
