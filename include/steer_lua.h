// SPDX-License-Identifier: MIT
// steer_lua.h — the Lua side of the embedding API: open the `steer` module
// in a host's own lua_State (Lua 5.4).
#ifndef STEER_LUA_H
#define STEER_LUA_H

#include "steer.h"
#include <lua.h>

// The module's entry point, as `require "steer"` calls it.
STEER_API int luaopen_steer(lua_State *L);
// Register the module in package.preload, so scripts `require "steer"`
// without a steer.so on package.cpath (the `steer` program does this).
STEER_API void steer_lua_preload(lua_State *L);

#endif
