// SPDX-License-Identifier: MIT
// steer_lua.h — the Lua side of the embedding API: open the `steer` module
// in a host's own lua_State (Lua 5.4).
#ifndef STEER_LUA_H
#define STEER_LUA_H

#include "steer.h"
#include "steer_draw.h"

#ifdef __cplusplus
extern "C" { // a C++ host links the C symbols (lua.h too, as Lua's own lua.hpp does)
#endif

#include <lua.h>

// Memory: grids, flow fields (and their A* and build scratch) and the
// module's own lists and scratch come from the state's allocator
// (lua_getallocf); worlds and behaviour trees, which the core allocates
// through steer_AllocFn hooks, from libc's (in an engine's states: from
// steer_EngineDesc's alloc, like everything else).
//
// The module's entry point, as `require "steer"` calls it.
STEER_API int luaopen_steer(lua_State *L);
// Register the module in package.preload, so scripts `require "steer"`
// without a steer.so on package.cpath (the `steer` program does this).
STEER_API void steer_lua_preload(lua_State *L);

// Make a host behaviour kind (steer.h) a constructor steer.NAME in this
// state, now and in a module opened later. The kind must outlive the state.
STEER_API void steer_lua_register_host(lua_State *L, const steer_HostKind *k);

// For a host that shows the world (the viewer): the world of a steer.world
// userdata at idx, or NULL when it is not one.
STEER_API steer_World *steer_lua_toworld(lua_State *L, int idx);
// Set what the world's `w.mouse` reads: the pointer's world position, or
// nil when pos is NULL (no pointer over the view).
STEER_API void steer_lua_set_mouse(lua_State *L, int world_idx, const double *pos);
// Push a `d` for a scenario's draw(d, w) that records into the host's list;
// the list must outlive every use of the value.
STEER_API void steer_lua_pushdraw(lua_State *L, steer_DrawList *list);
struct steerN_Layers;
// The grids the world at idx was given (w:add_grid) and the flow fields
// built on them, for a viewer to draw without calling into Lua (the type
// is the engine's own, src/nav/layers.h): valid while the world lives and
// kept up to date as grids are added and fields collected; NULL when idx
// is not a world.
STEER_API const struct steerN_Layers *steer_lua_nav(lua_State *L, int idx);

#ifdef __cplusplus
}
#endif

#endif
