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
-- Lua 5.4, 5.3, 5.1 or LuaJIT: the interpreter luarocks builds for picks
-- the module (build/modules/NAME/steer.so for all but 5.4; 5.1 and LuaJIT
-- need lua-compat53-dev too), copied to build-rock/rock/steer.so.
dependencies = { "lua >= 5.1, < 5.5" }
build = {
  type = "command",
  build_command = [[
    ( [ -f build-rock/build.ninja ] || meson setup build-rock -Dbuildtype=release -Dtests=false -Dviewer=disabled ) &&
    v=$("$(LUA)" -e 'io.write(jit and "luajit" or (_VERSION:gsub("Lua ", "lua")))') &&
    t=$( [ "$v" = lua5.4 ] && echo steer.so || echo modules/$v/steer.so ) &&
    ninja -C build-rock "$t" && mkdir -p build-rock/rock && cp "build-rock/$t" build-rock/rock/steer.so
  ]],
  install = {
    lib = { steer = "build-rock/rock/steer.so" },
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
